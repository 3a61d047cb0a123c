//! `simt test`: run every kernel that has a `launch` section, with its defaults, and check it.
//!
//! A *case* is one `launch` section of one `.sk` file. It passes when the kernel runs and every
//! `expect` holds. A file can instead declare that its kernels must fail, in a comment line:
//!
//! ```text
//! // simt-test: expect-error simt::run::out_of_bounds
//! ```
//!
//! Then each of its cases passes only if the run stops with a diagnostic of that code (a demo of
//! a bug, such as `kernels/out_of_bounds.sk`). A file without a `launch` section is a failed
//! case: there is nothing to check.
//!
//! A case whose run reports a race or a read of uninitialised memory fails, although its
//! `expect`s held (they may hold by luck of simt's lock-step order): a file that demonstrates
//! one says so with `// simt-test: expect-race` or `// simt-test: expect-uninit`, and then
//! fails if the run does not report it.
//!
//! Files run in parallel (`--jobs`); their cases are reported in file order as soon as every
//! earlier file is done.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use miette::Diagnostic;
use serde_json::Value;

use crate::pipeline::{self, Failure, RunOptions};
use crate::report::model::{TestRecord, TestVerdict, Version};
use crate::report::Report;

/// The marker that starts a directive comment.
const DIRECTIVE: &str = "// simt-test:";

/// How one case ended.
#[derive(Debug)]
pub enum Verdict {
    /// It ran and every `expect` held.
    Passed,
    /// It stopped with the diagnostic code the file's directive expects.
    FailedAsExpected(String),
    /// It ran, but these `expect`s failed: their text and why; then the races and
    /// uninitialised reads the file does not expect (often the reason), one line per group.
    ExpectsFailed(Vec<(String, String)>, Vec<String>),
    /// It ran and its `expect`s held, but it raced or read uninitialised memory, and the file
    /// does not say it should: one line per group.
    Findings(Vec<String>),
    /// It stopped with diagnostics the file did not expect.
    Error(Failure),
    /// Something other than a diagnostic is wrong: no launch section, a bad directive, or a run
    /// that succeeded although the file expects an error.
    Invalid(String),
}

/// One `launch` section (or one file that could not be split into sections).
#[derive(Debug)]
pub struct Case {
    /// The file, as given or found.
    pub file: String,
    /// The kernel of the launch section, when the file got that far.
    pub kernel: Option<String>,
    /// The outcome.
    pub verdict: Verdict,
}

impl Case {
    /// Whether the case passed.
    pub fn passed(&self) -> bool {
        matches!(self.verdict, Verdict::Passed | Verdict::FailedAsExpected(_))
    }

    /// `kernel (file)`, or the file alone.
    pub fn name(&self) -> String {
        match &self.kernel {
            Some(k) => format!("{k} ({})", self.file),
            None => self.file.clone(),
        }
    }

    /// Its line (`ok  name`, `FAILED  name`) with the reasons for a failure indented below.
    pub fn render(&self) -> String {
        let status = if self.passed() { "ok" } else { "FAILED" };
        let mut s = format!("{status:<7} {}", self.name());
        for line in self.details() {
            s.push_str(&format!("\n        {line}"));
        }
        if let Verdict::FailedAsExpected(code) = &self.verdict {
            s.push_str(&format!("  (stopped with {code}, as expected)"));
        }
        s.push('\n');
        s
    }

    /// Why it failed, one line per reason (nothing when it passed).
    pub fn details(&self) -> Vec<String> {
        match &self.verdict {
            Verdict::Passed | Verdict::FailedAsExpected(_) => Vec::new(),
            Verdict::ExpectsFailed(fails, found) => fails
                .iter()
                .map(|(text, why)| format!("expect {text}: {why}"))
                .chain(found.iter().cloned())
                .collect(),
            Verdict::Findings(lines) => lines.clone(),
            Verdict::Error(f) => f
                .errors
                .iter()
                .map(|e| {
                    let code = e.code().map(|c| c.to_string()).unwrap_or_default();
                    format!("{code}: {e}")
                })
                .collect(),
            Verdict::Invalid(why) => vec![why.clone()],
        }
    }

    /// The case in the output model: one `simt test --json` line.
    pub fn record(&self) -> TestRecord {
        let verdict = match &self.verdict {
            Verdict::Passed => TestVerdict::Passed,
            Verdict::FailedAsExpected(_) => TestVerdict::FailedAsExpected,
            Verdict::ExpectsFailed(..) => TestVerdict::ExpectsFailed,
            Verdict::Findings(_) => TestVerdict::Findings,
            Verdict::Error(_) => TestVerdict::Error,
            Verdict::Invalid(_) => TestVerdict::Invalid,
        };
        TestRecord {
            schema: Version,
            file: self.file.clone(),
            kernel: self.kernel.clone(),
            passed: self.passed(),
            verdict,
            details: self.details(),
        }
    }

    /// One JSON record: `{schema, file, kernel, passed, verdict, details}`.
    pub fn to_json(&self) -> Value {
        crate::report::json::to_value(&self.record())
    }
}

/// How `simt test` runs its cases.
#[derive(Clone, Debug)]
pub struct TestOptions {
    /// Files run at once.
    pub jobs: usize,
    /// `--max-steps` of every launch.
    pub max_steps: u64,
    /// `--max-block-steps` of every launch.
    pub max_block_steps: u64,
    /// How long one launch may run.
    pub timeout: Option<Duration>,
    /// `-D NAME=VALUE`: macros every file is read with.
    pub defines: Vec<(String, String)>,
    /// `--allow-paths`: launch sections may `load` files outside their kernel file's folder.
    pub allow_paths: bool,
}

impl Default for TestOptions {
    /// One file at a time, the limits of `simt run`, no time limit.
    fn default() -> TestOptions {
        TestOptions {
            jobs: 1,
            max_steps: pipeline::DEFAULT_MAX_STEPS,
            max_block_steps: pipeline::DEFAULT_MAX_BLOCK_STEPS,
            timeout: None,
            defines: Vec::new(),
            allow_paths: false,
        }
    }
}

/// Every case of a `simt test` run, in file order.
#[derive(Debug)]
pub struct Summary {
    /// The cases.
    pub cases: Vec<Case>,
}

impl Summary {
    /// Cases that passed.
    pub fn passed(&self) -> usize {
        self.cases.iter().filter(|c| c.passed()).count()
    }

    /// Cases that failed.
    pub fn failed(&self) -> usize {
        self.cases.len() - self.passed()
    }

    /// One line per case (failures with their reasons indented below) and the summary line
    /// `N passed, M failed`.
    pub fn render(&self) -> String {
        let mut s: String = self.cases.iter().map(Case::render).collect();
        s.push_str(&self.totals());
        s
    }

    /// The summary line: `N passed, M failed`.
    pub fn totals(&self) -> String {
        format!("{} passed, {} failed\n", self.passed(), self.failed())
    }
}

/// The `.sk` files named by `paths`: files as given, folders searched recursively, each sorted.
pub fn files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let before = out.len();
            collect(p, &mut out)?;
            if out.len() == before {
                return Err(Failure::usage(
                    format!("no .sk files in `{}`", p.display()),
                    None,
                ));
            }
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            return Err(Failure::usage(
                format!("`{}`: no such file or folder", p.display()),
                None,
            ));
        }
    }
    Ok(out)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), Failure> {
    let read = std::fs::read_dir(dir)
        .map_err(|e| Failure::usage(format!("cannot read `{}`: {e}", dir.display()), None))?;
    let mut entries: Vec<PathBuf> = read.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "sk") {
            out.push(p);
        }
    }
    Ok(())
}

/// Runs every case of every file under `paths`.
pub fn run(paths: &[PathBuf], opts: &TestOptions) -> Result<Summary, Failure> {
    run_each(paths, opts, |_| {})
}

/// [`run`], handing each file's cases to `each` as soon as it and every file before it are
/// done, so that the cases come in file order however many run at once.
pub fn run_each(
    paths: &[PathBuf],
    opts: &TestOptions,
    mut each: impl FnMut(&[Case]),
) -> Result<Summary, Failure> {
    let files = files(paths)?;
    let jobs = opts.jobs.clamp(1, files.len().max(1));
    let mut cases = Vec::new();
    if jobs == 1 {
        for f in &files {
            let done = run_file_with(f, opts);
            each(&done);
            cases.extend(done);
        }
        return Ok(Summary { cases });
    }
    // Launches of files running side by side each take one core (`run_file_on(.., 1)`).
    let next = AtomicUsize::new(0);
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let (send, next, files) = (send.clone(), &next, &files);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(f) = files.get(i) else { break };
                if send.send((i, run_file_on(f, opts, 1))).is_err() {
                    break;
                }
            });
        }
        drop(send);
        let mut waiting = BTreeMap::new();
        let mut due = 0;
        for (i, done) in receive {
            waiting.insert(i, done);
            while let Some(done) = waiting.remove(&due) {
                each(&done);
                cases.extend(done);
                due += 1;
            }
        }
    });
    Ok(Summary { cases })
}

/// Runs every `launch` section of one file with the default options.
pub fn run_file(path: &Path) -> Vec<Case> {
    run_file_with(path, &TestOptions::default())
}

/// Runs every `launch` section of one file.
pub fn run_file_with(path: &Path, opts: &TestOptions) -> Vec<Case> {
    run_file_on(path, opts, pipeline::default_threads())
}

/// Runs every `launch` section of one file, each launch on `threads` workers.
fn run_file_on(path: &Path, opts: &TestOptions, threads: usize) -> Vec<Case> {
    let file = path.display().to_string();
    // One case for the whole file, when it cannot be split into launch sections.
    let whole_file = |verdict: Verdict| {
        vec![Case {
            file: file.clone(),
            kernel: None,
            verdict,
        }]
    };
    let src = match pipeline::read(path) {
        Ok(s) => s,
        Err(f) => return whole_file(Verdict::Error(f)),
    };
    let directives = match directives(src.text()) {
        Ok(d) => d,
        Err(why) => return whole_file(Verdict::Invalid(why)),
    };
    let expected = directives.error.clone();
    let module = match pipeline::compile_for(&src, None, &defaults(None).gpu, &opts.defines) {
        Ok((module, _)) => module,
        Err(f) => return whole_file(judge_failure(f, expected.as_deref())),
    };
    if module.launches.is_empty() && module.sequences.is_empty() {
        return whole_file(Verdict::Invalid(
            "no `launch` or `sequence` section: nothing to run".into(),
        ));
    }
    let sequences = module.sequences.iter().enumerate().map(|(index, q)| {
        let kernels: Vec<&str> = q
            .items
            .iter()
            .filter_map(|i| match i {
                crate::syntax::ast::SeqItem::Launch(l) => Some(l.kernel.name.as_str()),
                crate::syntax::ast::SeqItem::Stmt(_) => None,
            })
            .collect();
        let mut run_opts = RunOptions {
            max_steps: opts.max_steps,
            max_block_steps: opts.max_block_steps,
            timeout: opts.timeout,
            threads,
            defines: opts.defines.clone(),
            ..defaults(None)
        };
        run_opts.overrides.allow_paths = opts.allow_paths;
        let verdict = match pipeline::run_sequence(&src, &run_opts, index) {
            Ok(run) => match &expected {
                Some(code) => Verdict::Invalid(format!(
                    "ran to completion, but the file expects the error {code}"
                )),
                None => {
                    let reports: Vec<&Report> = run.launches.iter().collect();
                    judge(&reports, &run.expects, &directives)
                }
            },
            Err(f) => judge_failure(f, expected.as_deref()),
        };
        Case {
            file: file.clone(),
            kernel: Some(format!("sequence ({})", kernels.join(", "))),
            verdict,
        }
    });
    let sequences: Vec<Case> = sequences.collect();
    module
        .launches
        .iter()
        .enumerate()
        .map(|(section, l)| {
            let kernel = l.kernel.name.clone();
            let mut run_opts = RunOptions {
                section: Some(section),
                max_steps: opts.max_steps,
                max_block_steps: opts.max_block_steps,
                timeout: opts.timeout,
                threads,
                defines: opts.defines.clone(),
                ..defaults(Some(kernel.clone()))
            };
            run_opts.overrides.allow_paths = opts.allow_paths;
            let verdict = match pipeline::run(&src, &run_opts) {
                Ok(report) => match &expected {
                    Some(code) => Verdict::Invalid(format!(
                        "ran to completion, but the file expects the error {code}"
                    )),
                    None => judge_report(&report, &directives),
                },
                Err(f) => judge_failure(f, expected.as_deref()),
            };
            Case {
                file: file.clone(),
                kernel: Some(kernel),
                verdict,
            }
        })
        .chain(sequences)
        .collect()
}

/// The verdict on a run that finished: its `expect`s, then its races and uninitialised reads
/// against what the file's directives allow.
fn judge_report(report: &Report, d: &Directives) -> Verdict {
    judge(&[report], &[], d)
}

/// The verdict on finished launches (one, or a sequence's with the sequence's own `expect`s
/// `more`): every `expect`, then the races and uninitialised reads of them all.
fn judge(reports: &[&Report], more: &[crate::host::ExpectResult], d: &Directives) -> Verdict {
    let fails: Vec<(String, String)> = reports
        .iter()
        .flat_map(|r| &r.expects)
        .chain(more)
        .filter(|e| !e.passed)
        .map(|e| (e.text.clone(), e.detail.clone().unwrap_or_default()))
        .collect();
    let found = findings(reports, d);
    if !fails.is_empty() {
        return Verdict::ExpectsFailed(fails, found);
    }
    let races: u64 = reports.iter().map(|r| r.counters.race_count).sum();
    let uninit: u64 = reports.iter().map(|r| r.counters.uninit_count).sum();
    if d.race && races == 0 {
        return Verdict::Invalid(
            "the file expects a race (`expect-race`), but the run found none".into(),
        );
    }
    if d.uninit && uninit == 0 {
        return Verdict::Invalid(
            "the file expects a read of uninitialised memory (`expect-uninit`), but the run found none".into(),
        );
    }
    if found.is_empty() {
        return Verdict::Passed;
    }
    // Only the directives the file lacks for what was found.
    let races = !d.race && reports.iter().any(|r| !r.races.is_empty());
    let uninit = !d.uninit && reports.iter().any(|r| !r.uninit.is_empty());
    let say = match (races, uninit) {
        (true, true) => format!("`{DIRECTIVE} expect-race` and `{DIRECTIVE} expect-uninit`"),
        (true, false) => format!("`{DIRECTIVE} expect-race`"),
        _ => format!("`{DIRECTIVE} expect-uninit`"),
    };
    let mut found = found;
    found.push(format!("(a demonstration of this bug says so with {say})"));
    Verdict::Findings(found)
}

/// The races and uninitialised reads of `reports` that the directives `d` do not expect, one
/// line per group.
fn findings(reports: &[&Report], d: &Directives) -> Vec<String> {
    let mut found = Vec::new();
    for report in reports {
        if !d.race {
            found.extend(
                report
                    .races
                    .iter()
                    .map(|r| format!("race: {} ({}); fix: {}", r.describe(), r.extent(), r.fix)),
            );
        }
        if !d.uninit {
            found.extend(
                report
                    .uninit
                    .iter()
                    .map(|u| format!("uninitialised read: {} ({})", u.describe(), u.extent())),
            );
        }
    }
    found
}

/// `simt run FILE --kernel NAME` with every flag at its default.
pub fn defaults(kernel: Option<String>) -> RunOptions {
    RunOptions {
        kernel,
        ..RunOptions::default()
    }
}

fn judge_failure(f: Failure, expected: Option<&str>) -> Verdict {
    match expected {
        Some(code)
            if f.errors
                .iter()
                .any(|e| e.code().is_some_and(|c| c.to_string() == code)) =>
        {
            Verdict::FailedAsExpected(code.to_string())
        }
        _ => Verdict::Error(f),
    }
}

/// What a file's `// simt-test:` lines say it demonstrates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Directives {
    /// `expect-error CODE`: every case must stop with this diagnostic.
    error: Option<String>,
    /// `expect-race`: the runs must report a race.
    race: bool,
    /// `expect-uninit`: the runs must report a read of uninitialised memory.
    uninit: bool,
}

/// The file's directives, or why they are malformed.
fn directives(text: &str) -> Result<Directives, String> {
    let mut d = Directives::default();
    for (i, line) in text.lines().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix(DIRECTIVE) else {
            continue;
        };
        let words: Vec<&str> = rest.split_whitespace().collect();
        match words.as_slice() {
            ["expect-error", code] if d.error.is_none() => d.error = Some((*code).to_string()),
            ["expect-error", _] => {
                return Err(format!(
                    "line {}: a second `expect-error` directive",
                    i + 1
                ))
            }
            ["expect-race"] => d.race = true,
            ["expect-uninit"] => d.uninit = true,
            _ => {
                return Err(format!(
                    "line {}: unknown directive `{}` (the directives are `{DIRECTIVE} expect-error CODE`, `expect-race` and `expect-uninit`)",
                    i + 1,
                    rest.trim()
                ))
            }
        }
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_name_one_error_code() {
        let error = |text: &str| directives(text).map(|d| d.error);
        assert_eq!(error("int x;\n"), Ok(None));
        assert_eq!(
            error("// a demo\n  // simt-test: expect-error simt::run::out_of_bounds\n"),
            Ok(Some("simt::run::out_of_bounds".into()))
        );
        assert!(error("// simt-test: expect-eror x\n")
            .unwrap_err()
            .starts_with("line 1: unknown directive `expect-eror x`"));
        assert!(
            error("// simt-test: expect-error a\n// simt-test: expect-error b\n")
                .unwrap_err()
                .starts_with("line 2: a second")
        );
    }

    #[test]
    fn directives_allow_races_and_uninitialised_reads() {
        assert_eq!(
            directives("// simt-test: expect-race\n// simt-test: expect-uninit\n"),
            Ok(Directives {
                error: None,
                race: true,
                uninit: true
            })
        );
        assert!(directives("// simt-test: expect-race now\n").is_err());
    }
}

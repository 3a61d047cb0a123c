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

use std::path::{Path, PathBuf};

use miette::Diagnostic;

use crate::pipeline::{self, Failure, RunOptions};

/// The marker that starts a directive comment.
const DIRECTIVE: &str = "// simt-test:";

/// How one case ended.
#[derive(Debug)]
pub enum Verdict {
    /// It ran and every `expect` held.
    Passed,
    /// It stopped with the diagnostic code the file's directive expects.
    FailedAsExpected(String),
    /// It ran, but these `expect`s failed: their text and why.
    ExpectsFailed(Vec<(String, String)>),
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
        let mut s = String::new();
        for c in &self.cases {
            let status = if c.passed() { "ok" } else { "FAILED" };
            s.push_str(&format!("{status:<7} {}", c.name()));
            match &c.verdict {
                Verdict::Passed => {}
                Verdict::FailedAsExpected(code) => {
                    s.push_str(&format!("  (stopped with {code}, as expected)"));
                }
                Verdict::ExpectsFailed(fails) => {
                    for (text, why) in fails {
                        s.push_str(&format!("\n        expect {text}: {why}"));
                    }
                }
                Verdict::Error(f) => {
                    for e in &f.errors {
                        let code = e.code().map(|c| c.to_string()).unwrap_or_default();
                        s.push_str(&format!("\n        {code}: {e}"));
                    }
                }
                Verdict::Invalid(why) => s.push_str(&format!("\n        {why}")),
            }
            s.push('\n');
        }
        s.push_str(&format!(
            "{} passed, {} failed\n",
            self.passed(),
            self.failed()
        ));
        s
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
pub fn run(paths: &[PathBuf]) -> Result<Summary, Failure> {
    let cases = files(paths)?.iter().flat_map(|f| run_file(f)).collect();
    Ok(Summary { cases })
}

/// Runs every `launch` section of one file.
pub fn run_file(path: &Path) -> Vec<Case> {
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
    let expected = match expected_error(src.text()) {
        Ok(e) => e,
        Err(why) => return whole_file(Verdict::Invalid(why)),
    };
    let module = match pipeline::compile(&src) {
        Ok((module, _)) => module,
        Err(f) => return whole_file(judge_failure(f, expected.as_deref())),
    };
    if module.launches.is_empty() {
        return whole_file(Verdict::Invalid(
            "no `launch` section: nothing to run".into(),
        ));
    }
    module
        .launches
        .iter()
        .map(|l| {
            let kernel = l.kernel.name.clone();
            let verdict = match pipeline::run(&src, &defaults(Some(kernel.clone()))) {
                Ok(report) => match &expected {
                    Some(code) => Verdict::Invalid(format!(
                        "ran to completion, but the file expects the error {code}"
                    )),
                    None => {
                        let fails: Vec<(String, String)> = report
                            .expects
                            .iter()
                            .filter(|e| !e.passed)
                            .map(|e| (e.text.clone(), e.detail.clone().unwrap_or_default()))
                            .collect();
                        if fails.is_empty() {
                            Verdict::Passed
                        } else {
                            Verdict::ExpectsFailed(fails)
                        }
                    }
                },
                Err(f) => judge_failure(f, expected.as_deref()),
            };
            Case {
                file: file.clone(),
                kernel: Some(kernel),
                verdict,
            }
        })
        .collect()
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

/// The code named by an `expect-error` directive, if the file has one.
fn expected_error(text: &str) -> Result<Option<String>, String> {
    let mut found = None;
    for (i, line) in text.lines().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix(DIRECTIVE) else {
            continue;
        };
        let words: Vec<&str> = rest.split_whitespace().collect();
        match words.as_slice() {
            ["expect-error", code] if found.is_none() => found = Some((*code).to_string()),
            ["expect-error", _] => {
                return Err(format!(
                    "line {}: a second `expect-error` directive",
                    i + 1
                ))
            }
            _ => {
                return Err(format!(
                    "line {}: unknown directive `{}` (the one directive is `{DIRECTIVE} expect-error CODE`)",
                    i + 1,
                    rest.trim()
                ))
            }
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_name_one_error_code() {
        assert_eq!(expected_error("int x;\n"), Ok(None));
        assert_eq!(
            expected_error("// a demo\n  // simt-test: expect-error simt::run::out_of_bounds\n"),
            Ok(Some("simt::run::out_of_bounds".into()))
        );
        assert!(expected_error("// simt-test: expect-eror x\n")
            .unwrap_err()
            .starts_with("line 1: unknown directive `expect-eror x`"));
        assert!(
            expected_error("// simt-test: expect-error a\n// simt-test: expect-error b\n")
                .unwrap_err()
                .starts_with("line 2: a second")
        );
    }
}

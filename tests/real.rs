//! The real-kernel corpus: public CUDA kernels, copied verbatim into `tests/real/*.sk` with a
//! launch section each, run with `simt test` and held against a ratchet list.
//!
//! `tests/real/KNOWN_FAILING.txt` names the files simt cannot run yet, one per line, with the
//! construct that stops it after a `#`. Every file not in the list must pass; every file in the list
//! must still fail, so the list shrinks as simt learns a construct (the failure message says which
//! lines to delete). The kernel files themselves are kept out of git (see `tests/real/README.md`):
//! where they are absent, as in a fresh clone, there is nothing to check and the test passes; a
//! listed file that is absent from a partial corpus is not checked (the test says how many).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The corpus folder, relative to the repository root.
const DIR: &str = "tests/real";
/// The ratchet list inside it.
const LIST: &str = "KNOWN_FAILING.txt";
/// One file may take this long before it counts as a failure (a kernel that never ends).
const TIMEOUT: Duration = Duration::from_secs(60);

/// The outcome of `simt test FILE`.
struct Outcome {
    file: String,
    passed: bool,
    /// What to show for an unexpected failure: the lines that name the problem.
    detail: String,
    took: Duration,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `.sk` files of the corpus, by name, sorted.
fn corpus() -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(root().join(DIR)) else {
        return Vec::new();
    };
    let mut files: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sk"))
        .collect();
    files.sort();
    files
}

/// `(file, reason)` for each line of the ratchet list; malformed lines are reported as errors.
fn known_failing(errors: &mut Vec<String>) -> Vec<(String, String)> {
    let path = root().join(DIR).join(LIST);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            errors.push(format!("cannot read {}: {e}", path.display()));
            return Vec::new();
        }
    };
    let mut out: Vec<(String, String)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let (name, reason) = match line.split_once('#') {
            Some((n, r)) => (n.trim(), r.trim()),
            None => (line.trim(), ""),
        };
        if name.is_empty() {
            continue;
        }
        if !name.ends_with(".sk") || name.contains(char::is_whitespace) {
            errors.push(format!(
                "{LIST} line {}: `{name}` is not a file name ending in .sk",
                i + 1
            ));
        } else if reason.is_empty() {
            errors.push(format!(
                "{LIST} line {}: `{name}` needs a reason after `#`",
                i + 1
            ));
        } else if out.iter().any(|(n, _)| n == name) {
            errors.push(format!("{LIST} line {}: `{name}` is listed twice", i + 1));
        } else {
            out.push((name.to_string(), reason.to_string()));
        }
    }
    out
}

/// Runs `simt test tests/real/FILE` from the repository root, with a time limit.
fn run(file: &str) -> Outcome {
    let start = Instant::now();
    let rel = Path::new(DIR).join(file);
    let mut child = Command::new(env!("CARGO_BIN_EXE_simt"))
        .arg("test")
        .arg(&rel)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("simt starts");
    // Drain both pipes while waiting, so a long report cannot block the child.
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for simt") {
            break Some(status);
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let out = out_reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    let took = start.elapsed();
    let passed = status.is_some_and(|s| s.success());
    let detail = match status {
        None => format!("timed out after {} s", TIMEOUT.as_secs()),
        Some(_) => summarize(&out, &err),
    };
    Outcome {
        file: file.to_string(),
        passed,
        detail,
        took,
    }
}

/// The lines of a failed run worth reading: the verdict, failed expects and diagnostic headlines.
fn summarize(out: &str, err: &str) -> String {
    let mut picked: Vec<&str> = out
        .lines()
        .chain(err.lines())
        .map(str::trim)
        .filter(|l| {
            l.starts_with("FAILED")
                || l.starts_with("simt::")
                || l.starts_with('×')
                || l.contains("differ")
                || l.contains("is false")
        })
        .collect();
    picked.dedup();
    picked.truncate(6);
    if picked.is_empty() {
        let all: Vec<&str> = out.lines().chain(err.lines()).collect();
        all[all.len().saturating_sub(6)..].join("\n        ")
    } else {
        picked.join("\n        ")
    }
}

#[test]
fn real_kernels_match_the_ratchet_list() {
    let files = corpus();
    if files.is_empty() {
        eprintln!(
            "{DIR}: no corpus files here (the public kernels are kept out of git; see {DIR}/README.md): nothing to check"
        );
        return;
    }
    let mut problems: Vec<String> = Vec::new();
    let listed = known_failing(&mut problems);
    // The corpus lives in one machine's working tree, so another machine may hold part of it:
    // a listed file that is not here is not checked, and said so.
    let absent = listed.iter().filter(|(n, _)| !files.contains(n)).count();
    if absent > 0 {
        eprintln!("{DIR}: {absent} files of {LIST} are not here (a partial corpus): not checked");
    }

    // A few workers (up to 4): each file is a separate `simt` process, and CI machines have few cores.
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 4));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut outcomes: Vec<Outcome> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(f) = files.get(i) else { break };
                        mine.push(run(f));
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker"))
            .collect()
    });
    outcomes.sort_by(|a, b| a.file.cmp(&b.file));

    let mut accepted = 0;
    let mut still_failing = 0;
    for o in &outcomes {
        let known = listed.iter().find(|(n, _)| *n == o.file);
        match (o.passed, known) {
            (true, None) => accepted += 1,
            (false, Some(_)) => still_failing += 1,
            (true, Some((_, reason))) => {
                accepted += 1;
                problems.push(format!(
                    "{} now passes: delete its line from {DIR}/{LIST} (it said: {reason})",
                    o.file
                ));
            }
            (false, None) => problems.push(format!(
                "{} fails but is not in {DIR}/{LIST}:\n        {}",
                o.file, o.detail
            )),
        }
    }

    let total: Duration = outcomes.iter().map(|o| o.took).sum();
    let slowest = outcomes.iter().max_by_key(|o| o.took);
    eprintln!(
        "{DIR}: accepted {accepted} of {} ({still_failing} known failing; {:.1} s of runs, slowest {} {:.2} s)",
        outcomes.len(),
        total.as_secs_f64(),
        slowest.map_or("-", |o| o.file.as_str()),
        slowest.map_or(0.0, |o| o.took.as_secs_f64()),
    );
    assert!(
        problems.is_empty(),
        "the real-kernel corpus disagrees with {DIR}/{LIST}:\n  - {}\n",
        problems.join("\n  - ")
    );
}

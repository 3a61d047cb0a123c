//! A deterministic performance check: callgrind counts the instructions simt executes on the
//! benchmark kernels, and a count that rises past its budget in `tests/instructions.txt` fails.
//! Instruction counts do not depend on what else the machine is doing, so this catches a slower
//! hot loop without timing noise. It needs valgrind; `SIMT_SKIP_INSTRUCTION_COUNTS=1` skips it
//! where valgrind does not exist (macOS on Apple silicon), and says so.

use std::path::PathBuf;
use std::process::Command;

/// How far above its budget a count may rise.
const SLOWER: f64 = 1.05;
/// How far below its budget a count may fall before the budget must be lowered.
const FASTER: f64 = 0.90;

struct Case {
    name: String,
    args: Vec<String>,
    simulate: u64,
    whole: u64,
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/instructions.txt");
    let text = std::fs::read_to_string(path).expect("tests/instructions.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 4, "name | arguments | simulate | whole: {l}");
            Case {
                name: f[0].to_string(),
                args: f[1].split_whitespace().map(String::from).collect(),
                simulate: f[2].parse().expect("a count"),
                whole: f[3].parse().expect("a count"),
            }
        })
        .collect()
}

/// Instructions callgrind counts for one run of `simt run ARGS --threads 1`, with `extra`
/// callgrind options.
fn count(args: &[String], extra: &[&str], out: &PathBuf) -> u64 {
    let output = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .args(extra)
        .arg(env!("CARGO_BIN_EXE_simt"))
        .arg("run")
        .args(args)
        .args(["--threads", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("valgrind runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "simt run {args:?} failed:\n{stderr}"
    );
    let _ = std::fs::remove_file(out);
    stderr
        .lines()
        .find_map(|l| l.split("Collected : ").nth(1))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no `Collected :` line from callgrind:\n{stderr}"))
}

fn valgrind_present() -> bool {
    Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn instruction_counts_stay_within_their_budgets() {
    if std::env::var_os("SIMT_SKIP_INSTRUCTION_COUNTS").is_some() {
        eprintln!("tests/instructions: skipped (SIMT_SKIP_INSTRUCTION_COUNTS is set)");
        return;
    }
    assert!(
        valgrind_present(),
        "this check counts instructions with valgrind: install it (Debian: `apt-get install \
         valgrind`), or set SIMT_SKIP_INSTRUCTION_COUNTS=1 where valgrind does not exist"
    );
    let out = std::env::temp_dir().join(format!("simt-callgrind-{}.out", std::process::id()));
    let mut problems = Vec::new();
    eprintln!("tests/instructions: name, phase, counted, budget, ratio");
    for case in cases() {
        let simulate = count(
            &case.args,
            &[
                "--collect-atstart=no",
                "--toggle-collect=simt::exec::launch*",
            ],
            &out,
        );
        let whole = count(&case.args, &[], &out);
        for (phase, counted, budget) in [
            ("simulate", simulate, case.simulate),
            ("whole", whole, case.whole),
        ] {
            let ratio = counted as f64 / budget as f64;
            eprintln!("  {} {phase} {counted} {budget} {ratio:.3}", case.name);
            if ratio > SLOWER {
                problems.push(format!(
                    "{} ({phase}): {counted} instructions, {:.1} % over its budget of {budget}",
                    case.name,
                    (ratio - 1.0) * 100.0
                ));
            } else if ratio < FASTER {
                problems.push(format!(
                    "{} ({phase}): {counted} instructions, {:.1} % under its budget of {budget}: \
                     lower the budget in tests/instructions.txt to {counted}",
                    case.name,
                    (1.0 - ratio) * 100.0
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

//! The bug zoo (`tests/zoo/`): each kernel's races and uninitialised reads, grouped by (kind,
//! array, line, other line), are exactly the findings its `// zoo:` header derives by hand.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common;

use simt::pipeline;
use simt::suite;

/// What a file's header says the checker reports.
#[derive(Debug, PartialEq, Eq)]
enum Want {
    /// These findings: `race KIND ARRAY LINE OTHER` or `uninit ARRAY LINE`.
    Findings(BTreeSet<String>),
    /// The run stops with this diagnostic code.
    Error(String),
}

fn zoo() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/zoo");
    suite::files(&[dir]).expect("tests/zoo")
}

fn header(text: &str) -> Want {
    let mut found = BTreeSet::new();
    let mut clean = false;
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("// zoo:") else {
            continue;
        };
        let w: Vec<&str> = rest.split_whitespace().collect();
        match w.as_slice() {
            ["race", kind, array, "line", l, "other", o] => {
                found.insert(format!("race {kind} {array} {l} {o}"));
            }
            ["uninit", array, "line", l] => {
                found.insert(format!("uninit {array} {l}"));
            }
            ["clean"] => clean = true,
            ["error", code] => return Want::Error((*code).to_string()),
            _ => panic!("a malformed zoo header line: {line}"),
        }
    }
    assert!(
        clean == found.is_empty(),
        "a zoo header says `clean` or lists findings, not both or neither"
    );
    Want::Findings(found)
}

/// What the checker reported for the file's launch.
fn reported(path: &Path) -> Want {
    let src = pipeline::read(path).expect("a zoo file reads");
    match pipeline::run(&src, &suite::defaults(None)) {
        Ok(r) => {
            let mut found = BTreeSet::new();
            for g in &r.races {
                let kind = serde_json::to_value(g.race.first.kind).expect("a kind serialises");
                let kind = kind.as_str().expect("a kind is a string").to_string();
                found.insert(format!(
                    "race {kind} {} {} {}",
                    g.race.first.array, g.line, g.other_line
                ));
            }
            for u in &r.uninit {
                found.insert(format!("uninit {} {}", u.read.first.array, u.line));
            }
            Want::Findings(found)
        }
        Err(f) => Want::Error(common::codes(&f).join(" ")),
    }
}

#[test]
fn every_zoo_kernel_reports_exactly_its_derived_findings() {
    let files = zoo();
    assert!(files.len() >= 20, "the zoo has {} kernels", files.len());
    let mut wrong = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("a zoo file reads");
        let (want, got) = (header(&text), reported(path));
        if want != got {
            wrong.push(format!(
                "{}:\n  want {want:?}\n  got  {got:?}",
                path.display()
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_zoo_covers_every_class_and_clean_kernels() {
    let all: String = zoo()
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("a zoo file reads"))
        .collect();
    for class in [
        "// zoo: race RAW",
        "// zoo: race WAR",
        "// zoo: race WAW",
        "// zoo: race global-WAW",
        "// zoo: race lost-update",
        "// zoo: uninit",
        "// zoo: clean",
        "// zoo: error",
    ] {
        assert!(all.contains(class), "no zoo kernel shows `{class}`");
    }
    assert!(all.matches("// zoo: clean").count() >= 10);
}

#[test]
fn simt_test_fails_each_finding_unless_its_file_expects_it() {
    // With their directives, every zoo file passes `simt test`.
    let summary = suite::run(&zoo(), &suite::TestOptions::default()).expect("the zoo runs");
    let failed: Vec<String> = summary
        .cases
        .iter()
        .filter(|c| !c.passed())
        .map(|c| c.render())
        .collect();
    assert!(failed.is_empty(), "{}", failed.join(""));
    // Without them, every file with a finding fails with it, and every clean one passes.
    let dir = std::env::temp_dir().join(format!("simt-zoo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    for path in zoo() {
        let text = std::fs::read_to_string(&path).expect("a zoo file reads");
        let stripped: String = text
            .lines()
            .filter(|l| {
                !l.starts_with("// simt-test: expect-race")
                    && !l.starts_with("// simt-test: expect-uninit")
            })
            .map(|l| format!("{l}\n"))
            .collect();
        let copy = dir.join(path.file_name().expect("a file name"));
        std::fs::write(&copy, stripped).expect("write a copy");
        let cases = suite::run_file(&copy);
        let findings = matches!(header(&text), Want::Findings(f) if !f.is_empty());
        for c in &cases {
            match (&c.verdict, findings) {
                (suite::Verdict::Findings(lines), true) => assert!(
                    lines
                        .iter()
                        .any(|l| l.starts_with("race:") || l.starts_with("uninitialised read:")),
                    "{}",
                    c.render()
                ),
                (_, true) => panic!(
                    "{} should fail with its findings:\n{}",
                    path.display(),
                    c.render()
                ),
                (_, false) => assert!(c.passed(), "{}", c.render()),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

//! Output integrity: `--save` replaces files whole or not at all, and closed output streams
//! (`simt run … | head -1`) end quietly.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn simt() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_simt"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1");
    c
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("simt-output-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A pipe whose reading end is already closed: every write to it fails with a broken pipe.
fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    Stdio::from(writer)
}

#[test]
fn stdout_closed_early_is_a_quiet_success() {
    // The reader is gone before simt writes its report (as with `| head -0`): the write fails
    // with a broken pipe, which simt ignores, exiting 0 with nothing on stderr.
    for json in [false, true] {
        let mut cmd = simt();
        cmd.args(["run", "kernels/vecadd.sk"]);
        if json {
            cmd.arg("--json");
        }
        let out = cmd
            .stdout(closed_pipe())
            .stderr(Stdio::piped())
            .output()
            .expect("simt runs");
        assert_eq!(out.status.code(), Some(0), "json={json}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "json={json}");
    }
}

#[test]
fn head_reads_one_line() {
    // `simt run kernels/vecadd.sk | head -1` in bash, where the pipeline shows simt's status.
    let Ok(sh) = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "'{}' run kernels/vecadd.sk | head -1; exit ${{PIPESTATUS[0]}}",
            env!("CARGO_BIN_EXE_simt")
        ))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
    else {
        return; // no bash here
    };
    let text = String::from_utf8_lossy(&sh.stdout);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.starts_with("simt · vecadd"), "{text}");
    assert_eq!(String::from_utf8_lossy(&sh.stderr), "");
    assert_eq!(sh.status.code(), Some(0));
}

#[test]
fn stderr_closed_on_an_error_keeps_the_exit_status() {
    let status = simt()
        .args(["run", "no/such/kernel.sk"])
        .stdout(Stdio::null())
        .stderr(closed_pipe())
        .status()
        .expect("simt runs");
    // 2 (a usage error), not 101 (a panic writing the diagnostic).
    assert_eq!(status.code(), Some(2));
}

#[test]
fn save_replaces_the_file_whole() {
    let dir = scratch("save");
    let out = dir.join("c.npy");
    std::fs::write(&out, b"old contents").expect("old file");
    #[cfg(unix)]
    let old_inode = {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(&out).expect("metadata").ino()
    };
    let status = simt()
        .args(["run", "kernels/vecadd.sk", "--arg", "n=64", "--save"])
        .arg(format!("c={}", out.display()))
        .stdout(Stdio::null())
        .status()
        .expect("simt runs");
    assert_eq!(status.code(), Some(0));
    let bytes = std::fs::read(&out).expect("saved");
    // 64 float32 values after a header padded to a multiple of 64 bytes (128 here).
    assert!(bytes.starts_with(b"\x93NUMPY"));
    assert_eq!(bytes.len(), 128 + 64 * 4);
    // Written beside it and renamed over it: a new file, and no temporary left behind.
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        assert_ne!(std::fs::metadata(&out).expect("metadata").ino(), old_inode);
    }
    assert_eq!(entries(&dir), ["c.npy"]);
}

#[test]
fn failed_saves_leave_nothing_behind() {
    let dir = scratch("failed");
    // The destination is a directory: the rename fails, the temporary file is removed.
    std::fs::create_dir(dir.join("out.npy")).expect("dir");
    let out = simt()
        .args(["run", "kernels/vecadd.sk", "--arg", "n=64", "--save"])
        .arg(format!("c={}", dir.join("out.npy").display()))
        .output()
        .expect("simt runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write"));
    assert_eq!(entries(&dir), ["out.npy"]);
    assert!(dir.join("out.npy").is_dir());
    // A kernel that fails at run time saves nothing (`a[40]` is out of bounds for n = 40 on
    // one block of 64 threads): an existing file keeps its contents.
    let kernel = dir.join("oob.sk");
    std::fs::write(
        &kernel,
        "__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\nlaunch k { a = zeros(40); grid = 1; block = 64; }\n",
    )
    .expect("kernel");
    std::fs::write(dir.join("a.npy"), b"keep").expect("old");
    let status = simt()
        .arg("run")
        .arg(&kernel)
        .arg("--save")
        .arg(format!("a={}", dir.join("a.npy").display()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("simt runs");
    assert_eq!(status.code(), Some(1));
    assert_eq!(std::fs::read(dir.join("a.npy")).expect("old file"), b"keep");
    assert_eq!(entries(&dir), ["a.npy", "oob.sk", "out.npy"]);
}

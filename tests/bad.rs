//! A corpus of bad inputs: every one ends in its diagnostic code, at its line:column, with its
//! exit status (2 for usage, parse, check and setup errors; 1 for run-time failures) — never a
//! panic, a hang or an allocation past the limits.
//!
//! `tests/bad/*.sk` state their expectations in comment lines (anywhere in the file):
//!
//! ```text
//! // args: --grid 2 --block 64        what follows `simt run FILE` (or `check` for `simt check FILE`)
//! // error: simt::check::unknown_name 3:9     one line per diagnostic, in order (`-` for no position)
//! // exit: 2
//! ```
//!
//! A file with no `// error:` line expects no diagnostic (a failed `expect` exits 1 without one).
//! Files run from a scratch folder holding the `.npy` fixtures made below; `{dir}` in `args` is
//! that folder. Command-line mistakes that need no file are listed in [`command_lines`].

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::npy;

/// What one run produced.
struct Outcome {
    exit: i32,
    stdout: String,
    stderr: String,
}

/// Runs `simt` with a time limit; a hang or a panic fails the test.
fn simt(args: &[String], cwd: &Path) -> Outcome {
    let mut child = Command::new(env!("CARGO_BIN_EXE_simt"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("simt starts");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("simt {args:?} did not finish within 60 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().expect("output");
    let o = Outcome {
        exit: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(
        !o.stderr.contains("panicked") && o.exit != 101,
        "simt {args:?} panicked:\n{}",
        o.stderr
    );
    o
}

/// `code line:col` of each diagnostic in `--json` output.
fn diagnostics(o: &Outcome) -> Vec<String> {
    let v: serde_json::Value = match serde_json::from_str(&o.stdout) {
        Ok(v) => v,
        Err(_) => panic!("stdout is not one JSON object:\n{}\n{}", o.stdout, o.stderr),
    };
    let Some(errors) = v["errors"].as_array() else {
        return Vec::new();
    };
    errors
        .iter()
        .map(|e| {
            let at = match (e["line"].as_u64(), e["column"].as_u64()) {
                (Some(l), Some(c)) => format!("{l}:{c}"),
                _ => "-".into(),
            };
            format!("{} {at}", e["code"].as_str().unwrap_or("?"))
        })
        .collect()
}

fn f32s(v: &[f32], big: bool) -> Vec<u8> {
    v.iter()
        .flat_map(|x| {
            if big {
                x.to_be_bytes()
            } else {
                x.to_le_bytes()
            }
        })
        .collect()
}

/// A scratch folder with the fixtures: good and broken `.npy` files, a folder named like one,
/// a file outside the folder and a link pointing at it.
fn fixtures(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("simt-bad-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let dir = root.join("k");
    std::fs::create_dir_all(dir.join("dir.npy")).expect("scratch");
    let four = f32s(&[1.0, 2.0, 3.0, 4.0], false);
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("f32.npy", npy("<f4", false, "(4,)", &four)),
        (
            "be_f32.npy",
            npy(">f4", false, "(4,)", &f32s(&[1.0, 2.0, 3.0, 4.0], true)),
        ),
        (
            "f32x8.npy",
            npy("<f4", false, "(8,)", &f32s(&[0.0; 8], false)),
        ),
        ("i32.npy", npy("<i4", false, "(4,)", &[0u8; 16])),
        // 1 + 2^-8 needs 8 fraction bits; a bfloat16 has 7.
        (
            "f32_not_bf16.npy",
            npy(
                "<f4",
                false,
                "(4,)",
                &f32s(&[1.0, 1.0 + 1.0 / 256.0, 2.0, 3.0], false),
            ),
        ),
        ("trunc.npy", npy("<f4", false, "(4,)", &four[..13])),
        (
            "extra.npy",
            npy("<f4", false, "(4,)", &[four.clone(), vec![0; 4]].concat()),
        ),
        ("c8.npy", npy("<c8", false, "(4,)", &[0u8; 32])),
        (
            "records_be.npy",
            npy("[('a', '>f4'), ('b', '<i4')]", false, "(2,)", &[0u8; 16]),
        ),
        ("obj.npy", npy("|O", false, "(4,)", &[0u8; 32])),
        ("fortran.npy", npy("<f4", true, "(2, 2)", &four)),
        ("noshape.npy", npy("<f4", false, "[4]", &four)),
        ("magic.npy", b"PK\x03\x04 this is a zip".to_vec()),
        ("empty.npy", Vec::new()),
        ("v9.npy", b"\x93NUMPY\x09\x00\x10\x00{}".to_vec()),
        ("cut.npy", b"\x93NUMPY\x01\x00\xff\x00{'descr':".to_vec()),
    ];
    for (f, bytes) in files {
        std::fs::write(dir.join(f), bytes).expect("fixture");
    }
    // 20000 × 20000 doubles: 3.2 GB of data on disk (a sparse file) and as many again as host
    // values, past the default 4 GiB limit; refused from the header, before reading.
    let huge = npy("<f8", false, "(20000, 20000)", &[]);
    let file = std::fs::File::create(dir.join("huge.npy")).expect("huge");
    std::io::Write::write_all(&mut &file, &huge).expect("header");
    file.set_len(huge.len() as u64 + 20000 * 20000 * 8)
        .expect("sparse");
    std::fs::write(root.join("outside.npy"), npy("<f4", false, "(4,)", &four)).expect("outside");
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join("outside.npy"), dir.join("link.npy")).expect("symlink");
    dir
}

struct Expect {
    args: Vec<String>,
    errors: Vec<String>,
    exit: i32,
}

fn expectations(text: &str, dir: &Path) -> Expect {
    let mut e = Expect {
        args: Vec::new(),
        errors: Vec::new(),
        exit: -1,
    };
    for line in text.lines() {
        let line = line.trim();
        if let Some(a) = line.strip_prefix("// args:") {
            let a = a.replace("{dir}", &dir.display().to_string());
            e.args = a.split_whitespace().map(str::to_string).collect();
        } else if let Some(err) = line.strip_prefix("// error:") {
            e.errors.push(err.trim().to_string());
        } else if let Some(x) = line.strip_prefix("// exit:") {
            e.exit = x.trim().parse().expect("exit status");
        }
    }
    e
}

#[test]
fn bad_kernels() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad");
    let dir = fixtures("kernels");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .expect("tests/bad")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "sk"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 60, "only {} bad kernels", paths.len());
    let mut failures = Vec::new();
    for path in &paths {
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let bytes = std::fs::read(path).expect("read");
        let want = expectations(&String::from_utf8_lossy(&bytes), &dir);
        assert!(want.exit >= 0, "{name}: no `// exit:` line");
        std::fs::write(dir.join(&name), &bytes).expect("copy");
        let mut args = match want.args.first().map(String::as_str) {
            Some("check") => vec!["check".to_string(), name.clone()],
            _ => {
                let mut a = vec!["run".to_string(), name.clone()];
                a.extend(want.args.iter().cloned());
                a
            }
        };
        args.push("--json".into());
        let got = simt(&args, &dir);
        let errors = diagnostics(&got);
        if errors != want.errors || got.exit != want.exit {
            failures.push(format!(
                "{name}: expected {:?} exit {}, got {errors:?} exit {}\n{}",
                want.errors, want.exit, got.exit, got.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Command lines that are wrong without any bad file: (arguments, diagnostics, exit status).
/// Clap's own usage errors print no JSON; they are marked `clap`.
#[test]
fn command_lines() {
    let dir = fixtures("cli");
    let vecadd = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels/vecadd.sk");
    std::fs::copy(&vecadd, dir.join("vecadd.sk")).expect("copy vecadd");
    std::fs::write(dir.join("gpu.json"), "{ \"name\": \"broken\", ").expect("gpu json");
    let cases: Vec<(&str, &[&str], i32)> = vec![
        ("run", &["clap"], 2),
        ("run vecadd.sk --grid 0", &["clap"], 2),
        ("run vecadd.sk --grid 1,2,3,4", &["clap"], 2),
        ("run vecadd.sk --block x", &["clap"], 2),
        ("run vecadd.sk --max-memory 0", &["clap"], 2),
        ("run vecadd.sk --max-memory 4X", &["clap"], 2),
        ("run vecadd.sk --max-steps -1", &["clap"], 2),
        ("run vecadd.sk --frobnicate", &["clap"], 2),
        ("run no-such.sk --json", &["simt::usage -"], 2),
        ("run dir.npy --json", &["simt::usage -"], 2),
        (
            "run vecadd.sk --block 2048 --json",
            &["simt::host::launch_shape -"],
            2,
        ),
        (
            "run vecadd.sk --block 32,32,2 --json",
            &["simt::host::launch_shape -"],
            2,
        ),
        (
            "run vecadd.sk --block 1,1,65 --json",
            &["simt::host::launch_shape -"],
            2,
        ),
        (
            "run vecadd.sk --grid 1,65536 --json",
            &["simt::host::launch_shape -"],
            2,
        ),
        ("run vecadd.sk --arg n --json", &["simt::usage -"], 2),
        ("run vecadd.sk --arg =4 --json", &["simt::usage -"], 2),
        (
            "run vecadd.sk --arg n=(1 --json",
            &["simt::parse::syntax 1:3"],
            2,
        ),
        (
            "run vecadd.sk --arg n=m+1 --json",
            &["simt::host::unknown_name 1:1"],
            2,
        ),
        // `a = arange(n);` (line 31) needs a whole number.
        (
            "run vecadd.sk --arg n=1.5 --json",
            &["simt::host::bad_value 31:16"],
            2,
        ),
        (
            "run vecadd.sk --arg a=zeros(-1) --json",
            &["simt::host::bad_value 1:7"],
            2,
        ),
        (
            "run vecadd.sk --arg a=@missing.npy --json",
            &["simt::host::file 1:1"],
            2,
        ),
        (
            "run vecadd.sk --arg a=@dir.npy --json",
            &["simt::host::file 1:1"],
            2,
        ),
        (
            "run vecadd.sk --arg n=4 --arg a=@i32.npy --json",
            &["simt::host::dtype_mismatch 1:1"],
            2,
        ),
        // vecadd makes `a` with 1000 elements: a file of 8 does not fit in its place.
        (
            "run vecadd.sk --arg a=@f32x8.npy --json",
            &["simt::host::shape_mismatch 1:1"],
            2,
        ),
        (
            "run vecadd.sk --arg a=@trunc.npy --json",
            &["simt::host::file 1:1"],
            2,
        ),
        (
            "run vecadd.sk --arg a=zeros(1000000000) --max-memory 2G --json",
            &["simt::host::memory_limit 1:1"],
            2,
        ),
        // Each array is made as 1000 floats (4000 B), the type of the buffer it is assigned to.
        // In 8 KiB: a and b fit (8000 B), c does not (12000 B).
        (
            "run vecadd.sk --max-memory 8K --json",
            &["simt::host::memory_limit 33:9"],
            2,
        ),
        // In 24 KiB the section fits; its 12000 B of buffers and each worker's block state
        // (14496 B) do not: the kernel is blamed.
        (
            "run vecadd.sk --max-memory 24K --json",
            &["simt::host::memory_limit 21:1"],
            2,
        ),
        (
            "run vecadd.sk --max-steps 10 --json",
            &["simt::run::step_limit -"],
            1,
        ),
        ("run vecadd.sk --gpu h1000 --json", &["simt::usage -"], 2),
        ("run vecadd.sk --gpu gpu.json --json", &["simt::usage -"], 2),
        ("run vecadd.sk --kernel vecad --json", &["simt::usage -"], 2),
        ("run vecadd.sk --save c --json", &["simt::usage -"], 2),
        (
            "run vecadd.sk --save d=out.npy --json",
            &["simt::usage -"],
            2,
        ),
        (
            "run vecadd.sk --save n=out.npy --json",
            &["simt::usage -"],
            2,
        ),
        (
            "run vecadd.sk --save c=no/such/dir/out.npy --json",
            &["simt::usage -"],
            2,
        ),
        (
            "run vecadd.sk --dyn-smem 18446744073709551615 --json",
            &["simt::usage -"],
            2,
        ),
        ("check no-such.sk --json", &["simt::usage -"], 2),
        // A block of no threads cannot launch: a report that says so, exit 1.
        ("occupancy --threads 0 --json", &[], 1),
    ];
    let mut failures = Vec::new();
    for (line, want, exit) in cases {
        let args: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        let got = simt(&args, &dir);
        let errors = if want == ["clap"] {
            // clap's message, on stderr.
            assert!(
                got.stderr.contains("error:") || got.stderr.contains("Usage"),
                "{line}: {}",
                got.stderr
            );
            vec!["clap".to_string()]
        } else {
            diagnostics(&got)
        };
        if errors != want || got.exit != exit {
            failures.push(format!(
                "{line}: expected {want:?} exit {exit}, got {errors:?} exit {}\n{}",
                got.exit, got.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn good_npy_files_load() {
    // Little- and big-endian float32 files give the same values: 1, 2, 3, 4 doubled by
    // vecadd's `c = a + b` with b = a.
    let dir = fixtures("good");
    let vecadd = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels/vecadd.sk");
    std::fs::copy(&vecadd, dir.join("vecadd.sk")).expect("copy vecadd");
    for file in ["f32.npy", "be_f32.npy"] {
        let args: Vec<String> = format!(
            "run vecadd.sk --arg n=4 --arg a=@{file} --arg b=@{file} --json --save c=out.npy"
        )
        .split_whitespace()
        .map(str::to_string)
        .collect();
        let got = simt(&args, &dir);
        assert_eq!(got.exit, 0, "{file}: {}", got.stderr);
        let saved = std::fs::read(dir.join("out.npy")).expect("saved");
        let values: Vec<f32> = saved[saved.len() - 16..]
            .chunks(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect();
        assert_eq!(values, [2.0, 4.0, 6.0, 8.0], "{file}");
    }
}

#[test]
fn a_float32_file_bound_to_bfloat16_is_one_array_for_every_name() {
    // numpy has no bfloat16, so a float32 file of bfloat16 values binds to `__nv_bfloat16*`;
    // the name it was loaded under must see the kernel's writes too (it kept the values before
    // the launch): 1, 2, 3, 4 doubled.
    let dir = fixtures("bf16");
    let src = r#"#include <cuda_bf16.h>
__global__ void k(__nv_bfloat16* s) {
    s[threadIdx.x] = __float2bfloat16(2.f * __bfloat162float(s[threadIdx.x]));
}
launch k {
    ss = load("f32.npy");
    s = ss;
    grid = 1; block = 4;
    expect s == [2, 4, 6, 8];
    expect ss == [2, 4, 6, 8];
}
"#;
    std::fs::write(dir.join("bf16.sk"), src).expect("write");
    let got = simt(&["test".into(), "bf16.sk".into()], &dir);
    assert_eq!(got.exit, 0, "{}{}", got.stdout, got.stderr);
}

#[test]
fn a_void_pointer_takes_a_files_bytes_whatever_their_type() {
    // llama.cpp's get_rows: `const void*` memory read through `(const char*)` byte offsets
    // into a `const void*` local, then as floats. The float32 file 1, 2, 3, 4 is 16 bytes; the
    // parameter's first view is `char`, so it holds those bytes, and thread t reads the float
    // at byte 4t: t + 1.
    let dir = fixtures("void");
    let src = r#"
__device__ float first(const void* vx) { return ((const float*)vx)[0]; }
__global__ void k(const void* src, float* dst) {
    const void* row = (const char*)src + threadIdx.x * 4;
    dst[threadIdx.x] = first(row);
}
launch k { src = load("f32.npy"); dst = zeros(4); grid = 1; block = 4; expect dst == [1, 2, 3, 4]; }
"#;
    std::fs::write(dir.join("void.sk"), src).expect("write");
    let got = simt(&["test".into(), "void.sk".into()], &dir);
    assert_eq!(got.exit, 0, "{}{}", got.stdout, got.stderr);
}

#[test]
fn a_void_pointer_member_of_a_struct_parameter_takes_a_files_bytes_too() {
    // StyleGAN3's filtered_lrelu params: `const void* x;` read as `*(const T*)((const char*)p.x
    // + byte offset)`. Its first view is `char`, so the float32 file 1, 2, 3, 4 gives its 16
    // bytes, and thread t reads the float at byte 4t: t + 1 (it was a dtype mismatch).
    let dir = fixtures("void-member");
    let src = r#"
struct P { const void* x; float* y; };
__global__ void k(P p) {
    p.y[threadIdx.x] = *(const float*)((const char*)p.x + threadIdx.x * 4);
}
launch k { p.x = load("f32.npy"); p.y = zeros(4); grid = 1; block = 4; expect p.y == [1, 2, 3, 4]; }
"#;
    std::fs::write(dir.join("member.sk"), src).expect("write");
    let got = simt(&["test".into(), "member.sk".into()], &dir);
    assert_eq!(got.exit, 0, "{}{}", got.stdout, got.stderr);
}

//! The `simt` binary: the README's command, JSON output, exit codes and error objects.

use crate::common;
use common::simt;

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("simt-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write temp file");
    p
}

#[test]
fn readme_command_reports_vecadd() {
    let (code, out, _) = simt(&["run", "kernels/vecadd.sk", "--grid", "4", "--block", "256"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("loads             64 requests          250 sectors"),
        "{out}"
    );
    assert!(
        out.contains("stores            32 requests          125 sectors"),
        "{out}"
    );
    assert!(out.contains("requested/moved 1.000"), "{out}");
    assert!(out.contains("ok      c == a + b"), "{out}");
}

#[test]
fn json_is_one_versioned_object() {
    let (code, out, _) = simt(&["run", "kernels/vecadd.sk", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("stdout is JSON");
    assert_eq!(v["schema"], 2);
    assert_eq!(v["counters"]["gld_sectors"], 250);
    assert_eq!(v["counters"]["gst_sectors"], 125);
    assert_eq!(v["derived"]["bytes_requested_per_byte_moved"], 1.0);
    assert_eq!(
        v["ncu"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"],
        250
    );
    // simt counts source-level operations, not SASS instructions: no ncu name claims them.
    assert!(v["ncu"].get("smsp__inst_executed.sum").is_none());
    // 12000 B / 3.35e12 B/s, memory-bound, + 4 µs launch overhead (the reference's estimate_time).
    let t = v["time"]["t"].as_f64().expect("t");
    assert!((t - (12000.0 / 3.35e12 + 4e-6)).abs() < 1e-15);
    assert_eq!(v["time"]["bound"], "memory");
    assert_eq!(v["occupancy"]["blocks_per_sm"], 8);
    assert_eq!(v["ok"], true);
}

#[test]
fn errors_are_json_objects_with_code_and_position() {
    let p = temp_file(
        "bad.sk",
        "__global__ void k(float* a) {\n    a[0] = b;\n}\n",
    );
    let (code, out, err) = simt(&["run", p.to_str().expect("utf-8 path"), "--json"]);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(&out).expect("stdout is JSON");
    assert_eq!(v["schema"], 2);
    assert_eq!(v["error"]["code"], "simt::check::unknown_name");
    assert_eq!(v["error"]["line"], 2);
    assert_eq!(v["error"]["column"], 12);
    assert!(err.contains("unknown name `b`"), "{err}");
}

#[test]
fn exit_status_one_for_run_time_failures() {
    let p = temp_file(
        "oob.sk",
        "__global__ void k(float* a) {\n    a[threadIdx.x] = 1.0f;\n}\n",
    );
    let (code, _, err) = simt(&[
        "run",
        p.to_str().expect("path"),
        "--arg",
        "a=zeros(8)",
        "--block",
        "32",
        "--grid",
        "1",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("simt::run::out_of_bounds"), "{err}");
    assert!(err.contains("block (0, 0, 0), thread (8, 0, 0)"), "{err}");
    let p = temp_file("fail.sk", "__global__ void k(int* a) { a[threadIdx.x] = 1; }\nlaunch k { a = zeros(4); block = 4; grid = 1; expect a == 2; }\n");
    let (code, out, _) = simt(&["run", p.to_str().expect("path")]);
    assert_eq!(code, 1);
    assert!(out.contains("FAILED  a == 2"), "{out}");
}

#[test]
fn usage_errors_exit_two() {
    let (code, _, err) = simt(&["run", "no/such/file.sk"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
    let (code, _, err) = simt(&["run", "kernels/vecadd.sk", "--arg", "n"]);
    assert_eq!(code, 2);
    assert!(err.contains("is not NAME=VALUE"), "{err}");
    let (code, _, err) = simt(&["run", "kernels/vecadd.sk", "--arg", "n=(1"]);
    assert_eq!(code, 2);
    assert!(err.contains("simt::parse::syntax"), "{err}");
    let (code, _, _) = simt(&["run", "kernels/vecadd.sk", "--block", "0"]);
    assert_eq!(code, 2);
    let (code, _, err) = simt(&["run", "kernels/divergence.sk"]);
    assert_eq!(code, 2);
    assert!(err.contains("choose one with --kernel"), "{err}");
    let (code, _, err) = simt(&["run", "kernels/vecadd.sk", "--gpu", "h1000"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown GPU"), "{err}");
}

#[test]
fn args_override_the_launch_section_and_save_writes_npy() {
    let out_path = std::env::temp_dir().join(format!("simt-save-{}.npy", std::process::id()));
    let (code, out, err) = simt(&[
        "run",
        "kernels/vecadd.sk",
        "--arg",
        "n=64",
        "--save",
        &format!("c={}", out_path.display()),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    // n = 64 → grid cdiv(64, 256) = 1 block; 64 floats = 8 sectors per buffer.
    assert_eq!(v["launch"]["grid"][0], 1);
    assert_eq!(v["counters"]["gst_sectors"], 8);
    let bytes = std::fs::read(&out_path).expect("saved file");
    assert!(bytes.starts_with(b"\x93NUMPY"));
    // Load it back as an argument: c = a + b = 1..=64 read from the file.
    let (code, out, err) = simt(&[
        "run",
        "kernels/vecadd.sk",
        "--arg",
        "n=64",
        "--arg",
        &format!("a=@{}", out_path.display()),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["ok"], true);
}

#[test]
fn check_occupancy_and_gpus() {
    let (code, out, _) = simt(&["check", "kernels/vecadd.sk"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("__global__ void vecadd(const float* a, const float* b, float* c, int n)"),
        "{out}"
    );
    let (code, out, _) = simt(&[
        "occupancy",
        "--threads",
        "256",
        "--regs",
        "32",
        "--smem",
        "0",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    // 256 threads = 8 warps; 32 regs × 32 = 1024 per warp; 64 warps/SM → 8 blocks, 100 %.
    assert_eq!(v["blocks_per_sm"], 8);
    assert_eq!(v["active_warps"], 64);
    assert_eq!(v["occupancy"], 1.0);
    let (code, out, _) = simt(&[
        "occupancy",
        "--threads",
        "256",
        "--regs",
        "128",
        "--blocks",
        "1000",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("blocks/SM 2"), "{out}");
    assert!(out.contains("waves 4"), "{out}");
    let (code, out, _) = simt(&["gpus"]);
    assert_eq!(code, 0);
    assert!(out.contains("H100"), "{out}");
}

#[test]
fn latency_hiding_and_scaling_are_reachable() {
    // 256 threads at 64 registers: 2048 registers per warp, 16384 / 2048 = 8 warps per
    // sub-partition × 4 = 32 warps → 4 blocks. Little's law: 3.35e12 B/s / 132 SMs × 500 ns =
    // 12689 B needed per SM; 32 warps × 128 B = 4096 B in flight → 32.3 %.
    let (code, out, _) = simt(&[
        "occupancy",
        "--threads",
        "256",
        "--regs",
        "64",
        "--bytes-per-request",
        "128",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["blocks_per_sm"], 4);
    let f = v["latency_hiding"]["fraction"].as_f64().expect("fraction");
    assert!((f - 4096.0 / (3.35e12 / 132.0 * 500e-9)).abs() < 1e-12);
    // Amdahl 1 / (0.05 + 0.95 / 132) = 17.483; Gustafson 0.05 + 0.95 × 132 = 125.45.
    let (code, out, _) = simt(&["scaling", "--serial", "0.05", "--procs", "132", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert!((v["amdahl"].as_f64().expect("amdahl") - 1.0 / (0.05 + 0.95 / 132.0)).abs() < 1e-12);
    assert!((v["gustafson"].as_f64().expect("gustafson") - 125.45).abs() < 1e-9);
    let (code, _, err) = simt(&["scaling", "--serial", "1.5", "--procs", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("--serial must be between 0 and 1"), "{err}");
}

#[test]
fn an_arg_that_names_nothing_is_an_error_with_the_right_case() {
    // `--arg N=2000` for vecadd's `n` used to run with n = 1000 from the launch section.
    let (code, out, err) = common::simt(&["run", "kernels/vecadd.sk", "--arg", "N=2000"]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("simt::host::unknown_argument"), "{err}");
    assert!(err.contains("did you mean `n`?"), "{err}");
    // compare and sweep refuse it the same way, before anything runs.
    for args in [
        &[
            "compare",
            "kernels/transpose_tiled.sk",
            "kernels/transpose_padded.sk",
            "--arg",
            "widht=64",
        ][..],
        &["sweep", "kernels/vecadd.sk", "--arg", "N=64,128"],
    ] {
        let (code, out, err) = common::simt(args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains("simt::host::unknown_argument"), "{err}");
        assert!(err.contains("did you mean"), "{err}");
    }
    // A name is the launch section's: elements only of a struct member (`p.tex[1]`), never of
    // an array (`a[0]`), and nothing else.
    for bad in [
        "a[0]=1",
        "p.[1]=3",
        "1x=3",
        "p.tex[]=3",
        "p.tex[1]x=3",
        "p..a=3",
    ] {
        let (code, out, err) = common::simt(&["run", "kernels/vecadd.sk", "--arg", bad]);
        assert_eq!(code, 2, "{bad}: {out}");
        let name = bad.split('=').next().expect("a name");
        assert!(
            err.contains(&format!("`{name}` is not a name")),
            "{bad}: {err}"
        );
    }
}

#[test]
fn every_cited_section_of_the_shipped_hardware_facts_exists() {
    // Reports and code cite `docs/gpu-facts.md §6.2`; the document ships with the repository
    // and has each cited section as a heading (`### 6.2 …`).
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let facts = std::fs::read_to_string(root.join("docs/gpu-facts.md")).expect("docs/gpu-facts.md");
    let headings: Vec<&str> = facts.lines().filter(|l| l.starts_with('#')).collect();
    let mut texts = vec![std::fs::read_to_string(root.join("README.md")).expect("README")];
    let mut dirs = vec![root.join("src")];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(dir)
            .expect("src")
            .map(|e| e.expect("entry").path())
        {
            if e.is_dir() {
                dirs.push(e);
            } else if e.extension().is_some_and(|x| x == "rs") {
                texts.push(std::fs::read_to_string(e).expect("source"));
            }
        }
    }
    let mut cited = 0;
    for text in &texts {
        for (i, _) in text.match_indices("gpu-facts.md") {
            let rest = &text[i..];
            let Some(at) = rest.find('§').filter(|&k| k < 16) else {
                continue;
            };
            let section: String = rest[at + '§'.len_utf8()..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let section = section.trim_end_matches('.');
            cited += 1;
            assert!(
                headings.iter().any(|h| h
                    .trim_start_matches('#')
                    .trim()
                    .starts_with(&format!("{section} "))
                    || h.trim_start_matches('#')
                        .trim()
                        .starts_with(&format!("{section}. "))),
                "§{section} is cited but docs/gpu-facts.md has no such heading"
            );
        }
    }
    assert!(cited >= 5, "{cited} citations found");
}

#[test]
fn dyn_smem_in_a_launch_section_sizes_extern_shared_memory_and_the_flag_overrides_it() {
    // 256 floats of `extern __shared__`: `dyn_smem = block * 4` is 1024 bytes; reversed through
    // shared memory, a[0] is 255. --dyn-smem 512 leaves 128 floats: thread 128 stores past them.
    let dir = std::env::temp_dir().join(format!("simt-dyn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("dyn.sk");
    std::fs::write(
        &path,
        "__global__ void k(float* a) {\n    extern __shared__ float s[];\n    s[threadIdx.x] = threadIdx.x;\n    __syncthreads();\n    a[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];\n}\nlaunch k { a = zeros(256); block = 256; grid = 1; dyn_smem = block * 4; expect a[0] == 255; }\n",
    )
    .expect("write");
    let p = path.to_str().expect("utf-8");
    let (code, out, err) = common::simt(&["run", p, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["ok"], true);
    assert_eq!(v["launch"]["smem_per_block"], 1024);
    let (code, _, err) = common::simt(&["run", p, "--dyn-smem", "512"]);
    assert_eq!(code, 1);
    assert!(err.contains("`s[128]` but `s` has 128 elements"), "{err}");
}

#[test]
fn dynamic_shared_memory_above_48_kb_needs_an_opt_in() {
    // See: issue 17 (dynamic shared memory above 48 KB could not be modelled).
    // 64 KB of `extern __shared__` on an H100: above the 48 KB (49152 bytes) a launch may use
    // without cudaFuncSetAttribute(MaxDynamicSharedMemorySize), so it is refused (exit 2) until
    // the kernel opts in. With the opt-in, NVIDIA's calculator allocates 65536 + 1024 reserved =
    // 66560 bytes per block; 228 KB = 233472 bytes per SM hold 3 of them (4 would need 266240),
    // and shared memory is the limit (registers allow 65536 / (32 × 256) = 8 blocks).
    let dir = std::env::temp_dir().join(format!("simt-optin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("big.sk");
    let kernel = "__global__ void k(float* a) {\n    extern __shared__ float s[];\n    s[threadIdx.x] = threadIdx.x;\n    __syncthreads();\n    a[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];\n}\n";
    std::fs::write(
        &path,
        format!("{kernel}launch k {{ a = zeros(256); block = 256; grid = 1; dyn_smem = 65536; expect a[0] == 255; }}\n"),
    )
    .expect("write");
    let p = path.to_str().expect("utf-8");
    let (code, out, err) = common::simt(&["run", p, "--json"]);
    assert_eq!(code, 2, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["error"]["code"], "simt::host::dynamic_shared_memory");
    assert!(
        err.contains("65536 bytes of dynamic shared memory per block are more than the 49152"),
        "{err}"
    );
    assert!(err.contains("sized by the launch's 65536 bytes"), "{err}");
    assert!(err.contains("--max-dyn-smem 65536"), "{err}");
    for opt_in in [
        vec!["--max-dyn-smem", "65536"],
        vec!["--arg", "max_dyn_smem=98304"],
    ] {
        let mut args = vec!["run", p, "--json"];
        args.extend(opt_in);
        let (code, out, err) = common::simt(&args);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        assert_eq!(v["occupancy"]["blocks_per_sm"], 3, "{out}");
        assert_eq!(
            v["occupancy"]["limiters"],
            serde_json::json!(["shared_mem"])
        );
    }
    // The same opt-in in the launch section.
    std::fs::write(
        &path,
        format!("{kernel}launch k {{ a = zeros(256); block = 256; grid = 1; dyn_smem = 65536; max_dyn_smem = 65536; }}\n"),
    )
    .expect("write");
    let (code, _, err) = common::simt(&["run", p]);
    assert_eq!(code, 0, "{err}");
    // An opt-in smaller than the launch, or larger than the GPU allows (227 KB = 232448 bytes
    // beside no static shared memory on an H100), is refused like cudaFuncSetAttribute's.
    let (code, _, err) = common::simt(&["run", p, "--max-dyn-smem", "32768"]);
    assert_eq!(code, 2);
    assert!(err.contains("with its opt-in of 32768 bytes"), "{err}");
    let (code, _, err) = common::simt(&["run", p, "--max-dyn-smem", "300000"]);
    assert_eq!(code, 2);
    assert!(err.contains("simt::host::shared_memory_opt_in"), "{err}");
    assert!(err.contains("H100 SXM allows: 232448"), "{err}");
}

#[test]
fn a_save_that_names_nothing_is_refused_before_the_kernel_runs() {
    // kernels/out_of_bounds.sk traps when it runs (exit 1); a bad --save is found first (exit 2),
    // with the name it was probably meant to be.
    let (code, _, err) = common::simt(&[
        "run",
        "kernels/out_of_bounds.sk",
        "--save",
        "A=/tmp/never.npy",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--save A:"), "{err}");
    assert!(err.contains("`a`?"), "{err}");
    assert!(!err.contains("out_of_bounds"), "{err}");
}

#[test]
fn cuda_arch_follows_the_gpu_and_cudacc_ver_is_nvcc_12s() {
    // nvcc 12 predefines __CUDACC_VER_MAJOR__ 12, so LAMMPS's `#if (__CUDACC_VER_MAJOR__ < 11)`
    // texture path is skipped; __CUDA_ARCH__ is the compute capability × 10 of the GPU the
    // kernel is compiled for: 900 for H100 (sm_90), 800 for A100, 890 for L4, 750 for T4.
    let dir = std::env::temp_dir().join(format!("simt-arch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let kernel = "#if (__CUDACC_VER_MAJOR__ < 11)\n#define V 0\n#else\n#define V __CUDACC_VER_MAJOR__\n#endif\n__global__ void k(int* a) { a[0] = V; a[1] = __CUDA_ARCH__; }\n";
    for (gpu, arch) in [("h100", 900), ("a100", 800), ("l4", 890), ("t4", 750)] {
        let path = dir.join(format!("arch-{gpu}.sk"));
        let launch = format!(
            "launch k {{ a = zeros(2); block = 1; grid = 1; expect a == [12, {arch}]; }}\n"
        );
        std::fs::write(&path, format!("{kernel}{launch}")).expect("write");
        let p = path.to_str().expect("utf-8");
        let (code, _, err) = common::simt(&["run", p, "--gpu", gpu]);
        assert_eq!(code, 0, "{gpu}: {err}");
        // Read for another GPU, the expect fails.
        let other = if gpu == "h100" { "a100" } else { "h100" };
        let (code, _, _) = common::simt(&["run", p, "--gpu", other]);
        assert_eq!(code, 1, "{gpu} read as {other}");
    }
}

#[test]
fn a_latin1_file_is_read_as_latin1() {
    // ccminer's comments are ISO-8859-1 ("Z\xe4hler"): nvcc reads bytes and a comment may hold
    // any, so the file runs; the comment's byte 0xE4 is shown as U+00E4 `ä` in a diagnostic.
    let dir = std::env::temp_dir().join(format!("simt-latin1-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("latin1.sk");
    let mut text =
        b"// Z\xe4hler\n__global__ void k(float* out) { out[threadIdx.x] = 1.0f; }\n".to_vec();
    text.extend_from_slice(
        b"launch k { out = zeros(2); grid = 1; block = 2; expect out == [1, 1]; }\n",
    );
    std::fs::write(&path, &text).expect("write");
    let p = path.to_str().expect("utf-8");
    let (code, _, err) = common::simt(&["test", p]);
    assert_eq!(code, 0, "{err}");
    // The same file with an error after the comment: the report quotes the comment decoded.
    let bad = b"// Z\xe4hler\n__global__ void k(float* out) { out[threadIdx.x] = nope; }\n";
    std::fs::write(&path, bad).expect("write");
    let (code, _, err) = common::simt(&["check", p]);
    assert_eq!(code, 2);
    assert!(
        err.contains("simt::check::unknown_name") && err.contains("// Zähler"),
        "{err}"
    );
}

#[test]
fn dash_d_defines_a_macro_before_the_first_line() {
    // nvcc's `-D NAME` defines NAME as 1, `-D NAME=VALUE` as VALUE: popsift chooses its
    // shuffles with `#if` on a CMake-generated macro. Without -D the #else branch stores 0.
    let p = temp_file(
        "defines.sk",
        "#if HAVE_SHFL\n#define V (HAVE_SHFL + WIDTH)\n#else\n#define V 0\n#endif\n\
         __global__ void k(int* a) { a[0] = V; }\n\
         launch k { a = zeros(1); block = 1; grid = 1; expect a == [WANT]; }\n",
    );
    let p = p.to_str().expect("utf-8");
    // HAVE_SHFL = 1 (no value), WIDTH = 32: 33.
    let (code, _, err) = simt(&["run", p, "-D", "HAVE_SHFL", "-DWIDTH=32", "-D", "WANT=33"]);
    assert_eq!(code, 0, "{err}");
    // A later -D wins: HAVE_SHFL = 5, so 37; `simt test` and `simt check` take -D too.
    let (code, out, err) = simt(&[
        "test",
        p,
        "-D",
        "HAVE_SHFL",
        "-D",
        "HAVE_SHFL=5",
        "--define",
        "WIDTH=32",
        "-D",
        "WANT=37",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, _, err) = simt(&["check", p, "-D", "WANT=0"]);
    assert_eq!(code, 0, "{err}");
    // Without -D the #else branch runs, and WANT is not defined: the launch section fails.
    let (code, _, _) = simt(&["run", p, "-D", "WANT=0"]);
    assert_eq!(code, 0);
    let (code, _, _) = simt(&["run", p, "-D", "WANT=1"]);
    assert_eq!(code, 1);
    // A name that is no identifier, or a function-like macro, is a usage error.
    let (code, _, err) = simt(&["run", p, "-D", "2X=1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is not a macro name"), "{err}");
    let (code, _, err) = simt(&["run", p, "-D", "F(x)=x"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("object-like macros only"), "{err}");
}

//! `simt sweep`, `simt compare`, `simt completions`, `simt man` and `--color`, on shipped kernels.

use std::process::Command;

use serde_json::Value;

fn simt_env(args: &[&str], no_color: bool) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_simt"));
    cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    if no_color {
        cmd.env("NO_COLOR", "1");
    } else {
        cmd.env_remove("NO_COLOR");
    }
    let out = cmd.output().expect("simt runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn simt(args: &[&str]) -> (i32, String, String) {
    simt_env(args, true)
}

/// `text` written to `NAME` in a fresh folder of its own (removed by the caller), and the
/// file's path as the command line takes it.
fn temp_kernel(tag: &str, name: &str, text: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("simt-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    let file = path.to_str().expect("utf-8 path").to_string();
    (dir, file)
}

#[test]
fn sweep_table_marks_the_best_row_and_reports_failing_rows() {
    let (code, out, _) = simt(&[
        "sweep",
        "kernels/reduce_sequential.sk",
        "--block",
        "64,128,256,512",
    ]);
    // Hand-derived (n = 4096, grid = cdiv(n, block) from the launch section):
    // block 64: per block 2 load requests × 4 sectors + 1 one-sector store → (64·8 + 64) /
    //   (64·2 + 64) = 3.00 sectors/request; shared: 2 stores + steps s = 32 .. 1 with 1 busy warp
    //   each = 6 × 3 + 1 final load = 21 per block × 64 = 1344 wavefronts (no conflicts).
    // block 128: (32·16 + 32) / (32·4 + 32) = 3.40; shared: 4 stores + s = 64 (2 warps) and
    //   s = 32 .. 1 (1 warp) = 8 warp-steps × 3 + 1 = 29 per block × 32 = 928.
    // block 256: 528 / 144 = 3.67, 720 wavefronts (the kernel's own comment).
    // block 512: `sdata` has BLOCK = 256 elements, thread 256 stores out of bounds.
    // Refined: the kernel's duration without the 4 µs launch overhead, from the DRAM bytes the
    // cache model lets through (the 16 KB input read once; the 64 one-float stores of the partial
    // sums fill 8 sectors, written back once instead of 64 times). Each warp loads one element
    // and waits one DRAM latency (500 ns) for it; the 16 KB are too few to fill the H100, so every
    // row is that one latency. Best: the lowest refined time among rows that ran, the first on a
    // tie. The failed row still names its GPU.
    let expected = "\
simt sweep · reduce_sequential (kernels/reduce_sequential.sk) · 4 rows
  block  grid  gpu       occupancy  sect/req  wavefronts  SIMT eff  time      refined
* 64     64    H100 SXM  100%       3.00      1344        0.822     4.008 µs  0.500 µs
  128    32    H100 SXM  100%       3.40      928         0.912     4.008 µs  0.500 µs
  256    16    H100 SXM  100%       3.67      720         0.958     4.008 µs  0.500 µs
  512    -     H100 SXM  error simt::run::out_of_bounds: out-of-bounds shared access: `sdata[256]` but `sdata` has 256 elements
* best: row 1 (lowest refined time estimate)
";
    assert_eq!(out, expected);
    // A row failed at run time: exit 1.
    assert_eq!(code, 1);
}

#[test]
fn sweep_ndjson_has_one_object_per_combination() {
    let (code, out, _) = simt(&[
        "sweep",
        "kernels/vecadd.sk",
        "--block",
        "128,256",
        "--arg",
        "n=1000,4096",
        "--gpu",
        "h100,a100",
        "--json",
        "--jobs",
        "3",
    ]);
    assert_eq!(code, 0);
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    // 2 GPUs × 2 blocks × 2 sizes, GPUs outermost, the last --arg fastest.
    assert_eq!(rows.len(), 8);
    assert_eq!(rows.iter().filter(|r| r["best"] == true).count(), 1);
    // Rows count from 1, as the table's "best: row N" does.
    for (k, r) in rows.iter().enumerate() {
        assert_eq!(r["row"], k + 1);
        assert_eq!(r["schema"], 2);
        assert_eq!(r["ok"], true);
    }
    assert_eq!(rows[0]["gpu"], "H100 SXM");
    assert_eq!(rows[4]["gpu"], "A100 SXM 80GB");
    assert_eq!(rows[1]["args"]["n"], "4096");
    assert_eq!(rows[2]["block"][0], 256);
    // n = 4096 at block 128: grid 32; every warp full: 3 × 128 requests of 4 sectors.
    assert_eq!(rows[1]["grid"][0], 32);
    assert_eq!(rows[1]["counters"]["gld_sectors"], 1024);
    assert_eq!(rows[1]["derived"]["sectors_per_request"], 4.0);
    // Every row carries the estimates as `run --json` does: objects, in seconds.
    assert!(rows[1]["time"]["t"].is_number());
    // n = 1000: 125 sectors per buffer whatever the block.
    assert_eq!(rows[0]["counters"]["gst_sectors"], 125);
}

#[test]
fn sweep_rejects_bad_input_before_running() {
    for args in [
        &["sweep", "kernels/vecadd.sk", "--block", "0"][..],
        &["sweep", "kernels/vecadd.sk", "--block", "64,abc"],
        &["sweep", "kernels/vecadd.sk", "--arg", "n"],
        &["sweep", "kernels/vecadd.sk", "--arg", "n=(1"],
        &["sweep", "kernels/vecadd.sk", "--gpu", "h100,nope"],
        // A name that matches nothing, in every row alike: one usage error, no rows.
        &[
            "sweep",
            "kernels/vecadd.sk",
            "--arg",
            "N=64,128",
            "--block",
            "32,64",
        ],
        &["sweep", "no/such.sk"],
    ] {
        let (code, out, err) = simt(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
    // A parse error is one diagnostic, not one per row.
    let dir = std::env::temp_dir().join(format!("simt-cmd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let p = dir.join("bad.sk");
    std::fs::write(&p, "__global__ void k(float* a) { a[0] = ; }\n").expect("write");
    let (code, _, err) = simt(&["sweep", p.to_str().expect("path"), "--block", "32,64"]);
    assert_eq!(code, 2);
    assert_eq!(err.matches("simt::parse").count(), 1, "{err}");
}

#[test]
fn compare_two_kernels_of_one_file() {
    let (code, out, _) = simt(&[
        "compare",
        "kernels/divergence.sk",
        "--kernel",
        "branch_odd_even",
        "--kernel",
        "branch_by_warp",
    ]);
    assert_eq!(code, 0);
    // Per warp, A = odd/even: index 2, loads 2, `threadIdx.x % 2 == 0` + branch 3, two sides ×
    // (add/sub + store) 4 = 11 instructions → 352; B = by warp: `(threadIdx.x / 32) % 2 == 0` + branch
    // 4, one side 2 → 10 → 320. Lane slots: A 7 × 32 + 4 × 16 = 288 per warp → 9216; B 320 × 32 =
    // 10240. Stores: A 64 requests of 4 sectors (16 lanes over 128 B), B 32 → 0.50.
    // dram: A (256 + 256) × 32 = 16384, B (256 + 128) × 32 = 12288.
    for row in [
        "  warp_instr                                 352             320      0.91",
        "  active_lane_slots                         9216           10240      1.11",
        "  gst_instr                                   64              32      0.50",
        "  gst_sectors                                256             128      0.50",
        "  dram_bytes                               16384           12288      0.75",
        "  divergent                                   32               0      0.00",
        "  smem_instr                                   0               0         =",
    ] {
        assert!(
            out.contains(&format!("{row}\n")),
            "missing `{row}` in\n{out}"
        );
    }
    assert!(out.starts_with("simt compare on H100 SXM\n  A  branch_odd_even (kernels/divergence.sk)  grid 4 × block 256\n  B  branch_by_warp (kernels/divergence.sk)  grid 4 × block 256\n"), "{out}");
}

#[test]
fn compare_two_files_in_json() {
    let (code, out, _) = simt(&[
        "compare",
        "kernels/transpose_tiled.sk",
        "kernels/transpose_padded.sk",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["a"]["kernel"], "transpose_tiled");
    assert_eq!(v["b"]["counters"]["smem_wavefronts"], 4096);
    // 4096 / 67584 wavefronts; conflicts 0 / 63488 = 0; divergent 0 in A: no ratio.
    let r = v["ratios"]["smem_wavefronts"].as_f64().expect("ratio");
    assert!((r - 4096.0 / 67584.0).abs() < 1e-12);
    assert_eq!(v["ratios"]["smem_bank_conflicts"], 0.0);
    assert_eq!(v["ratios"]["divergent"], Value::Null);
    assert_eq!(v["ratios"]["gld_sectors"], 1.0);
    // Times go by run's names, whose values are seconds; a ratio has no unit.
    let t = v["ratios"]["time"].as_f64().expect("a time ratio");
    let (ta, tb) = (v["a"]["time"]["t"].as_f64(), v["b"]["time"]["t"].as_f64());
    assert!((t - tb.expect("t") / ta.expect("t")).abs() < 1e-12);
    assert!(v["ratios"]["time_refined"].is_number());
    assert!(v["ratios"].get("time_us").is_none());
    // Every compared metric (both ran with the cache model and have a refined time): 18 of
    // `counters` and `derived`, occupancy, time, 4 of the cache model and time_refined.
    assert_eq!(v["ratios"].as_object().map(|r| r.len()), Some(25));
}

#[test]
fn compare_needs_two_kernels() {
    let (code, _, err) = simt(&["compare", "kernels/vecadd.sk"]);
    assert_eq!(code, 2);
    assert!(err.contains("compare needs two kernels"), "{err}");
    let (code, _, _) = simt(&["compare", "kernels/vecadd.sk", "--kernel", "vecadd"]);
    assert_eq!(code, 2);
    let (code, _, _) = simt(&["compare", "a.sk", "b.sk", "c.sk"]);
    assert_eq!(code, 2);
    let (code, _, err) = simt(&[
        "compare",
        "kernels/vecadd.sk",
        "kernels/offset_copy.sk",
        "--kernel",
        "nope",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("no kernel named `nope`"), "{err}");
}

#[test]
fn completions_and_man_pages_come_from_the_clap_definitions() {
    let (code, out, _) = simt(&["completions", "bash"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("_simt()") && out.contains("sweep") && out.contains("--lines"),
        "{out}"
    );
    let (code, out, _) = simt(&["completions", "zsh"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("#compdef simt"), "{out}");
    let (code, out, _) = simt(&["completions", "fish"]);
    assert_eq!(code, 0);
    assert!(out.contains("complete -c simt"), "{out}");
    let (code, _, _) = simt(&["completions", "tcsh"]);
    assert_eq!(code, 2);
    let (code, out, _) = simt(&["man"]);
    assert_eq!(code, 0);
    assert!(out.contains(".TH simt 1"), "{out}");
    assert!(out.contains("compare"), "{out}");
    let dir = std::env::temp_dir().join(format!("simt-man-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let (code, _, err) = simt(&["man", "--dir", dir.to_str().expect("path")]);
    assert_eq!(code, 0, "{err}");
    for page in ["simt.1", "simt-run.1", "simt-sweep.1", "simt-compare.1"] {
        let text = std::fs::read_to_string(dir.join(page)).expect(page);
        assert!(text.contains(".TH"), "{page}");
    }
    let (code, _, err) = simt(&["man", "--dir", "no/such/dir"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot write man pages"), "{err}");
}

#[test]
fn color_follows_the_flag_and_no_color() {
    let args = ["run", "kernels/transpose_tiled.sk", "--lines"];
    // Not a terminal: auto means no colour, with or without NO_COLOR.
    let (_, out, _) = simt_env(&args, false);
    assert!(!out.contains('\x1b'));
    let (_, out, _) = simt_env(
        &[
            "--color",
            "always",
            "run",
            "kernels/transpose_tiled.sk",
            "--lines",
        ],
        true,
    );
    // The 32-way conflict on line 47 is red: "  32.00" padded to 7 then coloured.
    assert!(out.contains("\x1b[31m  32.00\x1b[0m"), "{out}");
    let (_, out, _) = simt_env(
        &[
            "run",
            "--color",
            "never",
            "kernels/transpose_tiled.sk",
            "--lines",
        ],
        false,
    );
    assert!(!out.contains('\x1b'));
    let (code, _, _) = simt(&["--color", "sometimes", "gpus"]);
    assert_eq!(code, 2);
}

#[test]
fn gpus_show_the_names_to_type_and_one_preset_round_trips_through_a_file() {
    // Every row of `simt gpus` starts with the name `--gpu` takes.
    let (code, out, _) = simt(&["gpus"]);
    assert_eq!(code, 0);
    let mut lines = out.lines();
    assert!(
        lines.next().is_some_and(|h| h.starts_with("--gpu")),
        "{out}"
    );
    for row in lines {
        let name = row.split_whitespace().next().expect("a name");
        let (code, _, err) = simt(&["occupancy", "--threads", "256", "--gpu", name]);
        assert_eq!(code, 0, "{name}: {err}");
    }
    // `simt gpus NAME --json` is a description `--gpu FILE.json` reads back.
    let (code, json, _) = simt(&["gpus", "h100-pcie", "--json"]);
    assert_eq!(code, 0);
    let path = std::env::temp_dir().join(format!("simt-gpu-{}.json", std::process::id()));
    std::fs::write(&path, json).expect("write");
    let (code, out, err) = simt(&[
        "run",
        "kernels/vecadd.sk",
        "--gpu",
        path.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("simt · vecadd (kernels/vecadd.sk) on H100 PCIe"),
        "{out}"
    );
    // The list in JSON names each preset.
    let (_, all, _) = simt(&["gpus", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&all).expect("JSON");
    assert_eq!(v["gpus"][1]["preset"], "h100-pcie");
}

#[test]
fn a_carveout_over_100_percent_is_a_usage_error() {
    let (code, _, err) = simt(&["occupancy", "--threads", "256", "--carveout", "150"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("150 is not in 0..=100"), "{err}");
}

#[test]
fn a_failed_sweep_row_in_json_says_which_gpu_block_and_grid_it_was() {
    let (code, out, _) = simt(&[
        "sweep",
        "kernels/vecadd.sk",
        "--block",
        "64,2048",
        "--grid",
        "4",
        "--gpu",
        "a100",
        "--json",
    ]);
    assert_eq!(code, 2);
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(rows[1]["row"], 2);
    assert_eq!(rows[1]["ok"], false);
    assert_eq!(rows[1]["gpu"], "A100 SXM 80GB");
    assert_eq!(rows[1]["block"][0], 2048);
    assert_eq!(rows[1]["grid"][0], 4);
    assert_eq!(rows[1]["error"]["code"], "simt::host::launch_shape");
}

#[test]
fn a_pasted_files_other_kernels_do_not_stop_the_launched_one() {
    // `broken` calls a function simt does not have; the launch section runs `fine`. `run` and
    // `test` run `fine` and name what they left out; `check` still fails on `broken`.
    let (dir, file) = temp_kernel(
        "focus",
        "two.sk",
        r#"__global__ void broken(float* a) { curand_init(1, 0, 0, 0); a[0] = 1.0f; }
__global__ void fine(float* a) { a[threadIdx.x] = 2.0f; }
__global__ void other(float* a) { a[threadIdx.x] = 3.0f; }
launch fine { a = zeros(4); block = 4; grid = 1; expect a == 2; }
"#,
    );
    let file = file.as_str();
    let (code, out, err) = simt(&["run", file]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("kernel `broken` (line 1: unknown function `curand_init` [simt::check::unknown_function])"),
        "{out}"
    );
    let (code, out, _) = simt(&["test", file]);
    assert_eq!(code, 0, "{out}");
    let (code, _, err) = simt(&["check", file]);
    assert_eq!(code, 2);
    assert!(err.contains("simt::check::unknown_function"), "{err}");
    // Asked for by name, the broken kernel's error is the run's.
    let (code, _, err) = simt(&[
        "run", file, "--kernel", "broken", "--block", "1", "--grid", "1",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("simt::check::unknown_function"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_overloaded_kernel_template_does_not_stop_another_kernels_run() {
    // GPU-NTT's ntt_4step.cu: `Transpose_Batch` runs although the file's other kernel
    // templates are overloads simt cannot tell apart (here by their template parameters
    // alone, one signature): `run` leaves the template out and names it, `check` of the whole
    // file still fails on it.
    let (dir, file) = temp_kernel(
        "overloaded",
        "ntt.sk",
        r#"template <int N>
__global__ void k(int* out) { out[threadIdx.x] = N; }
template <typename T>
__global__ void k(int* out) { out[threadIdx.x] = sizeof(T); }
__global__ void other(int* out) { out[threadIdx.x] = 2 * threadIdx.x; }
launch other { out = zeros(4); grid = 1; block = 4; expect out == 2 * arange(4); }
"#,
    );
    let file = file.as_str();
    let (code, out, err) = simt(&["run", file]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("kernel template `k(int*)` (line 4: overloading the kernel template `k(int*)` is not supported [simt::check::unsupported])"),
        "{out}"
    );
    let (code, _, err) = simt(&["check", file]);
    assert_eq!(code, 2);
    assert!(
        err.contains("overloading the kernel template `k(int*)`"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn simt_test_takes_allow_paths_as_run_does() {
    // A corpus kept its data one folder up; `simt test` refused `--allow-paths`, which the
    // path_escape diagnostic told it to pass. data: the float32 array [1, 2] as a .npy file.
    let dir = std::env::temp_dir().join(format!("simt-allow-paths-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("kernels")).expect("temp dir");
    let data: Vec<u8> = [1.0f32, 2.0].iter().flat_map(|x| x.to_le_bytes()).collect();
    let npy = crate::common::npy("<f4", false, "(2,)", &data);
    std::fs::write(dir.join("x.npy"), npy).expect("write npy");
    let path = dir.join("kernels").join("twice.sk");
    std::fs::write(
        &path,
        "__global__ void k(float* a) { a[threadIdx.x] *= 2.0f; }\nlaunch k { a = load(\"../x.npy\"); grid = 1; block = 2; expect a == [2, 4]; }\n",
    )
    .expect("write");
    let file = path.to_str().expect("utf-8 path");
    let (code, out, err) = simt(&["test", file]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        format!("{out}{err}").contains("simt::host::path_escape"),
        "{out}{err}"
    );
    let (code, out, err) = simt(&["test", file, "--allow-paths"]);
    assert_eq!(code, 0, "{out}{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_structured_npy_gives_structs_their_bytes() {
    // numpy's records as C lays the structs out: P {float a, b; int3 r;} (20 bytes) for a
    // `__constant__` P and an array of two; Q {unsigned char c; double d;} with numpy's
    // `align=True` padding (`|V7`). out[i] = ps[i].a + ps[i].b * ps[i].r.z + props.a + q.c +
    // q.d: 1 + 2 * 3 + 10 + 7 + 0.5 = 24.5 and 5 + 1 * 4 + 10 + 7 + 0.5 = 26.5.
    let dir = std::env::temp_dir().join(format!("simt-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = |a: f32, b: f32, z: i32| -> Vec<u8> {
        let mut out = Vec::new();
        out.extend(a.to_le_bytes());
        out.extend(b.to_le_bytes());
        out.extend([0i32, 0, z].iter().flat_map(|x| x.to_le_bytes()));
        out
    };
    let fields = "[('a', '<f4'), ('b', '<f4'), ('r', '<i4', (3,))]";
    let ps = [p(1.0, 2.0, 3), p(5.0, 1.0, 4)].concat();
    std::fs::write(
        dir.join("ps.npy"),
        crate::common::npy(fields, false, "(2,)", &ps),
    )
    .expect("npy");
    let one = p(10.0, 0.0, 0);
    std::fs::write(
        dir.join("p.npy"),
        crate::common::npy(fields, false, "()", &one),
    )
    .expect("npy");
    let mut q = vec![7u8, 0, 0, 0, 0, 0, 0, 0];
    q.extend(0.5f64.to_le_bytes());
    let q_fields = "[('c', '|u1'), ('', '|V7'), ('d', '<f8')]";
    std::fs::write(
        dir.join("q.npy"),
        crate::common::npy(q_fields, false, "(1,)", &q),
    )
    .expect("npy");
    let path = dir.join("records.sk");
    std::fs::write(
        &path,
        r#"struct P { float a; float b; int3 r; };
struct Q { unsigned char c; double d; };
__constant__ P props;
__global__ void k(const P* ps, const Q* q, float* out) {
    P p = ps[threadIdx.x];
    out[threadIdx.x] = p.a + p.b * p.r.z + props.a + q->c + q->d;
}
launch k { ps = load("ps.npy"); props = load("p.npy"); q = load("q.npy"); out = zeros(2);
           grid = 1; block = 2; expect out == [24.5, 26.5]; }
"#,
    )
    .expect("write");
    let (code, out, err) = simt(&["test", path.to_str().expect("utf-8 path")]);
    assert_eq!(code, 0, "{out}{err}");
    // Four 10-byte records are 40 bytes, two 20-byte P's by count, but not P's layout.
    let short = "[('a', '<f4'), ('b', '<f4'), ('c', '<i2')]";
    std::fs::write(
        dir.join("ps.npy"),
        crate::common::npy(short, false, "(4,)", &[0; 40]),
    )
    .expect("npy");
    let (code, out, err) = simt(&["test", path.to_str().expect("utf-8 path")]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("holds 20-byte structs but its array's rows (a structured `.npy`'s records) are 10 bytes"),
        "{out}{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_function_no_kernel_calls_sees_the_files_variables() {
    // `f` reads an initialised `__constant__` array, an unset one, a `__device__` counter and
    // a file-scope `__shared__` array; no kernel calls it, so `check` checks it on its own
    // (it said "unknown name `dev_k`"). A kernel's own error is not followed by that one.
    let (dir, file) = temp_kernel(
        "uncalled",
        "f.sk",
        r#"__constant__ unsigned dev_k[4] = {1, 2, 3, 4};
__constant__ unsigned dk2[4];
__device__ int cnt;
__shared__ unsigned tile[32];
__device__ void f(unsigned* out) { tile[threadIdx.x] = dk2[0] + cnt; out[threadIdx.x] = dev_k[threadIdx.x] + tile[0]; }
__global__ void k(unsigned* o) { o[0] = 1; }
"#,
    );
    let (code, out, err) = simt(&["check", &file]);
    assert_eq!(code, 0, "{out}{err}");
    let (_, broken) = temp_kernel(
        "uncalled",
        "g.sk",
        r#"__constant__ unsigned dev_k[4] = {1, 2, 3, 4};
__device__ void f(unsigned* out) { out[threadIdx.x] = dev_k[threadIdx.x]; }
__global__ void k(unsigned* o) { f(o + nope); }
"#,
    );
    let (code, _, err) = simt(&["check", &broken]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown name `nope`"), "{err}");
    assert!(!err.contains("unknown name `dev_k`"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

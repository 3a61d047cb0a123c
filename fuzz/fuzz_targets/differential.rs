//! Any text: every launch of the file runs on the engine and on the reference interpreter
//! (`simt::reference`, one thread at a time over the checked program), under small limits.
//! Where the reference has one answer, they must agree: both finish with equal buffers and
//! counters consistent with what the threads did, or both stop. The reference has no answer for
//! warp-synchronous operations, results that depend on how threads interleave, barriers it takes
//! for divergent (the lock-step engine may not), or a step limit (the two count steps differently):
//! those launches are passed over, as are launches too large to run one thread at a time quickly.
//! When both stop, the first failure may differ (lock-step and one thread at a time reach
//! different threads' failures first), so only a stop on one side alone is a disagreement.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simt::exec::{self, LaunchConfig, RunError};
use simt::host::{self, HostValue, Overrides};
use simt::reference::{self, RefError};
use simt::source::SourceFile;

/// Threads of the largest launch compared.
const MAX_THREADS: u64 = 4096;
/// Bytes of `extern __shared__` memory of the largest launch compared.
const MAX_DYN_SMEM: f64 = 65536.0;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        compare(text);
    }
});

fn compare(text: &str) {
    let src = SourceFile::new("fuzz.sk", text);
    let Ok((module, program)) = simt::pipeline::compile(&src) else {
        return;
    };
    let overrides = Overrides {
        max_memory: 32 << 20,
        ..Overrides::default()
    };
    for launch in &module.launches {
        let Some(kernel) = program.kernel(&launch.kernel.name) else {
            continue;
        };
        let Ok(setup) = host::prepare(kernel, Some(launch), &overrides, std::path::Path::new("."))
        else {
            continue;
        };
        let dyn_smem = match setup.env.vars.get("dyn_smem") {
            None => 0,
            Some(HostValue::Num { v, .. }) if (0.0..=MAX_DYN_SMEM).contains(v) => *v as u64,
            Some(_) => continue,
        };
        let threads: u64 = setup
            .grid
            .iter()
            .chain(&setup.block)
            .map(|&d| u64::from(d))
            .product();
        if threads > MAX_THREADS {
            continue;
        }
        let cfg = LaunchConfig {
            grid: setup.grid,
            block: setup.block,
            dyn_smem,
            max_steps: 20_000,
            max_block_steps: 20_000 * 32,
            deadline: None,
            threads: 1,
            cooperative: false,
            parallel_min: exec::PARALLEL_MIN_THREADS,
            probe: exec::Probe::default(),
            cache: None,
        };
        let ir = simt::ir::lower(kernel);
        let (mut fast, mut slow) = (setup.args.clone(), setup.args.clone());
        let engine = exec::launch(&ir, &cfg, &mut fast);
        let oracle = reference::run(kernel, &cfg, &mut slow);
        match (engine, oracle) {
            (
                _,
                Err(
                    RefError::Unsupported { .. }
                    | RefError::Interleaving { .. }
                    | RefError::DivergentBarrier { .. }
                    | RefError::StepLimit,
                ),
            ) => {}
            (
                Err(
                    RunError::StepLimit { .. }
                    | RunError::GridStepLimit { .. }
                    | RunError::DivergentBarrier { .. },
                ),
                _,
            ) => {}
            (Ok(outcome), Ok(tally)) => {
                for (f, s) in fast.buffers.iter().zip(&slow.buffers) {
                    assert!(
                        reference::same_data(&f.data, &s.data),
                        "{}: buffer {} differs:\n engine    {:?}\n reference {:?}",
                        kernel.name,
                        f.name,
                        f.data,
                        s.data
                    );
                }
                if let Some(rule) = reference::counters_disagree(&outcome.counters, &tally) {
                    panic!(
                        "{}: {rule}:\n{:?}\n{tally:?}",
                        kernel.name, outcome.counters
                    );
                }
            }
            (Err(_), Err(_)) => {}
            (e, r) => panic!(
                "{}: engine {:?} but reference {r:?}",
                kernel.name,
                e.map(|o| o.counters)
            ),
        }
    }
}

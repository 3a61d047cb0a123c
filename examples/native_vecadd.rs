//! The practical limit for simulating vecadd: a native loop that computes `c = a + b` for 2^22
//! floats and counts the same events simt counts, warp by warp — each memory instruction's 32
//! sector numbers are sorted and deduplicated, with no shortcut that assumes contiguity.
//!
//! `cargo run --release --example native_vecadd` prints the time and the counters (they equal
//! `simt run kernels/vecadd.sk --arg n=4194304 --json`'s).

use std::time::Instant;

/// Distinct 32-byte sectors of the active lanes' 4-byte elements, by sorting.
fn sectors(idx: &[i64; 32], active: &[bool; 32]) -> u64 {
    let mut s = [0i64; 32];
    let mut k = 0;
    for (i, &a) in idx.iter().zip(active) {
        if a {
            s[k] = (i * 4) >> 5;
            k += 1;
        }
    }
    let s = &mut s[..k];
    s.sort_unstable();
    let mut count = 0;
    for j in 0..s.len() {
        if j == 0 || s[j] != s[j - 1] {
            count += 1;
        }
    }
    count
}

fn main() {
    let n: i64 = 1 << 22;
    let block: i64 = 256;
    let grid = (n + block - 1) / block;
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let b = vec![1.0f32; n as usize];
    // Written before the clock starts, as simt's buffers are while it sets up (a zeroed `vec!`
    // would leave first-touch page faults inside the timed loop).
    let mut c = vec![-1.0f32; n as usize];
    let start = Instant::now();
    let (mut warp_instr, mut lanes, mut gld_instr, mut gld_sectors, mut gst_instr, mut gst_sectors) =
        (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    let (mut branches, mut divergent) = (0u64, 0u64);
    for bx in 0..grid {
        for w in 0..block / 32 {
            let mut idx = [0i64; 32];
            let mut active = [false; 32];
            for l in 0..32 {
                idx[l] = bx * block + w * 32 + l as i64;
                active[l] = idx[l] < n;
            }
            // `blockIdx.x * blockDim.x`, `+ threadIdx.x`, `i < n`, the `if`: 4 instructions, 32 lanes.
            warp_instr += 4;
            lanes += 4 * 32;
            let taken = active.iter().filter(|&&x| x).count() as u64;
            branches += 1;
            divergent += u64::from(taken > 0 && taken < 32);
            if taken == 0 {
                continue;
            }
            // Two loads, the add and the store on the active lanes.
            warp_instr += 4;
            lanes += 4 * taken;
            gld_instr += 2;
            gld_sectors += 2 * sectors(&idx, &active);
            gst_instr += 1;
            gst_sectors += sectors(&idx, &active);
            for l in 0..32 {
                if active[l] {
                    let i = idx[l] as usize;
                    c[i] = a[i] + b[i];
                }
            }
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    assert!(c.iter().enumerate().all(|(i, &x)| x == i as f32 + 1.0));
    println!(
        "{{\"seconds\": {elapsed}, \"warp_instr\": {warp_instr}, \"active_lane_slots\": {lanes}, \"gld_instr\": {gld_instr}, \"gld_sectors\": {gld_sectors}, \"gst_instr\": {gst_instr}, \"gst_sectors\": {gst_sectors}, \"branches\": {branches}, \"divergent\": {divergent}}}"
    );
}

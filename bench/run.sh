#!/usr/bin/env bash
# Benchmarks simt against the reference model and the native limit; prints a markdown table.
#
#   bench/run.sh             every case, 5 runs each (the best simulate time counts)
#   bench/run.sh --smoke     small launches, one run, no reference (a quick check that it all works)
#   NO_REFERENCE=1 bench/run.sh   skip the numpy reference model (it takes a few minutes)
#
# simt's time is the `simulate` phase of its JSON `timing` (blocks only, not parsing or setting up
# buffers); the reference's is its launch() call. lane-instr = active_lane_slots. peak MiB: the
# largest resident set of simt's runs (bench/measure.py); limit MiB: 1.5 x the buffers + 64.
# 2-process ceiling: 2 x the 1-thread time / the time of two 1-thread copies run at once — the
# speedup two threads could get if the machine's two CPUs were independent of each other.
set -euo pipefail
cd "$(dirname "$0")/.."
smoke=0
[ "${1:-}" = "--smoke" ] && smoke=1
cargo build --release --quiet --bin simt --example native_vecadd
simt=target/release/simt
runs=5
# name|buffer bytes|simt arguments (the buffer bytes are the launch's, for the peak-memory target)
if [ $smoke = 1 ]; then
    runs=1
    cases=(
        "vecadd|$((3 * 65536 * 4))|kernels/vecadd.sk --arg n=65536"
        "saxpy|$((2 * 65536 * 4))|kernels/saxpy.sk --arg n=65536"
        "reduce|$((65536 * 4 + 256 * 4))|kernels/reduce_sequential.sk --arg n=65536"
        "transpose|$((2 * 256 * 256 * 4))|kernels/transpose_tiled.sk --arg width=256 --arg height=256"
        "sgemm|$((3 * 64 * 64 * 4))|kernels/matmul_tiled16.sk --arg M=64 --arg N=64 --arg K=64"
    )
else
    cases=(
        "vecadd|$((3 * 4194304 * 4))|kernels/vecadd.sk --arg n=4194304"
        "saxpy|$((2 * 4194304 * 4))|kernels/saxpy.sk --arg n=4194304"
        "reduce|$((1048576 * 4 + 4096 * 4))|kernels/reduce_sequential.sk --arg n=1048576"
        "transpose|$((2 * 2048 * 2048 * 4))|kernels/transpose_tiled.sk --arg width=2048 --arg height=2048"
        "sgemm|$((3 * 512 * 512 * 4))|kernels/matmul_tiled16.sk --arg M=512 --arg N=512 --arg K=512"
    )
fi

declare -A ref
if [ $smoke = 0 ] && [ -z "${NO_REFERENCE:-}" ] && python3 -c 'import numpy' 2>/dev/null; then
    while read -r line; do
        name=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["name"])' "$line")
        ref[$name]=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["seconds"])' "$line")
    done < <(python3 bench/reference.py)
fi

# best of $runs, like simt's times
native=$(for _ in $(seq $runs); do target/release/examples/native_vecadd; done |
    python3 -c 'import json,sys; print(min(json.loads(l)["seconds"] for l in sys.stdin if l.strip()))')

printf '| kernel | lane-instr | simt 1 thread (s) | simt 2 threads (s) | 2T speedup | 2-process ceiling | lane-instr/s/core | reference (s) | ref / simt 1T | ref / simt 2T | peak MiB | limit MiB |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
for c in "${cases[@]}"; do
    IFS='|' read -r name bytes rest <<< "$c"
    read -r -a args <<< "$rest"
    one=$(python3 bench/measure.py "$simt" "$runs" 1 1 "${args[@]}")
    two=$(python3 bench/measure.py "$simt" "$runs" 2 1 "${args[@]}")
    pair=$(python3 bench/measure.py "$simt" "$runs" 1 2 "${args[@]}")
    python3 - "$name" "$bytes" "$one" "$two" "$pair" "${ref[$name]:-}" <<'PY'
import json, sys
name, buffers = sys.argv[1], int(sys.argv[2])
one, two, pair = (json.loads(a) for a in sys.argv[3:6])
r = sys.argv[6]
t1, t2, lanes = one["simulate"], two["simulate"], one["lanes"]
# Two single-threaded copies at once: what the machine gives two independent jobs.
ceiling = 2 * t1 / pair["simulate"]
peak = max(one["peak_mib"], two["peak_mib"])
# Issue 5: peak memory at most 1.5 x the launch's buffers + 64 MiB.
limit = 1.5 * buffers / (1 << 20) + 64
ref = f"{float(r):.2f}" if r else "–"
r1 = f"{float(r) / t1:.0f}×" if r else "–"
r2 = f"{float(r) / t2:.0f}×" if r else "–"
print(f"| {name} | {lanes:.3e} | {t1:.4f} | {t2:.4f} | {t1 / t2:.2f}× | {ceiling:.2f}× | {lanes / t1:.2e} | {ref} | {r1} | {r2} | {peak:.0f} | {limit:.0f} |")
PY
done
printf '\nnative vecadd 2^22 counting loop: %.4f s\n' "$native"

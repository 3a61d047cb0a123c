#!/usr/bin/env bash
# Benchmarks simt against the reference model and the native limit; prints a markdown table.
#
#   bench/run.sh             every case, 3 runs each (the best simulate time counts)
#   bench/run.sh --smoke     small launches, one run, no reference (a quick check that it all works)
#   NO_REFERENCE=1 bench/run.sh   skip the numpy reference model (it takes a few minutes)
#
# simt's time is the `simulate` phase of its JSON `timing` (blocks only, not parsing or setting up
# buffers); the reference's is its launch() call. lane-instr = active_lane_slots.
set -euo pipefail
cd "$(dirname "$0")/.."
smoke=0
[ "${1:-}" = "--smoke" ] && smoke=1
cargo build --release --quiet --bin simt --example native_vecadd
simt=target/release/simt
runs=3
if [ $smoke = 1 ]; then
    runs=1
    cases=(
        "vecadd|kernels/vecadd.sk --arg n=65536"
        "saxpy|kernels/saxpy.sk --arg n=65536"
        "reduce|kernels/reduce_sequential.sk --arg n=65536"
        "transpose|kernels/transpose_tiled.sk --arg width=256 --arg height=256"
        "sgemm|kernels/matmul_tiled16.sk --arg M=64 --arg N=64 --arg K=64"
    )
else
    cases=(
        "vecadd|kernels/vecadd.sk --arg n=4194304"
        "saxpy|kernels/saxpy.sk --arg n=4194304"
        "reduce|kernels/reduce_sequential.sk --arg n=1048576"
        "transpose|kernels/transpose_tiled.sk --arg width=2048 --arg height=2048"
        "sgemm|kernels/matmul_tiled16.sk --arg M=512 --arg N=512 --arg K=512"
    )
fi

# best simulate seconds and lane slots of `simt run ARGS --threads T --json` over $runs runs
measure() {
    local threads=$1; shift
    for _ in $(seq $runs); do "$simt" run "$@" --threads "$threads" --json; done |
        python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.strip()]
assert all(r["ok"] for r in rows), "an expect failed"
print(min(r["timing"]["simulate"] for r in rows), rows[0]["counters"]["active_lane_slots"])'
}

declare -A ref
if [ $smoke = 0 ] && [ -z "${NO_REFERENCE:-}" ] && python3 -c 'import numpy' 2>/dev/null; then
    while read -r line; do
        name=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["name"])' "$line")
        ref[$name]=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["seconds"])' "$line")
    done < <(python3 bench/reference.py)
fi

native=$(target/release/examples/native_vecadd | python3 -c 'import json,sys; print(json.load(sys.stdin)["seconds"])')

printf '| kernel | lane-instr | simt 1 thread (s) | simt 2 threads (s) | 2T speedup | lane-instr/s/core | reference (s) | ref / simt 1T | ref / simt 2T |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|\n'
for c in "${cases[@]}"; do
    name=${c%%|*}
    read -r -a args <<< "${c#*|}"
    read -r t1 lanes < <(measure 1 "${args[@]}")
    read -r t2 _ < <(measure 2 "${args[@]}")
    python3 - "$name" "$lanes" "$t1" "$t2" "${ref[$name]:-}" <<'PY'
import sys
name, lanes, t1, t2, r = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
ref = f"{float(r):.2f}" if r else "–"
r1 = f"{float(r) / t1:.0f}×" if r else "–"
r2 = f"{float(r) / t2:.0f}×" if r else "–"
print(f"| {name} | {lanes:.3e} | {t1:.4f} | {t2:.4f} | {t1 / t2:.2f}× | {lanes / t1:.2e} | {ref} | {r1} | {r2} |")
PY
done
printf '\nnative vecadd 2^22 counting loop: %.4f s\n' "$native"

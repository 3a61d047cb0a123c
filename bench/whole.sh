#!/usr/bin/env bash
# The whole process against the reference model: prints a markdown table.
#
#   bench/whole.sh           every case, 5 runs each (the best process wall-clock counts)
#
# simt's time is the wall-clock of the `simt run ... --json` process (parse, set-up, simulate,
# report, and starting and ending the process), on the machine's threads; the phases are the
# JSON `timing` of the run with the best simulate time. The reference's time is its launch() call
# alone (bench/reference.py), measured in the same invocation: it leaves out numpy's start-up and
# the arrays' set-up, so the ratio is the least simt gains. Needs numpy.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin simt
simt=target/release/simt
runs=5
threads=$(nproc)
# name|reference case|simt arguments
cases=(
    "vecadd n = 2^22|vecadd|kernels/vecadd.sk --arg n=4194304"
    "saxpy n = 2^22|saxpy|kernels/saxpy.sk --arg n=4194304"
    "reduce n = 2^20|reduce|kernels/reduce_sequential.sk --arg n=1048576"
    "transpose 2048²|transpose|kernels/transpose_tiled.sk --arg width=2048 --arg height=2048"
    "sgemm 256³|sgemm256|kernels/matmul_tiled16.sk --arg M=256 --arg N=256 --arg K=256"
)
declare -A ref
while read -r line; do
    name=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["name"])' "$line")
    ref[$name]=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["seconds"])' "$line")
done < <(python3 bench/reference.py vecadd saxpy reduce transpose sgemm256)

printf '| launch | parse (ms) | setup (ms) | simulate (ms) | report (ms) | (setup + report) / simulate | process (ms) | reference launch() (s) | reference / process |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|\n'
for c in "${cases[@]}"; do
    IFS='|' read -r name refname rest <<< "$c"
    read -r -a args <<< "$rest"
    m=$(python3 bench/measure.py "$simt" "$runs" "$threads" 1 "${args[@]}")
    python3 - "$name" "$m" "${ref[$refname]}" <<'PY'
import json, sys
name, m, r = sys.argv[1], json.loads(sys.argv[2]), float(sys.argv[3])
p = m["phases"]
ms = {k: 1000 * v for k, v in p.items()}
ratio = (p["setup"] + p["report"]) / p["simulate"]
wall = m["wall"]
print(f"| {name} | {ms['parse']:.1f} | {ms['setup']:.1f} | {ms['simulate']:.1f} | {ms['report']:.1f} | "
      f"{ratio:.2f} | {1000 * wall:.1f} | {r:.2f} | {r / wall:.0f}× |")
PY
done

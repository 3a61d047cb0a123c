#!/usr/bin/env bash
# The GPU check, run on a machine with an NVIDIA GPU, nvcc, ncu, compute-sanitizer and CuPy:
# times every launch of specs.py with CUDA events, profiles each once with Nsight Compute (the
# metrics of drive.py's METRICS this ncu knows), and runs the small launches under
# compute-sanitizer's racecheck and memcheck. Everything lands in $OUT (default /tmp/gpu-out);
# compare.py reads it beside simt's side (simt_side.py). Each stage has a time limit, so that
# one that hangs leaves the others their time: about 9 minutes in all at most.
set -u
OUT=${OUT:-/tmp/gpu-out}
mkdir -p "$OUT"
cd "$(dirname "$0")"
{ nvidia-smi; nvcc --version; ncu --version; compute-sanitizer --version; python3 -c 'import cupy; print("cupy", cupy.__version__)'; } >"$OUT/env.txt" 2>&1
timeout 150 python3 drive.py time "$OUT" 2>&1
ncu --query-metrics >/tmp/ncu-query.txt 2>&1
head -20 /tmp/ncu-query.txt; wc -l /tmp/ncu-query.txt
metrics=$(python3 drive.py metrics /tmp/ncu-query.txt)
echo "metrics: $metrics"
timeout 270 ncu --clock-control none --metrics "$metrics" --page raw --csv --print-units base \
    --log-file "$OUT/ncu.csv" python3 drive.py once >"$OUT/ncu.log" 2>&1
echo "ncu exit $?"
timeout 60 compute-sanitizer --tool racecheck python3 drive.py sanitize >"$OUT/racecheck.txt" 2>&1
echo "racecheck exit $?"
timeout 60 compute-sanitizer --tool memcheck python3 drive.py sanitize >"$OUT/memcheck.txt" 2>&1
echo "memcheck exit $?"
tail -3 "$OUT/ncu.log" "$OUT/racecheck.txt" "$OUT/memcheck.txt"

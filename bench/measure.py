#!/usr/bin/env python3
"""Runs `simt run ARGS --threads T --json` several times; prints one JSON line of measurements.

    python3 bench/measure.py SIMT RUNS THREADS COPIES ARGS...

COPIES processes run at once each time (2 measures what two independent single-threaded jobs get
from the machine: the ceiling for a two-thread speedup). Output: {"simulate": the best over the
runs of the slowest copy's simulate seconds, "phases": that run's parse, setup, simulate and report
seconds, "wall": the best process wall-clock seconds, "lanes": active_lane_slots, "peak_mib": the
largest resident set of any run, in MiB}. Fails if an `expect` of the kernel fails. Used by
bench/run.sh and bench/whole.sh.
"""

import json
import resource
import subprocess
import sys
import time

simt, runs, threads, copies, args = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5:]
best, phases, wall, lanes = None, None, None, None
for _ in range(runs):
    start = time.perf_counter()
    procs = [subprocess.Popen([simt, "run", *args, "--threads", threads, "--json"],
                              stdout=subprocess.PIPE, text=True) for _ in range(copies)]
    slowest, timing = 0.0, None
    for p in procs:
        out, _ = p.communicate()
        report = json.loads(out.splitlines()[0])
        assert report["ok"], f"an expect failed: {report.get('expects')}"
        if report["timing"]["simulate"] >= slowest:
            slowest, timing = report["timing"]["simulate"], report["timing"]
        lanes = report["counters"]["active_lane_slots"]
    elapsed = time.perf_counter() - start
    wall = elapsed if wall is None else min(wall, elapsed)
    if best is None or slowest < best:
        best, phases = slowest, timing
# ru_maxrss: the largest child so far, in KiB on Linux and bytes on macOS.
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
peak = rss / (1 << 20) if sys.platform == "darwin" else rss / 1024
print(json.dumps({"simulate": best, "phases": phases, "wall": wall, "lanes": lanes, "peak_mib": peak}))

#!/usr/bin/env python3
"""Runs `simt run ARGS --threads T --json` several times; prints one JSON line of measurements.

    python3 bench/measure.py SIMT RUNS THREADS ARGS...

Output: {"simulate": best simulate seconds, "lanes": active_lane_slots, "peak_mib": the largest
resident set of any run, in MiB}. Fails if an `expect` of the kernel fails. Used by bench/run.sh.
"""

import json
import resource
import subprocess
import sys

simt, runs, threads, args = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
best, lanes, peak = None, None, 0
for _ in range(runs):
    out = subprocess.run([simt, "run", *args, "--threads", threads, "--json"],
                         check=False, capture_output=True, text=True)
    report = json.loads(out.stdout.splitlines()[0])
    assert report["ok"], f"an expect failed: {report.get('expects')}"
    seconds = report["timing"]["simulate"]
    best = seconds if best is None else min(best, seconds)
    lanes = report["counters"]["active_lane_slots"]
# ru_maxrss: the largest child so far, in KiB on Linux and bytes on macOS.
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
peak = rss / (1 << 20) if sys.platform == "darwin" else rss / 1024
print(json.dumps({"simulate": best, "lanes": lanes, "peak_mib": peak}))

"""Holds simt's counters, outputs, findings and time against what the GPU measured, as Markdown.

    compare.py GPU_DIR SIMT_DIR > h200.md

GPU_DIR holds run.sh's files (timing.json, ncu.csv, outputs.npz, racecheck.txt, memcheck.txt),
SIMT_DIR simt_side.py's (simt.json and the small runs' outputs). A counter is compared wherever
simt reports it under the ncu metric's own name (the `ncu` object of `simt run --json`), and in the
few pairs of EXTRA, whose names differ.
"""

import json
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu_csv  # noqa: E402
import specs  # noqa: E402


def path(obj, dotted):
    for part in dotted.split("."):
        if not isinstance(obj, dict) or part not in obj:
            return None
        obj = obj[part]
    return obj


def atomics(s, what):
    return s["counters"][what]


# ncu metric (or sum of metrics) -> a function of simt's JSON.
EXTRA = [
    ("smsp__inst_executed.sum", lambda s: path(s, "time_refined.compiled_warp_instr")),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum+"
     "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", lambda s: atomics(s, "gatom_instr")),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum+"
     "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", lambda s: atomics(s, "gatom_sectors")),
    ("sm__maximum_warps_per_active_cycle_pct",
     lambda s: 100 * path(s, "occupancy.occupancy")),
]


def measured(metrics, name):
    parts = [metrics.get(p) for p in name.split("+")]
    return None if any(v is None for v in parts) else sum(parts)


def close(a, b):
    return a == b or (a is not None and b is not None and abs(a - b) <= 1e-6 * max(abs(a), 1))


def counters(gpu, sim):
    """Per metric: the runs where simt's value equals ncu's, and the others with both values."""
    table = {}
    for row in gpu:
        s = sim.get(row["key"])
        if s is None:
            continue
        pairs = [(m, v) for m, v in (s.get("ncu") or {}).items()]
        pairs += [(m, f(s)) for m, f in EXTRA]
        for metric, simt_value in pairs:
            value = measured(row["metrics"], metric)
            if value is None or simt_value is None:
                continue
            entry = table.setdefault(metric, dict(equal=[], differ=[]))
            if close(value, simt_value):
                entry["equal"].append(row["key"])
            else:
                entry["differ"].append((row["key"], value, simt_value))
    return table


def segments(text):
    """compute-sanitizer output cut at the driver's `=== kernel` markers."""
    out, name = {}, None
    for line in text.splitlines():
        m = re.match(r"=== (\w+)$", line)
        if m:
            name = m.group(1)
            out[name] = []
        elif name:
            out[name].append(line)
    return out


def sanitizer_counts(path_, pattern):
    if not os.path.exists(path_):
        return {}
    return {k: sum(bool(re.search(pattern, line)) for line in v)
            for k, v in segments(open(path_, errors="replace").read()).items()}


def fmt(v):
    if v is None:
        return "-"
    return f"{v:.0f}" if abs(v - round(v)) < 1e-9 else f"{v:.4g}"


def main():
    gpu_dir, simt_dir = sys.argv[1], sys.argv[2]
    sim = json.load(open(os.path.join(simt_dir, "simt.json")))
    timing = json.load(open(os.path.join(gpu_dir, "timing.json")))
    gpu = ncu_csv.rows(os.path.join(gpu_dir, "ncu.csv"), specs.runs())
    ncu = {r["key"]: r for r in gpu}
    dev = timing["device"]
    print(f"## Against {dev.get('name')} ({dev.get('multiProcessorCount')} SMs, "
          f"L2 {dev.get('l2CacheSize', 0) / 2**20:.0f} MiB)\n")

    print("### Launch shapes\n")
    bad = []
    for key, s in sim.items():
        if key in ncu:
            g = tuple(s["launch"]["grid"])
            if ncu[key]["grid"].strip("()").replace(" ", "") != ",".join(map(str, g)):
                bad.append(f"{key}: ncu grid {ncu[key]['grid']}, simt {g}")
    print(f"{len(ncu)} of {len(sim)} runs profiled; grids that differ: {bad or 'none'}\n")

    print("### Counters\n")
    print("| ncu metric | runs equal | runs that differ (ncu / simt) |")
    print("|---|---:|---|")
    for metric, e in sorted(counters(gpu, sim).items()):
        n = len(e["equal"]) + len(e["differ"])
        diffs = "; ".join(f"{k} {fmt(a)} / {fmt(b)}" for k, a, b in e["differ"])
        print(f"| `{metric}` | {len(e['equal'])} of {n} | {diffs} |")

    print("\n### Time (µs)\n")
    print("| run | ncu duration | events (median) | simt refined | simt / ncu | simt bound "
          "| regs (ncu) | simt reference |")
    print("|---|---:|---:|---:|---:|---|---:|---:|")
    events = {f"{r['kernel']}/{r['size']}": r for r in timing["runs"]}
    for key, s in sim.items():
        m = ncu.get(key, {}).get("metrics", {})
        dur = m.get("gpu__time_duration.sum")
        dur_us = dur / 1e3 if dur else None
        t = s["time_refined"]["t"] * 1e6
        ratio = f"{t / dur_us:.2f}" if dur_us else "-"
        ev = events.get(key, {}).get("event_us_median")
        print(f"| {key} | {fmt(dur_us)} | {fmt(ev)} | {t:.3g} | {ratio} | "
              f"{s['time_refined']['bound']} | {fmt(m.get('launch__registers_per_thread'))} | "
              f"{s['time']['t'] * 1e6:.3g} |")

    print("\n### Outputs of the small runs\n")
    outputs = np.load(os.path.join(gpu_dir, "outputs.npz"))
    same, differ = [], []
    for name in outputs.files:
        mine = os.path.join(simt_dir, f"{name}.npy")
        if not os.path.exists(mine):
            continue
        a, b = outputs[name].ravel(), np.load(mine).ravel()
        if a.shape == b.shape and np.allclose(a.astype(np.float64), b.astype(np.float64),
                                              rtol=1e-5, atol=1e-6):
            same.append(name)
        else:
            differ.append(name)
    print(f"equal (rtol 1e-5): {len(same)} of {len(same) + len(differ)}; differ: "
          f"{differ or 'none'}\n")

    print("### compute-sanitizer against simt's findings\n")
    races = sanitizer_counts(os.path.join(gpu_dir, "racecheck.txt"), r"Race reported|[Hh]azard")
    invalid = sanitizer_counts(os.path.join(gpu_dir, "memcheck.txt"), r"Invalid __\w+__ (read|write)")
    print("| kernel | racecheck reports | simt races | memcheck invalid accesses |")
    print("|---|---:|---:|---|")
    for key, s in sim.items():
        kernel, size = key.split("/")
        if size == "small":
            print(f"| {kernel} | {races.get(kernel, '-')} | {s['counters']['race_count']} | "
                  f"{invalid.get(kernel, '-')} |")
    for spec in specs.SANITIZE:
        print(f"| {spec.kernel} | {races.get(spec.kernel, '-')} | (simt: see `simt run "
              f"kernels/{spec.file}`) | {invalid.get(spec.kernel, '-')} |")


if __name__ == "__main__":
    main()

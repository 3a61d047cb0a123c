"""simt's side of the GPU check: runs every launch of specs.py through simt with the same scalars
and writes one JSON object per run, and the small runs' outputs as .npy, into a folder.

    simt_side.py OUT_DIR [--gpu h200] [--regs-from NCU_CSV]

SIMT names the binary (default target/release/simt). With --regs-from, each run is given the
registers per thread the compiled kernel has (ncu's launch__registers_per_thread), so that the
occupancy simt's time model uses is the real one; without it simt assumes its default.
"""

import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu_csv  # noqa: E402
import specs  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def parameter_names(path, kernel):
    """The kernel's parameter names, in order, read from its signature."""
    text = specs.kernel_source(path)
    m = re.search(r"__global__\s+void\s+" + re.escape(kernel) + r"\s*\(([^)]*)\)", text)
    return [re.findall(r"\w+", p)[-1] for p in m.group(1).split(",")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--gpu", default="h200")
    ap.add_argument("--regs-from")
    a = ap.parse_args()
    simt = os.environ.get("SIMT", os.path.join(ROOT, "target", "release", "simt"))
    regs = {}
    if a.regs_from:
        for r in ncu_csv.rows(a.regs_from, specs.runs()):
            regs[r["key"]] = int(r["metrics"]["launch__registers_per_thread"])
    os.makedirs(a.out, exist_ok=True)
    results = {}
    for spec, size in specs.runs():
        key = f"{spec.kernel}/{size}"
        path = os.path.join(ROOT, "kernels", spec.file)
        cmd = [simt, "run", path, "--kernel", spec.kernel, "--gpu", a.gpu, "--json"]
        for name, value in spec.sizes[size].items():
            cmd += ["--arg", f"{name}={value}"]
        if key in regs:
            cmd += ["--regs", str(regs[key])]
        if size == "small":
            names = parameter_names(path, spec.kernel)
            for i in spec.outputs:
                cmd += ["--save", f"{names[i]}={os.path.join(a.out, f'{spec.kernel}.{i}.npy')}"]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if not run.stdout:
            sys.exit(f"{key}: simt printed nothing\n{run.stderr}")
        results[key] = json.loads(run.stdout)
        print(f"{key}: {results[key]['time_refined']['t'] * 1e6:.2f} us", flush=True)
    json.dump(results, open(os.path.join(a.out, "simt.json"), "w"))


if __name__ == "__main__":
    main()

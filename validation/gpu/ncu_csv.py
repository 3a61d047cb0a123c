"""Reads `ncu --page raw --csv --print-units base` output: one row per profiled kernel, matched
to specs.py's runs by kernel name, in launch order."""

import csv


def number(text):
    text = text.replace(",", "").strip()
    try:
        return float(text)
    except ValueError:
        return None


def table(path):
    """The header and the data rows of the CSV, skipping ncu's own messages and the units row."""
    lines = open(path, errors="replace").read().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    reader = csv.reader(lines[start:])
    header = next(reader)
    body = [r for r in reader if len(r) == len(header) and r[0].strip().isdigit()]
    return header, body


def base_name(kernel_name):
    """`vecadd(const float *, ...)` or `void vecadd<...>(...)` -> `vecadd`."""
    name = kernel_name.split("(")[0].split("<")[0].strip()
    return name.split()[-1] if name else name


def rows(path, runs):
    """One dict per run of `runs` ((spec, size) pairs) that ncu profiled: key, metrics."""
    header, body = table(path)
    col = header.index("Kernel Name")
    by_kernel = {}
    for r in body:
        by_kernel.setdefault(base_name(r[col]), []).append(r)
    out = []
    for spec, size in runs:
        queue = by_kernel.get(spec.kernel, [])
        if not queue:
            continue
        r = queue.pop(0)
        metrics = {h: number(v) for h, v in zip(header, r) if "__" in h}
        out.append(dict(key=f"{spec.kernel}/{size}", grid=r[header.index("Grid Size")],
                        block=r[header.index("Block Size")], metrics=metrics))
    return out

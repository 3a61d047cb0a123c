"""Runs the shipped kernels as real CUDA (CuPy compiles them with NVRTC for the GPU present) for the GPU check.

    drive.py time OUT_DIR    time every launch of specs.py with CUDA events, save small outputs
    drive.py once            launch every run once, in order (under ncu)
    drive.py sanitize        launch the small runs and the error lessons once (under
                             compute-sanitizer), each announced on stdout first
    drive.py metrics FILE    the metrics of METRICS that `ncu --query-metrics` (FILE) lists, joined
"""

import json
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import specs  # noqa: E402

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kernels")

# Each one is compared with the simt counter or cache figure that carries its name, or listed
# beside it (compare.py says which).
METRICS = [
    "gpu__time_duration.sum",
    "sm__cycles_elapsed.avg.per_second",
    "dram__cycles_elapsed.avg.per_second",
    "launch__registers_per_thread",
    "launch__occupancy_limit_registers",
    "sm__maximum_warps_per_active_cycle_pct",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "smsp__inst_executed.sum",
    "smsp__thread_inst_executed.sum",
    "smsp__sass_branch_targets.sum",
    "smsp__sass_branch_targets_threads_divergent.sum",
    "smsp__sass_average_branch_targets_threads_uniform.pct",
    "smsp__inst_executed_op_global_ld.sum",
    "smsp__inst_executed_op_global_st.sum",
    "smsp__inst_executed_op_shared_ld.sum",
    "smsp__inst_executed_op_shared_st.sum",
    "smsp__inst_executed_op_global_red.sum",
    "smsp__inst_executed_op_global_atom.sum",
    "smsp__inst_executed_op_shared_atom.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__t_sector_hit_rate.pct",
    "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
    "lts__t_sector_hit_rate.pct",
    "lts__t_sector_op_read_hit_rate.pct",
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_write.sum",
    "lts__t_sectors_srcunit_tex_op_red.sum",
    "lts__t_sectors_srcunit_tex_op_atom.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__throughput.avg.pct_of_peak_sustained_active",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
]


def known_metrics(query_file):
    """The base names `ncu --query-metrics` lists (first word of each line that is a metric)."""
    names = set()
    for line in open(query_file, errors="replace"):
        m = re.match(r"\s*([a-z0-9_]+__[a-z0-9_]+)", line)
        if m:
            names.add(m.group(1))
    return [m for m in METRICS if m.split(".")[0] in names]


def modules():
    import cupy

    cache = {}

    def function(spec):
        if spec.file not in cache:
            names = [s.kernel for s in specs.SPECS + specs.SANITIZE if s.file == spec.file]
            src = specs.kernel_source(os.path.join(KERNELS, spec.file))
            cache[spec.file] = cupy.RawModule(code=src, name_expressions=names)
        return cache[spec.file].get_function(spec.kernel)

    return function


def device_args(host):
    import cupy

    return [cupy.asarray(a) if isinstance(a, np.ndarray) else a for a in host]


def launch(function, spec, size):
    host, grid = spec.launch(size)
    args = device_args(host)
    function(spec)(grid, spec.block, tuple(args))
    return host, args, grid


def time_all(out_dir):
    import cupy

    function = modules()
    props = cupy.cuda.runtime.getDeviceProperties(0)
    device = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in props.items()
              if isinstance(v, (int, float, bytes, str))}
    rows, outputs = [], {}
    for spec, size in specs.runs():
        host, grid = spec.launch(size)
        args = device_args(host)
        f = function(spec)
        for _ in range(3):
            f(grid, spec.block, tuple(args))
        cupy.cuda.runtime.deviceSynchronize()
        times = []
        for _ in range(20):
            start, stop = cupy.cuda.Event(), cupy.cuda.Event()
            start.record()
            f(grid, spec.block, tuple(args))
            stop.record()
            stop.synchronize()
            times.append(cupy.cuda.get_elapsed_time(start, stop) * 1e3)
        if size == "small":
            # A fresh launch on fresh buffers, so that outputs match one run of the kernel.
            host, args, _ = launch(function, spec, size)
            for i in spec.outputs:
                outputs[f"{spec.kernel}.{i}"] = cupy.asnumpy(args[i])
        rows.append(dict(kernel=spec.kernel, file=spec.file, size=size, grid=list(grid),
                         block=list(spec.block), event_us_median=float(np.median(times)),
                         event_us_min=float(np.min(times))))
        print(f"timed {spec.kernel} {size}: {np.median(times):.2f} us", flush=True)
    json.dump(dict(device=device, runs=rows), open(os.path.join(out_dir, "timing.json"), "w"),
              indent=1)
    np.savez(os.path.join(out_dir, "outputs.npz"), **outputs)


def once():
    import cupy

    function = modules()
    for spec, size in specs.runs():
        launch(function, spec, size)
        cupy.cuda.runtime.deviceSynchronize()
        print(f"launched {spec.kernel} {size}", flush=True)


def sanitize():
    import cupy

    # Plain cudaMalloc of each buffer's own size, so that memcheck sees the end of every buffer
    # (CuPy's pool rounds sizes up and hands out parts of larger allocations).
    cupy.cuda.set_allocator(None)
    function = modules()
    for spec, size in specs.runs(specs.SPECS + specs.SANITIZE):
        if size != "small":
            continue
        print(f"=== {spec.kernel}", flush=True)
        try:
            launch(function, spec, size)
            cupy.cuda.runtime.deviceSynchronize()
        except Exception as e:  # a trapped kernel leaves the context unusable: stop here
            print(f"=== {spec.kernel} failed: {e}", flush=True)
            return


if __name__ == "__main__":
    verb = sys.argv[1]
    if verb == "time":
        time_all(sys.argv[2])
    elif verb == "once":
        once()
    elif verb == "sanitize":
        sanitize()
    elif verb == "metrics":
        print(",".join(known_metrics(sys.argv[2])))
    else:
        sys.exit(f"unknown verb {verb}")

#!/usr/bin/env bash
# Regenerates every simt number in VALIDATION.md, one tab-separated row per kernel:
#   ladder  step  kernel  gpu  mode  t_refined_us  bound  t_reference_us  throughput  unit  l1_hit_pct  dram_MB
# t_refined is the run report's refined estimate (the kernel's duration, launch overhead beside it),
# t_reference the reference roofline `estimate_time` (launch overhead included); throughput is the
# ladder's own metric computed from t_refined (GFLOP/s for SGEMM, GB/s for the others).
#
# Usage: validation/run.sh [sgemm|sgemm-cache|reduce|bpg|all]   (default: all)
# Environment:
#   SIMT        the simt binary (default: `simt` on PATH)
#   SGEMM_SRC   a folder with siboehm/SGEMM_CUDA's src/kernels/*.cuh at commit 60cba6f9b20a...
#               (default: cloned from GitHub into $WORK)
#   REDUCE_SRC  a folder with jhlee508/reduction-cuda's kernels/*.cu at commit 4017ef79ad3b...
#               (default: cloned from GitHub into $WORK)
#   WORK        scratch folder for the clones (default: a new temporary folder, removed at exit)
# The public kernels are read from their repositories at a fixed commit, never copied into this
# one; validation/*.launch.sk hold only the launch sections.
set -euo pipefail

SIMT=${SIMT:-simt}
here=$(cd "$(dirname "$0")" && pwd)
what=${1:-all}
if [[ -z "${WORK:-}" ]]; then
    WORK=$(mktemp -d)
    trap 'rm -rf "$WORK"' EXIT
fi

clone() { # repo commit dir
    if [[ ! -d "$3" ]]; then
        git clone --quiet "https://github.com/$1" "$3"
        git -C "$3" checkout --quiet "$2"
    fi
}

# row LADDER STEP GPU MODE WORK UNIT FILE KERNEL [simt flags...]
# WORK is the ladder's unit of work: FLOPs (UNIT GFLOP/s) or bytes (UNIT GB/s).
row() {
    local ladder=$1 step=$2 gpu=$3 mode=$4 work=$5 unit=$6 file=$7 kernel=$8
    shift 8
    "$SIMT" run "$file" --kernel "$kernel" --gpu "$gpu" "$@" --json |
        jq -r --arg ladder "$ladder" --arg step "$step" --arg kernel "$kernel" \
              --arg gpu "$(basename "$gpu")" --arg mode "$mode" \
              --argjson work "$work" --arg unit "$unit" '
            [$ladder, $step, $kernel, $gpu, $mode,
             (.time_refined.t * 1e6 | . * 10 | round / 10),
             .time_refined.bound,
             (.time.t * 1e6 | . * 10 | round / 10),
             ($work / .time_refined.t / 1e9 | . * 10 | round / 10), $unit,
             (if .cache then (.cache.l1_hit_rate_pct | round) else "-" end),
             (if .cache then (.cache.dram_bytes / 1e6 | round) else "-" end)]
            | @tsv'
}

A6000="$here/rtx-a6000.json"

sgemm() { # MODE SIZE [simt flags...]
    local mode=$1 n=$2
    shift 2
    local src=${SGEMM_SRC:-$WORK/SGEMM_CUDA/src/kernels}
    [[ -n "${SGEMM_SRC:-}" ]] || clone siboehm/SGEMM_CUDA 60cba6f9b20a198116c76f18de8047f44df8c8b8 "$WORK/SGEMM_CUDA"
    local flops=$((2 * n * n * n))
    local size=(--arg "M=$n" --arg "N=$n" --arg "K=$n" --launch "$here/sgemm_a6000.launch.sk")
    row sgemm 1 "$A6000" "$mode" $flops GFLOP/s "$src/1_naive.cuh" sgemm_naive "${size[@]}" "$@"
    row sgemm 2 "$A6000" "$mode" $flops GFLOP/s "$src/2_kernel_global_mem_coalesce.cuh" 'sgemm_global_mem_coalesce<32>' "${size[@]}" "$@"
    row sgemm 3 "$A6000" "$mode" $flops GFLOP/s "$src/3_kernel_shared_mem_blocking.cuh" 'sgemm_shared_mem_block<32>' "${size[@]}" "$@"
    row sgemm 4 "$A6000" "$mode" $flops GFLOP/s "$src/4_kernel_1D_blocktiling.cuh" 'sgemm1DBlocktiling<64, 64, 8, 8>' "${size[@]}" "$@"
    row sgemm 5 "$A6000" "$mode" $flops GFLOP/s "$src/5_kernel_2D_blocktiling.cuh" 'sgemm2DBlocktiling<128, 128, 8, 8, 8>' "${size[@]}" "$@"
    row sgemm 6 "$A6000" "$mode" $flops GFLOP/s "$src/6_kernel_vectorize.cuh" 'sgemmVectorize<128, 128, 8, 8, 8>' "${size[@]}" "$@"
    row sgemm 7 "$A6000" "$mode" $flops GFLOP/s "$src/7_kernel_resolve_bank_conflicts.cuh" 'sgemmResolveBankConflicts<128, 128, 8, 8, 8>' "${size[@]}" "$@"
    row sgemm 8 "$A6000" "$mode" $flops GFLOP/s "$src/8_kernel_bank_extra_col.cuh" 'sgemmResolveBankExtraCol<128, 128, 8, 8, 8>' "${size[@]}" "$@"
    row sgemm 9 "$A6000" "$mode" $flops GFLOP/s "$src/9_kernel_autotuned.cuh" 'sgemmAutotuned<128, 128, 16, 8, 8>' "${size[@]}" "$@"
    row sgemm 10 "$A6000" "$mode" $flops GFLOP/s "$src/10_kernel_warptiling.cuh" 'sgemmWarptiling<128, 128, 16, 64, 64, 4, 8, 4, 128>' "${size[@]}" "$@"
}

reduce() {
    local src=${REDUCE_SRC:-$WORK/reduction-cuda/kernels}
    [[ -n "${REDUCE_SRC:-}" ]] || clone jhlee508/reduction-cuda 4017ef79ad3b9fb1ea1529555818ad65ce9ca0c6 "$WORK/reduction-cuda"
    local bytes=$((33554432 * 8)) l=(--launch "$here/reduce_v100.launch.sk")
    row reduce 1 v100 exhaustive $bytes GB/s "$src/1_interleaved.cu" interleaved_kernel "${l[@]}"
    row reduce 2 v100 exhaustive $bytes GB/s "$src/2_interleaved_contiguous.cu" interleaved_contiguous_kernel "${l[@]}"
    row reduce 3 v100 exhaustive $bytes GB/s "$src/3_sequential.cu" sequential_kernel "${l[@]}"
    row reduce 4 v100 exhaustive $bytes GB/s "$src/4_sequential_multi_load.cu" sequential_multi_load_kernel "${l[@]}"
    row reduce 5 v100 exhaustive $bytes GB/s "$src/5_sequential_warp_shfl_last.cu" sequential_warp_shfl_last_kernel "${l[@]}"
    row reduce 6 v100 exhaustive $bytes GB/s "$src/6_sequential_unroll_last.cu" sequential_unroll_last_kernel "${l[@]}"
    row reduce 7 v100 exhaustive $bytes GB/s "$src/7_sequential_unroll_all.cu" sequential_unroll_all_kernel "${l[@]}"
    row reduce 8 v100 exhaustive $bytes GB/s "$src/8_sequential_tuning.cu" sequential_tuning_kernel "${l[@]}"
    row reduce 9 v100 exhaustive $bytes GB/s "$src/9_full_warp_shfl.cu" full_warp_shfl_kernel "${l[@]}"
}

bpg() {
    local f="$here/bpg_matmul_v100.sk" m=2048 w=32
    # Effective bandwidth as the guide defines it (§8.2.2): bytes the kernel must read and write.
    local ab=$(( (m * w + w * m + m * m) * 4 )) aat=$(( (m * w + m * m) * 4 ))
    row bpg-ab 1 v100 exhaustive $ab GB/s "$f" ab_simple
    row bpg-ab 2 v100 exhaustive $ab GB/s "$f" ab_shared_a
    row bpg-ab 3 v100 exhaustive $ab GB/s "$f" ab_shared_ab
    row bpg-aat 1 v100 exhaustive $aat GB/s "$f" aat_simple
    row bpg-aat 2 v100 exhaustive $aat GB/s "$f" aat_shared
    row bpg-aat 3 v100 exhaustive $aat GB/s "$f" aat_shared_padded
}

case $what in
    sgemm) sgemm "sampled 0.01" 4096 --sample 0.01 ;;
    sgemm-cache) sgemm exhaustive 2048 --max-steps 17179869184 ;;
    reduce) reduce ;;
    bpg) bpg ;;
    all)
        sgemm "sampled 0.01" 4096 --sample 0.01
        sgemm exhaustive 2048 --max-steps 17179869184
        reduce
        bpg
        ;;
    *) echo "usage: $0 [sgemm|sgemm-cache|reduce|bpg|all]" >&2; exit 2 ;;
esac

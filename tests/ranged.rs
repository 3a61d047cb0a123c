//! Range-based `for` (C++11): over a local array and over an object with `begin()`/`end()`
//! (TensorFlow's `GpuGridRange`), counted as the loops they stand for.

use crate::common;
use common::ok;

const ONE: [u32; 3] = [1, 1, 1];

fn b(x: u32) -> [u32; 3] {
    [x, 1, 1]
}

#[test]
fn a_local_array_is_walked_in_order_by_value_and_by_reference() {
    let src = r#"
__global__ void k(float* out) {
    float a[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    for (auto& x : a) { x = x * 10.0f; }
    float s = 0.0f;
    int n = 0;
    for (float v : a) { s = s * 2.0f + v; n++; }
    out[threadIdx.x] = s + n;
}
launch k { out = zeros(4); grid = 1; block = 4; expect out == full(4, 264); }
"#;
    // By reference the elements become 10, 20, 30, 40; in order, s = ((10·2 + 20)·2 + 30)·2 + 40
    // = 260, and n = 4 elements: 264.
    ok(src, &[], ONE, b(4));
}

/// The same sum written as a range-based `for` and as the counted loop C++ defines it as.
fn array_sum(ranged: bool) -> (u64, u64, u64, u64, u64) {
    let lp = if ranged {
        "for (float v : a) { s += v; }"
    } else {
        "for (int i = 0; i < 3; ++i) { float v = a[i]; s += v; }"
    };
    let src = format!(
        "__global__ void k(const float* in, float* out) {{\n    float a[3] = {{in[0], in[1], in[2]}};\n    float s = 0.0f;\n    {lp}\n    out[threadIdx.x] = s;\n}}\nlaunch k {{ in = [1, 2, 3]; out = zeros(32); grid = 1; block = 32; expect out == full(32, 6); }}\n"
    );
    let c = ok(&src, &[], ONE, b(32)).counters;
    (
        c.warp_instr,
        c.branches,
        c.local_ld_instr,
        c.gld_instr,
        c.gst_instr,
    )
}

#[test]
fn a_range_for_over_an_array_counts_as_its_counted_loop() {
    let (ranged, counted) = (array_sum(true), array_sum(false));
    // Instructions, branches and local loads: the same loop.
    assert_eq!(ranged, counted);
    // One warp: 3 loads of `in` (every lane the same word) and one store.
    assert_eq!((ranged.3, ranged.4), (3, 1));
}

/// TensorFlow's grid-stride range (tensorflow/core/util/gpu_device_functions.h), a class
/// template whose nested iterator uses its parameter.
const GRID_RANGE: &str = r#"
template <typename T>
class GpuGridRange {
  struct Iterator {
    __device__ Iterator(T index, T delta) : index_(index), delta_(delta) {}
    __device__ T operator*() const { return index_; }
    __device__ Iterator& operator++() {
      index_ += delta_;
      return *this;
    }
    __device__ bool operator!=(const Iterator& other) const {
      bool greater = index_ > other.index_;
      bool less = index_ < other.index_;
      if (!other.delta_) {
        return less;
      }
      if (!delta_) {
        return greater;
      }
      return less || greater;
    }
   private:
    T index_;
    const T delta_;
  };
 public:
  __device__ GpuGridRange(T begin, T delta, T end)
      : begin_(begin), delta_(delta), end_(end) {}
  __device__ Iterator begin() const { return Iterator{begin_, delta_}; }
  __device__ Iterator end() const { return Iterator{end_, 0}; }
 private:
  T begin_;
  T delta_;
  T end_;
};

template <typename T>
__device__ GpuGridRange<T> GpuGridRangeX(T count) {
  return GpuGridRange<T>(blockIdx.x * blockDim.x + threadIdx.x,
                         gridDim.x * blockDim.x, count);
}
"#;

#[test]
fn an_object_range_is_walked_through_its_iterators() {
    // 2 blocks of 32 threads cover 100 elements with a stride of 64: thread t writes t and
    // t + 64 when t + 64 < 100 (t < 36), so out[i] = i + 1 everywhere.
    let src = format!(
        "{GRID_RANGE}__global__ void k(int n, float* out) {{\n    for (int i : GpuGridRangeX<int>(n)) {{ out[i] = i + 1.0f; }}\n}}\nlaunch k {{ n = 100; out = zeros(100); grid = 2; block = 32; expect out == arange(100) + 1; }}\n"
    );
    let c = ok(&src, &[], [2, 1, 1], b(32)).counters;
    // Warp 0 of block 0 (i = 0..31, then 64..95) stores twice; warp 0 of block 1 (i = 32..63,
    // then 96..99 for 4 lanes) stores twice: 4 warp stores.
    assert_eq!(c.gst_instr, 4);
}

#[test]
fn an_iterator_range_with_deduced_arguments_and_no_trip_runs_nothing() {
    // `GpuGridRangeX(n)` deduces T = int; n = 0 gives begin == end for every thread.
    let src = format!(
        "{GRID_RANGE}__global__ void k(int n, float* out) {{\n    int trips = 0;\n    for (int i : GpuGridRangeX(n)) {{ trips++; out[i] = 1.0f; }}\n    out[threadIdx.x] += trips;\n}}\nlaunch k {{ n = 0; out = zeros(32); grid = 1; block = 32; expect out == zeros(32); }}\n"
    );
    let c = ok(&src, &[], ONE, b(32)).counters;
    // Only the store after the loop: one warp store.
    assert_eq!(c.gst_instr, 1);
}

#pragma once
// KernelImpl: the host-side description of one suite kernel that the generic runner
// (kernel_runner.cpp) drives. Each family .cu file lists its kernels as KernelImpl values;
// the runner owns allocation, input generation, poisoning, grid choice and verification,
// so no kernel repeats that boilerplate.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/dtype.hpp"

namespace roofline::kernels {

enum class BufferRole {
  input,         // random data uploaded before each launch
  output,        // poisoned before each launch, checked against the reference
  intermediate,  // written and read within one launch (unfused chains); checked, not "useful"
  sink,          // written only under a condition that never holds; must stay poisoned
  accumulator,   // atomics add into it (a sum, histogram bins): zeroed, not poisoned, before each
                 // launch and each profiler replay pass; checked by the kernel's HostCheck
  in_place,      // read and written by the kernel (an optimizer's state, a segment sorted where it
                 // lies): filled with its seeded values like an input, and filled again by every
                 // restore() (before each profiler replay pass), so that each launch starts from
                 // the same values; checked by the kernel's HostCheck against the seeded values
                 // (HostArrays::initial)
};

// How an input buffer's values are made (all seeded and deterministic). `random` is
// fill_random()'s, generated on the GPU; the others are made on the host and uploaded.
enum class InputValues {
  random,
  sixteenths,   // f32 k/16, |k| <= 16: sums of up to 2^20 / (1/16) stay exact in any order
  bins_uniform, // u8 bin indices, uniform over 0..255
  bins_skewed,  // u8: 90 % of elements bin 0, the other 10 % uniform over 0..255 (bin 0 ~90.04 %)
  indices,      // i32 gather indices, each uniform over [0, the buffer's own element count)
  csr_columns,  // i32 column indices of a CSR matrix of kCsrRowNonzeros per row: each uniform
                // over [0, rows), rows = the buffer's element count / kCsrRowNonzeros
  csr_row_offsets,  // i32 CSR row offsets of kCsrRowNonzeros per row: element r is r x kCsrRowNonzeros
  bin_keys,     // i32 histogram keys, each uniform over [0, kWeightedBins)
  scatter_indices,  // i32 scatter targets, each uniform over [0, the buffer's element count /
                    // kScatterFanIn): the n / 4 elements of scatter_add_f32's output
  unit_interval,    // f32 uniform in [0, 1) on a 2^-23 grid: never negative (Adam's second moment)
  csr_warp_columns,  // i32 column indices of a CSR matrix of kCsrWarpRowNonzeros (32) per row: each
                     // uniform over [0, rows), rows = the buffer's element count / 32
  csr_warp_row_offsets,  // i32 CSR row offsets of kCsrWarpRowNonzeros per row: element r is 32 r
};

// Nonzeros per row of the patterns suite's sparse matrix (spmv_csr_row): rows = n / 8.
inline constexpr std::int64_t kCsrRowNonzeros = 8;
// Bins of the weighted histogram (histogram_weighted_f32): 1024 floats.
inline constexpr std::int64_t kWeightedBins = 1024;
// Elements of n per target of the scatter (scatter_add_f32): n / 4 targets, 4 adds each on average.
inline constexpr std::int64_t kScatterFanIn = 4;
// Nonzeros per row of the warp-per-row CSR matrix (spmv_csr_warp_f32): one per lane, rows = n / 32.
inline constexpr std::int64_t kCsrWarpRowNonzeros = 32;

struct BufferLayout {
  std::string_view name;
  DType type = DType::f32;
  BufferRole role = BufferRole::input;
  // Element i of the logical range lives at index i * spread; the buffer holds n * spread
  // elements (8 for one float per 32-byte sector). Sinks hold `spread` elements, whatever n.
  std::int64_t spread = 1;
  // Elements whatever n (histogram bins, a sum, layernorm's gamma); 0 = n * spread / per_n + extra.
  std::int64_t elements = 0;
  InputValues values = InputValues::random;
  // One element per `per_n` logical elements, plus `extra` (a CSR matrix of 8 nonzeros per
  // row: n / 8 entries of x and y, n / 8 + 1 row offsets; a GEMV's n / 1024 row results).
  // n must be a multiple of per_n (prepare() checks).
  std::int64_t per_n = 1;
  std::int64_t extra = 0;
};

// How n maps onto the kernel's problem: n elements in a row (flat), a sqrt(n) x sqrt(n) matrix
// (square), rows of KernelImpl::cols columns (rows; kRowCols unless the kernel says), or a
// cbrt(n) x cbrt(n) x cbrt(n) grid (cube: stencil7_3d_f32, whose spec is 1-D: the format has
// no 3-D shape).
enum class ProblemShape { flat, square, rows, cube };
inline constexpr std::int64_t kRowCols = 1024;

// What a launch function receives: device pointers in layout order and the grid the runner
// chose with models/grid.hpp (0 for library calls that choose their own).
struct LaunchContext {
  void* const* buffers = nullptr;
  std::int64_t n = 0;
  std::int64_t extent = 0;  // largest element index + 1 over all buffers (index width choice)
  int block = 256;
  std::int64_t grid = 0;
  cudaStream_t stream = nullptr;
};

// Per logical element: the values of the input buffers (layout order, as float) in, the
// exact results of the output and intermediate buffers (layout order) out. The runner rounds
// them to each buffer's type.
using ReferenceFn = void (*)(const float* inputs, float* outputs);

// The same reference as an operation the GPU verifier (device_values.cu) evaluates per element,
// in float with IEEE rounding and no contraction, exactly like the CPU functions:
//   copy: out0 = in0            add: out0 = in0 + in1        write_value: out0 = kWriteValue
//   mul_then_mul: out0 = in0 * in1, out1 = out0 * in2 (an unfused chain with its intermediate)
//   mul3: out0 = (in0 * in1) * in2                          none: no outputs
// The GPU tests check each kernel's operation against its ReferenceFn (both verifiers agree).
enum class ReferenceOp : int { none, copy, add, write_value, mul_then_mul, mul3 };

// Whole-array verification for kernels whose outputs are not element-wise functions of their
// inputs (reductions, transposes, stencils, histograms, GEMM, row kernels): host copies of
// every buffer in layout order, inputs as generated, outputs as the kernel left them.
// In-place buffers (BufferRole::in_place) come as the kernel left them in `buffers` and with
// their seeded values in `initial` (empty for every other buffer).
struct HostArrays {
  std::span<const std::vector<std::byte>> buffers;
  std::int64_t n = 0;
  std::span<const std::vector<std::byte>> initial = {};
  template <typename T>
  std::span<const T> as(std::size_t k) const {
    const auto& b = buffers[k];
    return {reinterpret_cast<const T*>(b.data()), b.size() / sizeof(T)};
  }
  template <typename T>
  std::span<const T> initial_as(std::size_t k) const {
    if (k >= initial.size()) return {};
    const auto& b = initial[k];
    return {reinterpret_cast<const T*>(b.data()), b.size() / sizeof(T)};
  }
};

struct HostCheckResult {
  std::int64_t mismatches = 0;
  // The element whose error is the largest multiple of its tolerance (-1: none checked).
  std::int64_t worst_index = -1;
  double worst_error = 0;  // |got - expected| there
  std::string detail;      // "out[12]: got 3, expected 4 (tolerance 0)" for the worst element
  bool ok() const { return mismatches == 0; }
};
using HostCheck = HostCheckResult (*)(const HostArrays&);

struct KernelImpl {
  std::string_view name;
  std::span<const BufferLayout> buffers;
  // The first pass's __global__ function for this extent (occupancy query); nullptr when a
  // library launches its own kernel (cudaMemcpyAsync, CUB).
  const void* (*device_function)(std::int64_t extent) = nullptr;
  void (*launch)(const LaunchContext&) = nullptr;
  int kernel_launches = 1;
  ReferenceFn reference = nullptr;
  ReferenceOp device_reference = ReferenceOp::none;
  // Set for whole-array kernels instead of reference/device_reference (checked on the host).
  HostCheck host_check = nullptr;
  ProblemShape shape = ProblemShape::flat;
  int fixed_block = 0;  // the only block size the kernel supports; 0 = any multiple of 32
  std::int64_t cols = kRowCols;  // ProblemShape::rows: elements per row (the spec's `cols`)
};

// The families (one .cu file each).
std::span<const KernelImpl> elementwise_add_impls();
std::span<const KernelImpl> add_technique_impls();
std::span<const KernelImpl> memory_probe_impls();
std::span<const KernelImpl> hadamard_impls();
std::span<const KernelImpl> reference_impls();
std::span<const KernelImpl> patterns_reduce_impls();
std::span<const KernelImpl> patterns_transpose_impls();
std::span<const KernelImpl> patterns_stencil_impls();
std::span<const KernelImpl> patterns_histogram_impls();
std::span<const KernelImpl> patterns_sgemm_impls();
std::span<const KernelImpl> patterns_rows_impls();
std::span<const KernelImpl> patterns_sparse_impls();
std::span<const KernelImpl> patterns_vector_impls();
std::span<const KernelImpl> patterns_scan_impls();
std::span<const KernelImpl> patterns_conv_impls();
std::span<const KernelImpl> patterns_scatter_impls();
std::span<const KernelImpl> patterns_embed_impls();
std::span<const KernelImpl> patterns_stencil3d_impls();
std::span<const KernelImpl> patterns_gelu_impls();
std::span<const KernelImpl> patterns4_adam_impls();
std::span<const KernelImpl> patterns4_colsum_impls();
std::span<const KernelImpl> patterns4_upsample_impls();
std::span<const KernelImpl> patterns4_sort_impls();
std::span<const KernelImpl> patterns4_spmv_impls();
std::span<const KernelImpl> patterns5_pool_impls();
std::span<const KernelImpl> patterns5_saxpy_impls();
std::span<const KernelImpl> patterns5_blur_impls();
std::span<const KernelImpl> patterns6_rope_impls();
std::span<const KernelImpl> patterns6_permute_impls();
std::span<const KernelImpl> patterns6_dequant_impls();
std::span<const KernelImpl> patterns6_bag_impls();
std::span<const KernelImpl> patterns7_swiglu_impls();
std::span<const KernelImpl> patterns7_rmsnorm_impls();
std::span<const KernelImpl> patterns7_crossentropy_impls();
std::span<const KernelImpl> patterns7_colmean_impls();
std::span<const KernelImpl> patterns8_biasrelu_impls();
std::span<const KernelImpl> patterns8_bilinear_impls();
std::span<const KernelImpl> patterns8_argmax_impls();
std::span<const KernelImpl> patterns8_im2col_impls();
std::span<const KernelImpl> patterns9_poly_impls();
std::span<const KernelImpl> patterns9_normalize_impls();

// Every suite kernel, in suite order.
const std::vector<KernelImpl>& all_kernel_impls();
const KernelImpl* find_kernel_impl(std::string_view name);

// Buffer sizes without a device (also what prepare() allocates).
std::int64_t buffer_elements(const BufferLayout& b, std::int64_t n);
std::int64_t buffer_bytes(const BufferLayout& b, std::int64_t n);
// What `bytes` takes when memory comes in whole units (at least one).
std::int64_t allocated_bytes(std::int64_t bytes, std::int64_t unit);
// Every buffer's bytes, each rounded up to whole allocation units (prepare()'s 2 MiB blocks).
std::int64_t total_device_bytes(const KernelImpl& k, std::int64_t n, std::int64_t unit = 1);
// Every input read once and every output written once: n logical elements each (n / per_n +
// extra where the buffer says so), or the buffer's fixed element count; an in-place buffer is
// read once and written once (twice its bytes).
std::int64_t useful_bytes(const KernelImpl& k, std::int64_t n);

// Value written by the write-only probes; sentinel the read-only probe compares against.
inline constexpr float kWriteValue = 0.75f;
inline constexpr float kReadOnlySentinel = 1.0e30f;

}  // namespace roofline::kernels

// Patterns suite (fourth held-out batch), CSR sparse matrix times vector with one warp per row
// (the "CSR-vector" kernel): n nonzeros, exactly 32 per row (rows = n / 32), columns uniform over
// [0, rows), x and y of rows elements. The warp reads its row's bounds, lane l takes nonzeros
// begin + l, begin + l + 32, ... (one each here: col and val loads coalesced across the warp),
// gathers x[col], and the lanes' sums meet in a __shfl_down_sync tree; lane 0 stores y[row].
// Spec: patterns4_spmv.toml.
#include <algorithm>
#include <array>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void spmv_csr_warp_kernel(const int* __restrict__ row_ptr, const int* __restrict__ col,
                                     const float* __restrict__ val, const float* __restrict__ x,
                                     float* __restrict__ y, I n) {
  const I rows = n / static_cast<I>(kCsrWarpRowNonzeros);
  const I row = global_thread_index<I>() / 32;
  if (row >= rows) return;  // whole warps: blockDim is a multiple of 32
  const unsigned lane = threadIdx.x % 32;
  const I begin = row_ptr[row], end = row_ptr[row + 1];
  float s = 0.0f;
  for (I j = begin + static_cast<I>(lane); j < end; j += 32) s = fmaf(val[j], x[col[j]], s);
  s = patterns::warp_reduce(s, patterns::Sum{});
  if (lane == 0) y[row] = s;
}

namespace {

// val and x are multiples of 1/16 of at most 1 (InputValues::sixteenths): each product is a
// multiple of 1/256 of at most 1, and a row's 32 of them sum exactly in f32 in any order.
HostCheckResult check_spmv_warp(const HostArrays& a) {
  const auto row_ptr = a.as<std::int32_t>(0), col = a.as<std::int32_t>(1);
  const auto val = a.as<float>(2), x = a.as<float>(3), y = a.as<float>(4);
  return patterns::compare_all("y", a.n / kCsrWarpRowNonzeros, [&](std::int64_t r, patterns::Comparison& cmp) {
    cmp.add(r, y[static_cast<std::size_t>(r)], patterns::spmv_row(row_ptr, col, val, x, r), 0.0);
  }, kCsrWarpRowNonzeros);
}

// row_ptr: rows + 1 offsets (32 r); col and val: n nonzeros; x and y: rows = n / 32.
constexpr std::array<BufferLayout, 5> kLayout{{
    {"row_ptr", DType::i32, BufferRole::input, 1, 0, InputValues::csr_warp_row_offsets, kCsrWarpRowNonzeros, 1},
    {"col", DType::i32, BufferRole::input, 1, 0, InputValues::csr_warp_columns},
    {"val", DType::f32, BufferRole::input, 1, 0, InputValues::sixteenths},
    {"x", DType::f32, BufferRole::input, 1, 0, InputValues::sixteenths, kCsrWarpRowNonzeros},
    {"y", DType::f32, BufferRole::output, 1, 0, InputValues::random, kCsrWarpRowNonzeros},
}};

ROOFLINE_KERNEL_SELECTOR(SpmvWarp, spmv_csr_warp_kernel);

// One warp per row: n / 32 rows x 32 threads = n threads, whatever the runner chose.
void launch_spmv_warp(const LaunchContext& c) {
  LaunchContext rows = c;
  rows.grid = std::max<std::int64_t>((c.n + c.block - 1) / c.block, 1);
  launch_selected<SpmvWarp>(rows);
}

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("spmv_csr_warp_f32", kLayout, &device_function_of<SpmvWarp>, &launch_spmv_warp,
                                 check_spmv_warp, ProblemShape::rows, 0, kCsrWarpRowNonzeros),
}};

}  // namespace

std::span<const KernelImpl> patterns4_spmv_impls() { return kImpls; }

}  // namespace roofline::kernels

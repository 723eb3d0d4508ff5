// Patterns suite (fourth held-out batch), column sums of a rows x 4096 row-major matrix (rows =
// n / 4096): one thread per column (4096 threads, whatever n), each walking down its column,
// one row per trip; on each row the warp's 32 lanes read 32 consecutive floats (coalesced). One
// store per column at the end. Spec: patterns4_colsum.toml.
#include <algorithm>
#include <array>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void column_sum_kernel(const float* __restrict__ a, float* __restrict__ out, I n) {
  constexpr I cols = static_cast<I>(patterns::kColumnSumCols);
  const I c = global_thread_index<I>();
  if (c >= cols) return;
  const I rows = n / cols;
  float s = 0.0f;
  for (I r = 0; r < rows; ++r) s += a[r * cols + c];
  out[c] = s;
}

namespace {

// The inputs are multiples of 1/16 of at most 1 in magnitude (InputValues::sixteenths): every
// partial sum of a column is a multiple of 1/16 of at most `rows` in magnitude, exact in f32
// while 16 rows <= 2^24 (rows <= 2^20, n <= 2^32; 2^28 has 65536 rows).
HostCheckResult check_column_sum(const HostArrays& a) {
  const auto expected = patterns::column_sums(a.as<float>(0), patterns::kColumnSumCols);
  const auto got = a.as<float>(1);
  patterns::Comparison c("out");
  for (std::size_t k = 0; k < expected.size(); ++k) c.add(static_cast<std::int64_t>(k), got[k], expected[k], 0.0);
  return c.result();
}

constexpr std::array<BufferLayout, 2> kLayout{{
    {"a", DType::f32, BufferRole::input, 1, 0, InputValues::sixteenths},
    {"out", DType::f32, BufferRole::output, 1, patterns::kColumnSumCols},
}};

ROOFLINE_KERNEL_SELECTOR(ColumnSum, column_sum_kernel);

// One thread per column: 4096 threads, ceil(4096 / block) blocks, whatever n and the runner's grid.
void launch_column_sum(const LaunchContext& c) {
  LaunchContext columns = c;
  columns.grid = std::max<std::int64_t>((patterns::kColumnSumCols + c.block - 1) / c.block, 1);
  launch_selected<ColumnSum>(columns);
}

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("column_sum_f32", kLayout, &device_function_of<ColumnSum>, &launch_column_sum,
                                 check_column_sum, ProblemShape::rows, 0, patterns::kColumnSumCols),
}};

}  // namespace

std::span<const KernelImpl> patterns4_colsum_impls() { return kImpls; }

}  // namespace roofline::kernels

// Patterns suite, products reduced by warp shuffles: a dense matrix-vector product with one
// warp per row (rows of kRowCols = 1024 floats), and a dot product of two arrays, grid-stride
// over one wave of blocks, with one global atomicAdd per warp. Specs: patterns_vector.toml.
#include <algorithm>
#include <array>
#include <cmath>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

// y = A x, A rows x 1024 row-major (rows = n / 1024), x 1024 floats. Warp w of the grid takes
// row w: lane l reads columns l, l + 32, ..., l + 992 (each access coalesced across the warp),
// the lanes' partial sums meet by __shfl_down_sync and lane 0 stores y[row].
template <typename I>
__global__ void gemv_warp_row_kernel(const float* __restrict__ a, const float* __restrict__ x,
                                     float* __restrict__ y, I n) {
  const I rows = n / static_cast<I>(kRowCols);
  const I row = global_thread_index<I>() / 32;
  if (row >= rows) return;  // whole warps: blockDim is a multiple of 32
  const unsigned lane = threadIdx.x % 32;
  const float* r = a + row * static_cast<I>(kRowCols);
  float s = 0.0f;
  for (unsigned c = lane; c < kRowCols; c += 32) s = fmaf(r[c], x[c], s);
  s = patterns::warp_reduce(s, patterns::Sum{});
  if (lane == 0) y[row] = s;
}

// sum of a[i] b[i]: grid-stride per thread, __shfl_down_sync tree per warp, one global
// atomicAdd per warp into the accumulator.
template <typename I>
__global__ void dot_gridstride_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ sum, I n) {
  float s = 0.0f;
  for (I i = global_thread_index<I>(); i < n; i += grid_threads<I>()) s = fmaf(a[i], b[i], s);
  s = patterns::warp_reduce(s, patterns::Sum{});
  if (threadIdx.x % 32 == 0) atomicAdd(sum, s);
}

namespace {

// Rows in double. Each lane adds 32 products in order, then a 5-level tree: allowance of
// 32 + 5 + 1 roundings on the row's scale (sum |A x|).
HostCheckResult check_gemv(const HostArrays& a) {
  const auto m = a.as<float>(0), x = a.as<float>(1), y = a.as<float>(2);
  return patterns::compare_all("y", a.n / kRowCols, [&](std::int64_t r, patterns::Comparison& cmp) {
    double magnitude = 0;
    const double expected = patterns::gemv_row(m, x, r, &magnitude);
    cmp.add(r, y[static_cast<std::size_t>(r)], expected, (kRowCols / 32 + 6) * patterns::kFloatEpsilon * magnitude);
  }, kRowCols);
}

// The inputs are multiples of 1/16 (InputValues::sixteenths), their products multiples of
// 1/256 of at most 1: every partial sum is exact while it stays below 2^16, as the suite's sums
// (a random walk of about 0.35 sqrt(n)) do, whatever order the atomics land in. As for the
// reductions, the allowance (on the result's own scale) only covers a partial sum that left
// the exact range.
HostCheckResult check_dot(const HostArrays& a) {
  const double exact = patterns::dot(a.as<float>(0), a.as<float>(1));
  const float got = a.as<float>(2)[0];
  patterns::Comparison c("sum");
  c.add(0, got, exact, patterns::float_sum_tolerance(a.n, std::max(1.0, std::fabs(exact))));
  return c.result();
}

// x: one row's 1024 floats; y: one float per row.
constexpr std::array<BufferLayout, 3> kGemv{{
    {"a", DType::f32, BufferRole::input},
    {"x", DType::f32, BufferRole::input, 1, kRowCols},
    {"y", DType::f32, BufferRole::output, 1, 0, InputValues::random, kRowCols},
}};
constexpr std::array<BufferLayout, 3> kDot{{
    {"a", DType::f32, BufferRole::input, 1, 0, InputValues::sixteenths},
    {"b", DType::f32, BufferRole::input, 1, 0, InputValues::sixteenths},
    {"sum", DType::f32, BufferRole::accumulator, 1, 1},
}};

ROOFLINE_KERNEL_SELECTOR(Gemv, gemv_warp_row_kernel);
ROOFLINE_KERNEL_SELECTOR(Dot, dot_gridstride_kernel);

const std::array<KernelImpl, 2> kImpls{{
    patterns::whole_array_kernel("gemv_warp_row", kGemv, &device_function_of<Gemv>,
                                 &patterns::launch_warp_per_row<Gemv, kRowCols>, check_gemv, ProblemShape::rows),
    patterns::whole_array_kernel("dot_gridstride", kDot, &device_function_of<Dot>, &launch_selected<Dot>,
                                 check_dot),
}};

}  // namespace

std::span<const KernelImpl> patterns_vector_impls() { return kImpls; }

}  // namespace roofline::kernels

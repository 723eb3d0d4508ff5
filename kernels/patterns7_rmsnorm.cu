// Patterns suite (seventh held-out batch), RMS normalisation over rows of 4096 floats:
// out[r][c] = x[r][c] x rsqrt(mean(x[r]^2) + 1e-6) x w[c], one block per row. Each thread
// walks its columns (c = threadIdx.x, c + blockDim.x, ...: 16 at 256 threads) summing squares,
// the block reduces them (warp shuffles, shared memory), then the same walk re-reads the row and
// stores it normalised. Spec: patterns7_rmsnorm.toml.
#include <array>
#include <cmath>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void rmsnorm_row_kernel(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ out,
                                   I /*n: gridDim.x rows*/) {
  constexpr unsigned kCols = patterns::kRmsNormCols;
  const I offset = static_cast<I>(blockIdx.x) * static_cast<I>(kCols);
  const float* row = x + offset;
  float squares = 0.0f;
  for (unsigned c = threadIdx.x; c < kCols; c += blockDim.x) squares = fmaf(row[c], row[c], squares);
  const float mean_square = patterns::block_reduce(squares, patterns::Sum{}, 0.0f) / kCols;
  const float scale = rsqrtf(mean_square + patterns::kRmsNormEpsilon);
  for (unsigned c = threadIdx.x; c < kCols; c += blockDim.x) out[offset + c] = row[c] * scale * w[c];
}

namespace {

// Rows in double. All of an output's error is relative and shared by its row: the sum of
// squares (positive terms, so its rounding is relative: 4 x the tree-order bound of a row, as
// layernorm_row allows) halved by the root, rsqrtf within 2 ulp, two products.
HostCheckResult check_rmsnorm(const HostArrays& a) {
  const auto x = a.as<float>(0), w = a.as<float>(1), out = a.as<float>(2);
  const double relative = 2 * patterns::float_sum_tolerance(patterns::kRmsNormCols, 1.0) + 8 * patterns::kFloatEpsilon;
  return patterns::compare_rows(
      "out", x, out, patterns::kRmsNormCols,
      [&](std::span<const float> row, std::span<double> expected) { patterns::rmsnorm_row(row, w, expected); },
      [&](std::size_t, double e) { return relative * std::fabs(e); });
}

// x and out: n floats (rows of 4096); w: 4096, read by every row.
constexpr std::array<BufferLayout, 3> kLayout{{
    {"x", DType::f32, BufferRole::input},
    {"w", DType::f32, BufferRole::input, 1, patterns::kRmsNormCols},
    {"out", DType::f32, BufferRole::output},
}};

ROOFLINE_KERNEL_SELECTOR(RmsNorm, rmsnorm_row_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("rmsnorm_row_f32", kLayout, &device_function_of<RmsNorm>,
                                 &patterns::launch_block_per_row<RmsNorm, patterns::kRmsNormCols>, check_rmsnorm,
                                 ProblemShape::rows, 0, patterns::kRmsNormCols),
}};

}  // namespace

std::span<const KernelImpl> patterns7_rmsnorm_impls() { return kImpls; }

}  // namespace roofline::kernels

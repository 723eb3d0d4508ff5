// Patterns suite, row kernels on rows of kRowCols (1024) floats, one block per row: softmax
// (row max, sum of exponentials, normalise) and layer normalisation (mean and variance, then
// (x - mean) / sqrt(var + eps) * gamma + beta). Block reductions through warp shuffles and
// shared memory; the row is read again per phase (from L1: 4 KiB per row).
// Specs: patterns_rows.toml.
#include <array>
#include <cmath>
#include <vector>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void softmax_row_kernel(const float* __restrict__ x, float* __restrict__ out, I /*n: gridDim.x rows*/) {
  const I offset = static_cast<I>(blockIdx.x) * kRowCols;
  const float* row = x + offset;
  float m = -INFINITY;
  for (unsigned c = threadIdx.x; c < kRowCols; c += blockDim.x) m = fmaxf(m, row[c]);
  m = patterns::block_reduce(m, patterns::Max{}, -INFINITY);
  float s = 0.0f;
  for (unsigned c = threadIdx.x; c < kRowCols; c += blockDim.x) s += expf(row[c] - m);
  s = patterns::block_reduce(s, patterns::Sum{}, 0.0f);
  for (unsigned c = threadIdx.x; c < kRowCols; c += blockDim.x) out[offset + c] = expf(row[c] - m) / s;
}

template <typename I>
__global__ void layernorm_row_kernel(const float* __restrict__ x, const float* __restrict__ gamma,
                                     const float* __restrict__ beta, float* __restrict__ out, I /*n: gridDim.x rows*/) {
  const I offset = static_cast<I>(blockIdx.x) * kRowCols;
  const float* row = x + offset;
  float s = 0.0f, sq = 0.0f;
  for (unsigned c = threadIdx.x; c < kRowCols; c += blockDim.x) {
    s += row[c];
    sq = fmaf(row[c], row[c], sq);
  }
  const float mean = patterns::block_reduce(s, patterns::Sum{}, 0.0f) / kRowCols;
  // E[x^2] - mean^2: one pass over the row; the suite's inputs ([-1, 1), mean ~0) keep the
  // cancellation harmless.
  const float var = patterns::block_reduce(sq, patterns::Sum{}, 0.0f) / kRowCols - mean * mean;
  const float rstd = rsqrtf(var + patterns::kLayerNormEpsilon);
  for (unsigned c = threadIdx.x; c < kRowCols; c += blockDim.x)
    out[offset + c] = (row[c] - mean) * rstd * gamma[c] + beta[c];
}

namespace {

// Rows in double. The device's sums run in another order and expf/rsqrtf round (a few ulp):
// relative allowance of the tree-order bound for one row plus 8 ulp.
HostCheckResult check_softmax(const HostArrays& a) {
  const auto x = a.as<float>(0), out = a.as<float>(1);
  return patterns::compare_rows("out", x, out, kRowCols, patterns::softmax_row, [](std::size_t, double e) {
    return patterns::float_sum_tolerance(kRowCols, e) + 8 * patterns::kFloatEpsilon * e;
  });
}

// The allowance scales with each output's terms: the normalised value times gamma, beta, and
// gamma for the mean's and variance's rounding (of order the tree-order bound of one row).
HostCheckResult check_layernorm(const HostArrays& a) {
  const auto x = a.as<float>(0), gamma = a.as<float>(1), beta = a.as<float>(2), out = a.as<float>(3);
  return patterns::compare_rows(
      "out", x, out, kRowCols,
      [&](std::span<const float> row, std::span<double> expected) { patterns::layernorm_row(row, gamma, beta, expected); },
      [&](std::size_t k, double e) {
        const double scale = std::fabs(e - beta[k]) + std::fabs(beta[k]) + std::fabs(gamma[k]);
        return 4 * patterns::float_sum_tolerance(kRowCols, scale) + 8 * patterns::kFloatEpsilon * scale;
      });
}

constexpr std::array<BufferLayout, 2> kSoftmax{{{"x", DType::f32, BufferRole::input},
                                                {"out", DType::f32, BufferRole::output}}};
constexpr std::array<BufferLayout, 4> kLayerNorm{{
    {"x", DType::f32, BufferRole::input},
    {"gamma", DType::f32, BufferRole::input, 1, kRowCols},
    {"beta", DType::f32, BufferRole::input, 1, kRowCols},
    {"out", DType::f32, BufferRole::output},
}};

ROOFLINE_KERNEL_SELECTOR(Softmax, softmax_row_kernel);
ROOFLINE_KERNEL_SELECTOR(LayerNorm, layernorm_row_kernel);

const std::array<KernelImpl, 2> kImpls{{
    patterns::whole_array_kernel("softmax_row", kSoftmax, &device_function_of<Softmax>,
                                 &patterns::launch_block_per_row<Softmax, kRowCols>, check_softmax, ProblemShape::rows),
    patterns::whole_array_kernel("layernorm_row", kLayerNorm, &device_function_of<LayerNorm>,
                                 &patterns::launch_block_per_row<LayerNorm, kRowCols>, check_layernorm,
                                 ProblemShape::rows),
}};

}  // namespace

std::span<const KernelImpl> patterns_rows_impls() { return kImpls; }

}  // namespace roofline::kernels

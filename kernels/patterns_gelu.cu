// Patterns suite, bias then GELU on rows of 4096 floats: y[r][c] = gelu(x[r][c] + b[c]) with
// the erf form, 0.5 v (1 + erf(v / sqrt 2)), one element per thread. The bias (16 KiB) is read
// by every row. Spec: patterns_gelu.toml.
#include <array>
#include <cmath>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

__device__ __forceinline__ float gelu_erf(float v) { return 0.5f * v * (1.0f + erff(v * 0.70710678f)); }

template <typename I>
__global__ void bias_gelu_kernel(const float* __restrict__ x, const float* __restrict__ b, float* __restrict__ y,
                                 I n) {
  const I i = global_thread_index<I>();
  if (i < n) y[i] = gelu_erf(x[i] + b[i % static_cast<I>(patterns::kGeluCols)]);
}

namespace {

// In double from the device's sum v = x + b (exact in f32 for the suite's inputs: both on a
// 2^-23 grid in [-1, 1)). The device's erff is within 2 ulp, its argument and the products
// round: an allowance of 16 roundings on the scale |v| + |y| (at most 4e-6) covers them, and
// still tells the tanh form apart (up to 2.3e-4 off near v = -1.36).
HostCheckResult check_bias_gelu(const HostArrays& a) {
  const auto x = a.as<float>(0), b = a.as<float>(1), y = a.as<float>(2);
  return patterns::compare_all("y", a.n, [&](std::int64_t i, patterns::Comparison& cmp) {
    const auto k = static_cast<std::size_t>(i);
    const float v = x[k] + b[static_cast<std::size_t>(i % patterns::kGeluCols)];
    const double expected = patterns::gelu(v);
    cmp.add(i, y[k], expected, 16 * patterns::kFloatEpsilon * (std::fabs(v) + std::fabs(expected)));
  });
}

constexpr std::array<BufferLayout, 3> kLayout{{
    {"x", DType::f32, BufferRole::input},
    {"b", DType::f32, BufferRole::input, 1, patterns::kGeluCols},
    {"y", DType::f32, BufferRole::output},
}};

ROOFLINE_KERNEL_SELECTOR(BiasGelu, bias_gelu_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("bias_gelu_f32", kLayout, &device_function_of<BiasGelu>,
                                 &launch_selected<BiasGelu>, check_bias_gelu, ProblemShape::rows, 0,
                                 patterns::kGeluCols),
}};

}  // namespace

std::span<const KernelImpl> patterns_gelu_impls() { return kImpls; }

}  // namespace roofline::kernels

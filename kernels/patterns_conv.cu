// Patterns suite, 1-D 7-point convolution (radius 3) with constant weights (binomial 1, 6, 15,
// 20, 15, 6, 1 over 64, immediates in the code): out[i] = sum_k w[k] x[clamp(i + k)], one
// element per thread. Each input element is read by seven threads; the six neighbour reads of
// a warp fall in the lines its own centre reads (or the adjacent warp's) just brought to L1.
// Spec: patterns_conv.toml.
#include <array>
#include <cmath>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void conv1d_r3_kernel(const float* __restrict__ x, float* __restrict__ out, I n) {
  const I i = global_thread_index<I>();
  if (i >= n) return;
  const auto at = [&](I k) { return x[k < 0 ? I{0} : k >= n ? n - 1 : k]; };  // clamped at both ends
  out[i] = patterns::conv7_point(at(i - 3), at(i - 2), at(i - 1), at(i), at(i + 1), at(i + 2), at(i + 3));
}

namespace {

// The CPU computes each point by the same conv7_point: the results match bit for bit (the
// tolerance only absorbs a compiler that contracted differently).
HostCheckResult check_conv(const HostArrays& a) {
  const auto x = a.as<float>(0), out = a.as<float>(1);
  return patterns::compare_all("out", a.n, [&](std::int64_t i, patterns::Comparison& cmp) {
    const float expected = patterns::conv7_at(x, i);
    cmp.add(i, out[static_cast<std::size_t>(i)], expected, 1e-6 * std::fabs(expected));
  });
}

constexpr std::array<BufferLayout, 2> kLayout{{{"x", DType::f32, BufferRole::input},
                                               {"out", DType::f32, BufferRole::output}}};

ROOFLINE_KERNEL_SELECTOR(Conv, conv1d_r3_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("conv1d_r3", kLayout, &device_function_of<Conv>, &launch_selected<Conv>,
                                 check_conv),
}};

}  // namespace

std::span<const KernelImpl> patterns_conv_impls() { return kImpls; }

}  // namespace roofline::kernels

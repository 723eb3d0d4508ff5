// Patterns suite (fifth held-out batch), y = a x + y with x read at every other element: y[i] =
// a x[2i] + y[i], y updated in place, x holding 2n floats, a = patterns::kSaxpyA. One element per
// thread: a warp's 32 loads of x span 256 bytes, half of each sector used. Spec:
// patterns5_saxpy.toml.
#include <array>
#include <cmath>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void saxpy_stride2_kernel(const float* __restrict__ x, float* __restrict__ y, I n) {
  const I i = global_thread_index<I>();
  if (i >= n) return;
  y[i] = fmaf(patterns::kSaxpyA, x[2 * i], y[i]);
}

namespace {

// One fused multiply-add, the same on both sides: exact.
HostCheckResult check_saxpy(const HostArrays& a) {
  const auto x = a.as<float>(0), y0 = a.initial_as<float>(1), y = a.as<float>(1);
  return patterns::compare_all("y", a.n, [&](std::int64_t i, patterns::Comparison& cmp) {
    const auto k = static_cast<std::size_t>(i);
    cmp.add(i, y[k], std::fmaf(patterns::kSaxpyA, x[2 * k], y0[k]), 0.0);
  });
}

// x: 2n floats, every other one read; y: n, in place.
constexpr std::array<BufferLayout, 2> kLayout{{
    {"x", DType::f32, BufferRole::input, 2},
    {"y", DType::f32, BufferRole::in_place},
}};

ROOFLINE_KERNEL_SELECTOR(SaxpyStride2, saxpy_stride2_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("saxpy_stride2_f32", kLayout, &device_function_of<SaxpyStride2>,
                                 &launch_selected<SaxpyStride2>, check_saxpy),
}};

}  // namespace

std::span<const KernelImpl> patterns5_saxpy_impls() { return kImpls; }

}  // namespace roofline::kernels

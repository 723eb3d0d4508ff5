// Patterns suite (sixth held-out batch), int8 dequantisation with one scale per row: y[r][c] =
// scale[r] x (float) q[r][c] over rows of 4096, q int8. Four elements per thread: one 32-bit load
// of four int8 (char4), the row's scale (the same word for a block's 1024 elements), four
// conversions and products, one float4 store. Spec: patterns6_dequant.toml.
#include <array>
#include <cstdint>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

// Thread t: elements 4t .. 4t + 3, all in row 4t / 4096 (a row is 1024 threads' worth).
template <typename I>
__global__ void dequant_int8_rowscale_kernel(const std::int8_t* __restrict__ q, const float* __restrict__ scale,
                                             float* __restrict__ y, I n) {
  const I t = global_thread_index<I>();
  if (t >= n / 4) return;
  const char4 v = reinterpret_cast<const char4*>(q)[t];
  const float s = scale[t / static_cast<I>(patterns::kDequantCols / 4)];
  reinterpret_cast<float4*>(y)[t] = make_float4(s * static_cast<float>(v.x), s * static_cast<float>(v.y),
                                                s * static_cast<float>(v.z), s * static_cast<float>(v.w));
}

namespace {

// One product of exactly converted values on both sides: exact.
HostCheckResult check_dequant(const HostArrays& a) {
  const auto q = a.as<std::int8_t>(0);
  const auto scale = a.as<float>(1), y = a.as<float>(2);
  return patterns::compare_all("y", a.n, [&](std::int64_t i, patterns::Comparison& cmp) {
    cmp.add(i, y[static_cast<std::size_t>(i)], patterns::dequant_rowscale_at(q, scale, i), 0.0);
  });
}

// q: n bytes, each uniform over 0..255 (InputValues::bins_uniform), read as int8: -128..127 (the
// suite's types have no int8; u8 is its size). scale: one float per row of 4096; y: n floats.
constexpr std::array<BufferLayout, 3> kLayout{{
    {"q", DType::u8, BufferRole::input, 1, 0, InputValues::bins_uniform},
    {"scale", DType::f32, BufferRole::input, 1, 0, InputValues::random, patterns::kDequantCols},
    {"y", DType::f32, BufferRole::output},
}};

ROOFLINE_KERNEL_SELECTOR(DequantRowScale, dequant_int8_rowscale_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("dequant_int8_rowscale_f32", kLayout, &device_function_of<DequantRowScale>,
                                 &launch_selected<DequantRowScale>, check_dequant, ProblemShape::rows, 0,
                                 patterns::kDequantCols),
}};

}  // namespace

std::span<const KernelImpl> patterns6_dequant_impls() { return kImpls; }

}  // namespace roofline::kernels

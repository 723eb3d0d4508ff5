// Patterns suite (ninth held-out batch), a polynomial of each element by Horner's rule,
// p(t) = sum over k of (-1)^k t^k / (k + 1): of degree 128 in FP32, one float per thread
// (poly_horner_f32), and of degree 64 in FP16 at t = x / 8, one __half2 per thread
// (poly_horner_f16x2). Between one load and one store each element is a chain of dependent
// fused multiply-adds, 128 FFMA or 64 HFMA2 on a pair, their coefficients compile-time
// constants: the compute side of the roofline, which no other suite kernel reaches.
// Spec: patterns9_poly.toml.
#include <cuda_fp16.h>

#include <array>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void poly_horner_f32_kernel(const float* __restrict__ x, float* __restrict__ y, I n) {
  const I i = global_thread_index<I>();
  if (i >= n) return;
  y[i] = patterns::poly_f32_point(x[i]);
}

// acc t + c_K, then on down to c_0, on both halves of a pair.
template <int K>
__device__ __forceinline__ __half2 horner_f16x2(__half2 acc, __half2 t) {
  if constexpr (K < 0) {
    return acc;
  } else {
    constexpr float c = patterns::poly_coefficient(K);
    return horner_f16x2<K - 1>(__hfma2(acc, t, __float2half2_rn(c)), t);
  }
}

__device__ __forceinline__ __half2 poly_f16x2(__half2 x) {
  const __half2 t = __hmul2(x, __float2half2_rn(patterns::kPolyF16Scale));
  return horner_f16x2<patterns::kPolyF16Degree - 1>(
      __float2half2_rn(patterns::poly_coefficient(patterns::kPolyF16Degree)), t);
}

// Thread t: halves 2t and 2t + 1 (an odd n's last half alone).
template <typename I>
__global__ void poly_horner_f16x2_kernel(const __half* __restrict__ x, __half* __restrict__ y, I n) {
  const I i = 2 * global_thread_index<I>();
  if (i + 1 < n) {
    *reinterpret_cast<__half2*>(y + i) = poly_f16x2(*reinterpret_cast<const __half2*>(x + i));
  } else if (i < n) {
    y[i] = __low2half(poly_f16x2(__half2half2(x[i])));
  }
}

namespace {

// Both are exact: fmaf and HFMA2 round once per step, as the references do.
HostCheckResult check_poly_f32(const HostArrays& a) {
  const auto x = a.as<float>(0), y = a.as<float>(1);
  return patterns::compare_all("y", a.n, [&](std::int64_t i, patterns::Comparison& cmp) {
    const auto k = static_cast<std::size_t>(i);
    cmp.add(i, y[k], patterns::poly_f32_point(x[k]), 0.0);
  });
}

HostCheckResult check_poly_f16(const HostArrays& a) {
  const auto x = a.as<std::byte>(0), y = a.as<std::byte>(1);
  const auto half_at = [](std::span<const std::byte> buffer, std::int64_t i) {
    return decode_value(DType::f16, buffer.data() + 2 * i);
  };
  return patterns::compare_all("y", a.n, [&](std::int64_t i, patterns::Comparison& cmp) {
    cmp.add(i, half_at(y, i), patterns::poly_f16_at(half_at(x, i)), 0.0);
  });
}

constexpr std::array<BufferLayout, 2> kF32Layout{{
    {"x", DType::f32, BufferRole::input},
    {"y", DType::f32, BufferRole::output},
}};
constexpr std::array<BufferLayout, 2> kF16Layout{{
    {"x", DType::f16, BufferRole::input},
    {"y", DType::f16, BufferRole::output},
}};

ROOFLINE_KERNEL_SELECTOR(PolyF32, poly_horner_f32_kernel);
ROOFLINE_KERNEL_SELECTOR(PolyF16x2, poly_horner_f16x2_kernel);

const std::array<KernelImpl, 2> kImpls{{
    patterns::whole_array_kernel("poly_horner_f32", kF32Layout, &device_function_of<PolyF32>,
                                 &launch_selected<PolyF32>, check_poly_f32),
    patterns::whole_array_kernel("poly_horner_f16x2", kF16Layout, &device_function_of<PolyF16x2>,
                                 &launch_selected<PolyF16x2>, check_poly_f16),
}};

}  // namespace

std::span<const KernelImpl> patterns9_poly_impls() { return kImpls; }

}  // namespace roofline::kernels

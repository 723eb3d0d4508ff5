// Elementwise add C = A + B, the versions of a published optimisation blog experiment on an
// RTX 5090: scalar FP32 to float4, FP16 scalar, half2, eight halves per thread as four half2
// accesses or one 128-bit access; BF16 x8; and the scalar FP8 (E4M3) add of a memory-bandwidth
// blog experiment on an RTX 4060. Specs: elementwise_add.toml.
//
// Every vectorized kernel takes the wide path when the whole vector lies inside [0, n) and
// finishes the last partial vector element by element, so any n is handled.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <array>

#include "kernels/launch_helpers.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void add_f32_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, I n) {
  const I i = global_thread_index<I>();
  if (i < n) c[i] = a[i] + b[i];
}

template <typename I>
__global__ void add_f32x4_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                 I n) {
  const I i = 4 * global_thread_index<I>();
  if (i + 3 < n) {
    const float4 x = *reinterpret_cast<const float4*>(a + i);
    const float4 y = *reinterpret_cast<const float4*>(b + i);
    *reinterpret_cast<float4*>(c + i) = add4(x, y);
  } else {
#pragma unroll 1
    for (I k = i; k < n; ++k) c[k] = a[k] + b[k];
  }
}

template <typename I>
__global__ void add_f16_kernel(const __half* __restrict__ a, const __half* __restrict__ b, __half* __restrict__ c,
                               I n) {
  const I i = global_thread_index<I>();
  if (i < n) c[i] = __hadd(a[i], b[i]);
}

template <typename I>
__global__ void add_f16x2_kernel(const __half* __restrict__ a, const __half* __restrict__ b, __half* __restrict__ c,
                                 I n) {
  const I i = 2 * global_thread_index<I>();
  if (i + 1 < n) {
    *reinterpret_cast<__half2*>(c + i) =
        __hadd2(*reinterpret_cast<const __half2*>(a + i), *reinterpret_cast<const __half2*>(b + i));
  } else if (i < n) {
    c[i] = __hadd(a[i], b[i]);
  }
}

// Eight halves per thread through four separate 32-bit half2 loads of each input.
template <typename I>
__global__ void add_f16x8_unroll_kernel(const __half* __restrict__ a, const __half* __restrict__ b,
                                        __half* __restrict__ c, I n) {
  const I i = 8 * global_thread_index<I>();
  if (i + 7 < n) {
    const __half2* a2 = reinterpret_cast<const __half2*>(a + i);
    const __half2* b2 = reinterpret_cast<const __half2*>(b + i);
    __half2* c2 = reinterpret_cast<__half2*>(c + i);
    const __half2 x0 = a2[0], x1 = a2[1], x2 = a2[2], x3 = a2[3];
    const __half2 y0 = b2[0], y1 = b2[1], y2 = b2[2], y3 = b2[3];
    c2[0] = __hadd2(x0, y0);
    c2[1] = __hadd2(x1, y1);
    c2[2] = __hadd2(x2, y2);
    c2[3] = __hadd2(x3, y3);
  } else {
#pragma unroll 1
    for (I k = i; k < n; ++k) c[k] = __hadd(a[k], b[k]);
  }
}

// Eight 16-bit values per thread through one 128-bit load of each input and one 128-bit store.
// T2 is the packed pair type (__half2 or __nv_bfloat162).
template <typename T, typename T2, typename I>
__device__ __forceinline__ void add_x8_pack(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c,
                                            I n) {
  const I i = 8 * global_thread_index<I>();
  if (i + 7 < n) {
    const uint4 xa = *reinterpret_cast<const uint4*>(a + i);
    const uint4 xb = *reinterpret_cast<const uint4*>(b + i);
    const T2* pa = reinterpret_cast<const T2*>(&xa);
    const T2* pb = reinterpret_cast<const T2*>(&xb);
    uint4 out;
    T2* pc = reinterpret_cast<T2*>(&out);
#pragma unroll
    for (int k = 0; k < 4; ++k) pc[k] = __hadd2(pa[k], pb[k]);
    *reinterpret_cast<uint4*>(c + i) = out;
  } else {
#pragma unroll 1
    for (I k = i; k < n; ++k) c[k] = __hadd(a[k], b[k]);
  }
}

template <typename I>
__global__ void add_f16x8_pack_kernel(const __half* __restrict__ a, const __half* __restrict__ b,
                                      __half* __restrict__ c, I n) {
  add_x8_pack<__half, __half2>(a, b, c, n);
}

template <typename I>
__global__ void add_bf16x8_kernel(const __nv_bfloat16* __restrict__ a, const __nv_bfloat16* __restrict__ b,
                                  __nv_bfloat16* __restrict__ c, I n) {
  add_x8_pack<__nv_bfloat16, __nv_bfloat162>(a, b, c, n);
}

// One FP8 value per thread; the sum is computed in FP32 and rounded back (RN, saturating).
template <typename I>
__global__ void add_fp8_e4m3_kernel(const __nv_fp8_e4m3* __restrict__ a, const __nv_fp8_e4m3* __restrict__ b,
                                    __nv_fp8_e4m3* __restrict__ c, I n) {
  const I i = global_thread_index<I>();
  if (i < n) c[i] = __nv_fp8_e4m3(static_cast<float>(a[i]) + static_cast<float>(b[i]));
}

namespace {

constexpr auto kF32 = binary_layout(DType::f32);
constexpr auto kF16 = binary_layout(DType::f16);
constexpr auto kBF16 = binary_layout(DType::bf16);
constexpr auto kFP8 = binary_layout(DType::fp8_e4m3);

ROOFLINE_KERNEL_SELECTOR(AddF32, add_f32_kernel);
ROOFLINE_KERNEL_SELECTOR(AddF32x4, add_f32x4_kernel);
ROOFLINE_KERNEL_SELECTOR(AddF16, add_f16_kernel);
ROOFLINE_KERNEL_SELECTOR(AddF16x2, add_f16x2_kernel);
ROOFLINE_KERNEL_SELECTOR(AddF16x8Unroll, add_f16x8_unroll_kernel);
ROOFLINE_KERNEL_SELECTOR(AddF16x8Pack, add_f16x8_pack_kernel);
ROOFLINE_KERNEL_SELECTOR(AddBF16x8, add_bf16x8_kernel);
ROOFLINE_KERNEL_SELECTOR(AddFP8, add_fp8_e4m3_kernel);

const std::array<KernelImpl, 8> kImpls{{
    single_pass<AddF32>("add_f32", kF32, add_reference, ReferenceOp::add),
    single_pass<AddF32x4>("add_f32x4", kF32, add_reference, ReferenceOp::add),
    single_pass<AddF16>("add_f16", kF16, add_reference, ReferenceOp::add),
    single_pass<AddF16x2>("add_f16x2", kF16, add_reference, ReferenceOp::add),
    single_pass<AddF16x8Unroll>("add_f16x8_unroll", kF16, add_reference, ReferenceOp::add),
    single_pass<AddF16x8Pack>("add_f16x8_pack", kF16, add_reference, ReferenceOp::add),
    single_pass<AddBF16x8>("add_bf16x8", kBF16, add_reference, ReferenceOp::add),
    single_pass<AddFP8>("add_fp8_e4m3", kFP8, add_reference, ReferenceOp::add),
}};

}  // namespace

std::span<const KernelImpl> elementwise_add_impls() { return kImpls; }

}  // namespace roofline::kernels

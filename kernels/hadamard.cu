// Three-matrix Hadamard product out = a * b * c, from a published kernel-fusion blog
// experiment on an RTX 4090: two launches of a two-input
// multiply through an intermediate t, one fused scalar kernel, and the fused float4 kernel.
// Specs: hadamard.toml.
#include <array>

#include "kernels/launch_helpers.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void hadamard_mul2_kernel(const float* __restrict__ x, const float* __restrict__ y,
                                     float* __restrict__ out, I n) {
  const I i = global_thread_index<I>();
  if (i < n) out[i] = x[i] * y[i];
}

template <typename I>
__global__ void hadamard3_fused_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                       const float* __restrict__ c, float* __restrict__ out, I n) {
  const I i = global_thread_index<I>();
  if (i < n) out[i] = a[i] * b[i] * c[i];
}

template <typename I>
__global__ void hadamard3_fused_f32x4_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                             const float* __restrict__ c, float* __restrict__ out, I n) {
  const I i = 4 * global_thread_index<I>();
  if (i + 3 < n) {
    const float4 x = *reinterpret_cast<const float4*>(a + i);
    const float4 y = *reinterpret_cast<const float4*>(b + i);
    const float4 z = *reinterpret_cast<const float4*>(c + i);
    *reinterpret_cast<float4*>(out + i) = mul4(mul4(x, y), z);
  } else {
#pragma unroll 1
    for (I k = i; k < n; ++k) out[k] = a[k] * b[k] * c[k];
  }
}

namespace {

// t = a * b rounded to float, then out = t * c: the same two roundings in every variant.
void hadamard_unfused_reference(const float* in, float* out) {
  out[0] = in[0] * in[1];
  out[1] = out[0] * in[2];
}
void hadamard_fused_reference(const float* in, float* out) {
  const float t = in[0] * in[1];
  out[0] = t * in[2];
}

constexpr std::array<BufferLayout, 5> kUnfused{{{"a", DType::f32, BufferRole::input},
                                                {"b", DType::f32, BufferRole::input},
                                                {"c", DType::f32, BufferRole::input},
                                                {"t", DType::f32, BufferRole::intermediate},
                                                {"out", DType::f32, BufferRole::output}}};
constexpr std::array<BufferLayout, 4> kFused{{{"a", DType::f32, BufferRole::input},
                                              {"b", DType::f32, BufferRole::input},
                                              {"c", DType::f32, BufferRole::input},
                                              {"out", DType::f32, BufferRole::output}}};

ROOFLINE_KERNEL_SELECTOR(Mul2, hadamard_mul2_kernel);
ROOFLINE_KERNEL_SELECTOR(Fused, hadamard3_fused_kernel);
ROOFLINE_KERNEL_SELECTOR(FusedX4, hadamard3_fused_f32x4_kernel);

// Pass 1: t = a * b; pass 2: out = t * c (buffers a, b, c, t, out).
void launch_unfused(const LaunchContext& c) {
  void* const pass1[] = {c.buffers[0], c.buffers[1], c.buffers[3]};
  void* const pass2[] = {c.buffers[3], c.buffers[2], c.buffers[4]};
  LaunchContext p = c;
  p.buffers = pass1;
  launch_selected<Mul2>(p);
  p.buffers = pass2;
  launch_selected<Mul2>(p);
}

const std::array<KernelImpl, 3> kImpls{{
    KernelImpl{"hadamard3_unfused", kUnfused, &device_function_of<Mul2>, &launch_unfused, 2,
               hadamard_unfused_reference, ReferenceOp::mul_then_mul},
    single_pass<Fused>("hadamard3_fused", kFused, hadamard_fused_reference, ReferenceOp::mul3),
    single_pass<FusedX4>("hadamard3_fused_f32x4", kFused, hadamard_fused_reference, ReferenceOp::mul3),
}};

}  // namespace

std::span<const KernelImpl> hadamard_impls() { return kImpls; }

}  // namespace roofline::kernels

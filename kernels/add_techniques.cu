// Vector-sum techniques (seed 003): a grid-stride loop, grid-stride + float4, and grid-stride
// + float4 with two and four independent float4 iterations in flight per thread (ILP).
// The grid is one wave (SMs x resident blocks), chosen by the runner. Specs: add_techniques.toml.
// The loops carry `#pragma unroll 1`: left alone, nvcc unrolls a grid-stride loop 4x and
// batches its loads, which would give every variant ILP 4 and blur the comparison.
#include <array>

#include "kernels/launch_helpers.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void add_f32_gridstride_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                          float* __restrict__ c, I n) {
  const I stride = grid_threads<I>();
#pragma unroll 1
  for (I i = global_thread_index<I>(); i < n; i += stride) c[i] = a[i] + b[i];
}

// Grid-stride over float4s with ILP float4 iterations loaded before any is used; the last
// (n / 4) % ILP float4s run one at a time and the last n % 4 floats go to the first threads.
template <int ILP, typename I>
__device__ __forceinline__ void add_f32x4_gridstride_body(const float* __restrict__ a, const float* __restrict__ b,
                                                          float* __restrict__ c, I n) {
  const I n4 = n / 4;
  const I tid = global_thread_index<I>();
  const I stride = grid_threads<I>();
  const float4* a4 = reinterpret_cast<const float4*>(a);
  const float4* b4 = reinterpret_cast<const float4*>(b);
  float4* c4 = reinterpret_cast<float4*>(c);
  I v = tid;
#pragma unroll 1
  for (; v + (ILP - 1) * stride < n4; v += ILP * stride) {
    float4 x[ILP], y[ILP];
#pragma unroll
    for (int k = 0; k < ILP; ++k) {
      x[k] = a4[v + k * stride];
      y[k] = b4[v + k * stride];
    }
#pragma unroll
    for (int k = 0; k < ILP; ++k) c4[v + k * stride] = add4(x[k], y[k]);
  }
  if constexpr (ILP > 1) {
#pragma unroll 1
    for (; v < n4; v += stride) c4[v] = add4(a4[v], b4[v]);
  }
  const I t = 4 * n4 + tid;
  if (t < n) c[t] = a[t] + b[t];
}

template <typename I>
__global__ void add_f32x4_gridstride_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                            float* __restrict__ c, I n) {
  add_f32x4_gridstride_body<1>(a, b, c, n);
}

template <typename I>
__global__ void add_f32x4_ilp2_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ c, I n) {
  add_f32x4_gridstride_body<2>(a, b, c, n);
}

template <typename I>
__global__ void add_f32x4_ilp4_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ c, I n) {
  add_f32x4_gridstride_body<4>(a, b, c, n);
}

namespace {


constexpr auto kF32 = binary_layout(DType::f32);

ROOFLINE_KERNEL_SELECTOR(GridStride, add_f32_gridstride_kernel);
ROOFLINE_KERNEL_SELECTOR(GridStrideX4, add_f32x4_gridstride_kernel);
ROOFLINE_KERNEL_SELECTOR(Ilp2, add_f32x4_ilp2_kernel);
ROOFLINE_KERNEL_SELECTOR(Ilp4, add_f32x4_ilp4_kernel);

const std::array<KernelImpl, 4> kImpls{{
    single_pass<GridStride>("add_f32_gridstride", kF32, add_reference, ReferenceOp::add),
    single_pass<GridStrideX4>("add_f32x4_gridstride", kF32, add_reference, ReferenceOp::add),
    single_pass<Ilp2>("add_f32x4_ilp2", kF32, add_reference, ReferenceOp::add),
    single_pass<Ilp4>("add_f32x4_ilp4", kF32, add_reference, ReferenceOp::add),
}};

}  // namespace

std::span<const KernelImpl> add_technique_impls() { return kImpls; }

}  // namespace roofline::kernels

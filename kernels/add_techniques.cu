// Vector-sum techniques of a published memory-bandwidth blog experiment on an RTX 4060: a
// grid-stride loop, grid-stride + float4, and grid-stride
// + float4 with two and four independent float4 iterations in flight per thread (ILP); and
// a one-shot float4 add whose loads are bulk copies into shared memory (sm_90's TMA, as
// cub::DeviceTransform does there). The grid-stride grids are one wave (SMs x resident
// blocks), chosen by the runner. Specs: add_techniques.toml.
// The loops carry `#pragma unroll 1`: left alone, nvcc unrolls a grid-stride loop 4x and
// batches its loads, which would give every variant ILP 4 and blur the comparison.
#include <cuda/ptx>

#include <array>
#include <cstdint>

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

// One tile of 4 x blockDim floats per block. On sm_90 and later one thread starts two bulk
// copies (a's and b's slice of the tile) into shared memory and every thread waits on their
// mbarrier: the loads hold no registers, so the bytes in flight per SM are bounded by shared
// memory (16 B x 2 per thread) rather than by registers and outstanding LDGs. Then each
// thread adds one float4 and stores it. Partial tiles, unaligned pointers and older GPUs take
// plain float4 loads.
constexpr int kBulkMaxThreads = 1024;

template <typename I>
__global__ void __launch_bounds__(kBulkMaxThreads) add_f32x4_bulk_kernel(const float* __restrict__ a,
                                                                         const float* __restrict__ b,
                                                                         float* __restrict__ c, I n) {
  const I tile = 4 * static_cast<I>(blockDim.x);
  const I first = static_cast<I>(blockIdx.x) * tile;
  const I i = first + 4 * static_cast<I>(threadIdx.x);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ alignas(128) float4 sa[kBulkMaxThreads];
  __shared__ alignas(128) float4 sb[kBulkMaxThreads];
  __shared__ std::uint64_t bar;
  const bool aligned = ((reinterpret_cast<std::uintptr_t>(a) | reinterpret_cast<std::uintptr_t>(b)) & 15) == 0;
  if (aligned && first + tile <= n) {
    const auto bytes = static_cast<std::uint32_t>(tile * sizeof(float));
    if (threadIdx.x == 0) {
      cuda::ptx::mbarrier_init(&bar, 1);
      cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
      cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, sa, a + first, bytes, &bar);
      cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, sb, b + first, bytes, &bar);
      cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared, &bar,
                                           2 * bytes);
    }
    __syncthreads();  // the barrier is initialised before anyone waits on it
    // The suspend-time hint lets a waiting thread sleep until the copies land (as CUTLASS
    // waits) instead of spinning: the instruction count does not depend on the latency.
    constexpr std::uint32_t kSuspendNs = 10'000'000;
    while (!cuda::ptx::mbarrier_try_wait_parity(&bar, 0, kSuspendNs)) {
    }
    *reinterpret_cast<float4*>(c + i) = add4(sa[threadIdx.x], sb[threadIdx.x]);
    return;
  }
#endif
  if (i + 3 < n) {
    *reinterpret_cast<float4*>(c + i) =
        add4(*reinterpret_cast<const float4*>(a + i), *reinterpret_cast<const float4*>(b + i));
  } else {
#pragma unroll 1
    for (I k = i; k < n; ++k) c[k] = a[k] + b[k];
  }
}

namespace {


constexpr auto kF32 = binary_layout(DType::f32);

ROOFLINE_KERNEL_SELECTOR(GridStride, add_f32_gridstride_kernel);
ROOFLINE_KERNEL_SELECTOR(GridStrideX4, add_f32x4_gridstride_kernel);
ROOFLINE_KERNEL_SELECTOR(Ilp2, add_f32x4_ilp2_kernel);
ROOFLINE_KERNEL_SELECTOR(Ilp4, add_f32x4_ilp4_kernel);
ROOFLINE_KERNEL_SELECTOR(BulkX4, add_f32x4_bulk_kernel);

const std::array<KernelImpl, 5> kImpls{{
    single_pass<GridStride>("add_f32_gridstride", kF32, add_reference, ReferenceOp::add),
    single_pass<GridStrideX4>("add_f32x4_gridstride", kF32, add_reference, ReferenceOp::add),
    single_pass<Ilp2>("add_f32x4_ilp2", kF32, add_reference, ReferenceOp::add),
    single_pass<Ilp4>("add_f32x4_ilp4", kF32, add_reference, ReferenceOp::add),
    single_pass<BulkX4>("add_f32x4_bulk", kF32, add_reference, ReferenceOp::add),
}};

}  // namespace

std::span<const KernelImpl> add_technique_impls() { return kImpls; }

}  // namespace roofline::kernels

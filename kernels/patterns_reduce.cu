// Patterns suite, reductions: the sum of n floats into one accumulator, by a shared-memory
// tree per block (one global atomic per block) and by warp shuffles (one atomic per warp).
// Both are grid-stride loops over one wave of blocks. Specs: patterns_reduce.toml.
#include <algorithm>
#include <array>
#include <cmath>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void reduce_block_atomic_kernel(const float* __restrict__ x, float* __restrict__ sum, I n) {
  __shared__ float partial[1024];  // one per thread of the largest block
  float s = 0.0f;
  for (I i = global_thread_index<I>(); i < n; i += grid_threads<I>()) s += x[i];
  partial[threadIdx.x] = s;
  __syncthreads();
  // Halving tree over the next power of two: lanes past blockDim.x count as zero.
  for (unsigned half = (1u << (32 - __clz(blockDim.x - 1))) / 2; half > 0; half /= 2) {
    if (threadIdx.x < half && threadIdx.x + half < blockDim.x) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum, partial[0]);
}

template <typename I>
__global__ void reduce_warp_shuffle_kernel(const float* __restrict__ x, float* __restrict__ sum, I n) {
  float s = 0.0f;
  for (I i = global_thread_index<I>(); i < n; i += grid_threads<I>()) s += x[i];
  s = patterns::warp_reduce(s, patterns::Sum{});
  if (threadIdx.x % 32 == 0) atomicAdd(sum, s);
}

namespace {

// The inputs are multiples of 1/16 (InputValues::sixteenths), so every partial sum is exact
// and the device's result is the exact sum whatever order the atomics land in; the
// allowance (on the result's own scale) only covers rounding should a partial sum ever leave
// the exact range.
HostCheckResult check_sum(const HostArrays& a) {
  const double exact = patterns::sum(a.as<float>(0));
  const float got = a.as<float>(1)[0];
  patterns::Comparison c("sum");
  c.add(0, got, exact, patterns::float_sum_tolerance(a.n, std::max(1.0, std::fabs(exact))));
  return c.result();
}

constexpr std::array<BufferLayout, 2> kLayout{{
    {"x", DType::f32, BufferRole::input, 1, 0, InputValues::sixteenths},
    {"sum", DType::f32, BufferRole::accumulator, 1, 1},
}};

ROOFLINE_KERNEL_SELECTOR(BlockAtomic, reduce_block_atomic_kernel);
ROOFLINE_KERNEL_SELECTOR(WarpShuffle, reduce_warp_shuffle_kernel);

const std::array<KernelImpl, 2> kImpls{{
    patterns::whole_array_kernel("reduce_block_atomic", kLayout, &device_function_of<BlockAtomic>,
                                 &launch_selected<BlockAtomic>, check_sum),
    patterns::whole_array_kernel("reduce_warp_shuffle", kLayout, &device_function_of<WarpShuffle>,
                                 &launch_selected<WarpShuffle>, check_sum),
}};

}  // namespace

std::span<const KernelImpl> patterns_reduce_impls() { return kImpls; }

}  // namespace roofline::kernels

// Patterns suite, single-precision GEMM C = A B of square row-major matrices: naive (one
// thread per element of C, the K loop straight from global memory: A's row broadcast within
// a warp, B's row coalesced, both re-read from L1/L2) and 32 x 32 shared-memory tiles (each
// element loaded once per tile, 32 FMAs per load pair). The compute-bound members of the
// suite; their sizes stop at 2^24 (4096^2: 2 x 4096^3 flops) as the specs say.
// Specs: patterns_sgemm.toml.
#include <algorithm>
#include <array>
#include <random>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

// One element of C per thread; blocks of 32 x (blockDim / 32).
template <typename I>
__global__ void sgemm_naive_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                   I side) {
  const I col = static_cast<I>(blockIdx.x) * 32 + threadIdx.x;
  const I row = static_cast<I>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (row >= side || col >= side) return;
  float acc = 0.0f;
  for (I k = 0; k < side; ++k) acc = fmaf(a[row * side + k], b[k * side + col], acc);
  c[row * side + col] = acc;
}

inline constexpr int kTile = 32;
inline constexpr int kTileRows = 8;  // 32 x 8 threads: four elements of C each

template <typename I>
__global__ void sgemm_tiled_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                   I side) {
  __shared__ float as[kTile][kTile];
  __shared__ float bs[kTile][kTile];
  const I col = static_cast<I>(blockIdx.x) * kTile + threadIdx.x;
  const I row0 = static_cast<I>(blockIdx.y) * kTile;
  float acc[kTile / kTileRows] = {};
  for (I k0 = 0; k0 < side; k0 += kTile) {
    // Out-of-range tile elements load as zero: they add nothing to the sums.
#pragma unroll
    for (int j = 0; j < kTile; j += kTileRows) {
      const I r = row0 + threadIdx.y + j;
      as[threadIdx.y + j][threadIdx.x] = r < side && k0 + threadIdx.x < side ? a[r * side + k0 + threadIdx.x] : 0.0f;
      bs[threadIdx.y + j][threadIdx.x] =
          k0 + threadIdx.y + j < side && col < side ? b[(k0 + threadIdx.y + j) * side + col] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kTile; ++k) {
      const float bk = bs[k][threadIdx.x];
#pragma unroll
      for (int j = 0; j < kTile / kTileRows; ++j) acc[j] = fmaf(as[threadIdx.y + j * kTileRows][k], bk, acc[j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int j = 0; j < kTile / kTileRows; ++j) {
    const I r = row0 + threadIdx.y + j * kTileRows;
    if (r < side && col < side) c[r * side + col] = acc[j];
  }
}

namespace {

inline constexpr int kSamples = 4096;

// A fixed sample of C's elements (all of them for small matrices), each computed exactly in
// double. The inputs are multiples of 1/16 in [-1, 1] (InputValues::sixteenths): products are
// multiples of 2^-8 and sums of up to 2^14 of them are exact in float in any order, so a
// correct kernel matches exactly; the allowance is the tree-order rounding bound.
HostCheckResult check_gemm(const HostArrays& h) {
  const std::int64_t side = patterns::square_side(h.n);
  const auto a = h.as<float>(0), b = h.as<float>(1), c = h.as<float>(2);
  const std::int64_t samples = std::min<std::int64_t>(kSamples, h.n);
  std::vector<std::int64_t> where(static_cast<std::size_t>(samples));
  std::mt19937_64 pick(12345);
  for (std::int64_t s = 0; s < samples; ++s)
    where[static_cast<std::size_t>(s)] = samples == h.n ? s : static_cast<std::int64_t>(pick() % static_cast<std::uint64_t>(h.n));
  return patterns::compare_all("c", samples, [&](std::int64_t s, patterns::Comparison& cmp) {
    const std::int64_t i = where[static_cast<std::size_t>(s)];
    double magnitude = 0;
    const double expected = patterns::gemm_element(a, b, side, i / side, i % side, &magnitude);
    cmp.add(i, c[static_cast<std::size_t>(i)], expected, patterns::float_sum_tolerance(side, magnitude));
  }, side);
}

constexpr std::array<BufferLayout, 3> kLayout{{
    {"a", DType::f32, BufferRole::input, 1, 0, InputValues::sixteenths},
    {"b", DType::f32, BufferRole::input, 1, 0, InputValues::sixteenths},
    {"c", DType::f32, BufferRole::output},
}};

ROOFLINE_KERNEL_SELECTOR(Naive, sgemm_naive_kernel);
ROOFLINE_KERNEL_SELECTOR(Tiled, sgemm_tiled_kernel);

void launch_naive(const LaunchContext& ctx) {
  const std::int64_t side = patterns::side_of(ctx);
  const dim3 block = patterns::matrix_block(ctx.block);
  with_index_type(ctx.extent, [&]<typename I>() {
    sgemm_naive_kernel<I><<<patterns::matrix_grid(side, 32, block.y), block, 0, ctx.stream>>>(
        static_cast<const float*>(ctx.buffers[0]), static_cast<const float*>(ctx.buffers[1]),
        static_cast<float*>(ctx.buffers[2]), static_cast<I>(side));
  });
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
}

void launch_tiled(const LaunchContext& ctx) {
  const std::int64_t side = patterns::side_of(ctx);
  with_index_type(ctx.extent, [&]<typename I>() {
    sgemm_tiled_kernel<I><<<patterns::matrix_grid(side, kTile, kTile), dim3(kTile, kTileRows), 0, ctx.stream>>>(
        static_cast<const float*>(ctx.buffers[0]), static_cast<const float*>(ctx.buffers[1]),
        static_cast<float*>(ctx.buffers[2]), static_cast<I>(side));
  });
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
}

const std::array<KernelImpl, 2> kImpls{{
    patterns::whole_array_kernel("sgemm_naive", kLayout, &device_function_of<Naive>, &launch_naive, check_gemm,
                                 ProblemShape::square),
    patterns::whole_array_kernel("sgemm_tiled", kLayout, &device_function_of<Tiled>, &launch_tiled, check_gemm,
                                 ProblemShape::square, kTile * kTileRows),
}};

}  // namespace

std::span<const KernelImpl> patterns_sgemm_impls() { return kImpls; }

}  // namespace roofline::kernels

// Patterns suite, matrix transpose out[c][r] = in[r][c] of a square row-major matrix: the
// naive kernel (coalesced reads, each store a column: 32 sectors per warp) and the classic
// 32 x 33 shared tile (both sides coalesced; the padding column keeps the tile's column reads
// free of bank conflicts). Specs: patterns_transpose.toml.
#include <array>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

// One element per thread; blocks of 32 x (blockDim / 32).
template <typename I>
__global__ void transpose_naive_kernel(const float* __restrict__ in, float* __restrict__ out, I side) {
  const I c = static_cast<I>(blockIdx.x) * 32 + threadIdx.x;
  const I r = static_cast<I>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (r < side && c < side) out[c * side + r] = in[r * side + c];
}

inline constexpr int kTile = 32;
inline constexpr int kTileRows = 8;  // 32 x 8 threads: four elements each

template <typename I>
__global__ void transpose_tiled_padded_kernel(const float* __restrict__ in, float* __restrict__ out, I side) {
  __shared__ float tile[kTile][kTile + 1];
  const I c = static_cast<I>(blockIdx.x) * kTile + threadIdx.x;
  const I r0 = static_cast<I>(blockIdx.y) * kTile;
#pragma unroll
  for (int j = 0; j < kTile; j += kTileRows)
    if (c < side && r0 + threadIdx.y + j < side) tile[threadIdx.y + j][threadIdx.x] = in[(r0 + threadIdx.y + j) * side + c];
  __syncthreads();
  // The transposed tile goes to block (y, x): its rows are the input tile's columns.
  const I oc = r0 + threadIdx.x;
  const I or0 = static_cast<I>(blockIdx.x) * kTile;
#pragma unroll
  for (int j = 0; j < kTile; j += kTileRows)
    if (oc < side && or0 + threadIdx.y + j < side) out[(or0 + threadIdx.y + j) * side + oc] = tile[threadIdx.x][threadIdx.y + j];
}

namespace {

HostCheckResult check_transpose(const HostArrays& a) {
  const std::int64_t side = patterns::square_side(a.n);
  const auto in = a.as<float>(0);
  const auto out = a.as<float>(1);
  // out[r][c] must be in[c][r], bit for bit.
  return patterns::compare_all("out", a.n, [&](std::int64_t i, patterns::Comparison& c) {
    const std::int64_t r = i / side, col = i % side;
    c.add(i, out[static_cast<std::size_t>(i)], in[static_cast<std::size_t>(col * side + r)], 0.0);
  });
}

constexpr std::array<BufferLayout, 2> kLayout{{{"in", DType::f32, BufferRole::input},
                                               {"out", DType::f32, BufferRole::output}}};

ROOFLINE_KERNEL_SELECTOR(Naive, transpose_naive_kernel);
ROOFLINE_KERNEL_SELECTOR(Tiled, transpose_tiled_padded_kernel);

void launch_tiled(const LaunchContext& c) {
  const std::int64_t side = patterns::side_of(c);
  with_index_type(c.extent, [&]<typename I>() {
    transpose_tiled_padded_kernel<I><<<patterns::matrix_grid(side, kTile, kTile), dim3(kTile, kTileRows), 0, c.stream>>>(
        static_cast<const float*>(c.buffers[0]), static_cast<float*>(c.buffers[1]), static_cast<I>(side));
  });
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
}

const std::array<KernelImpl, 2> kImpls{{
    patterns::whole_array_kernel("transpose_naive", kLayout, &device_function_of<Naive>,
                                 &patterns::launch_matrix_in_out<Naive>, check_transpose, ProblemShape::square),
    patterns::whole_array_kernel("transpose_tiled_padded", kLayout, &device_function_of<Tiled>, &launch_tiled,
                                 check_transpose, ProblemShape::square, kTile * kTileRows),
}};

}  // namespace

std::span<const KernelImpl> patterns_transpose_impls() { return kImpls; }

}  // namespace roofline::kernels

#pragma once
// Device building blocks the patterns kernels share: warp and block reductions, the 2-D
// launch geometry of the matrix kernels and of those that give a row a block or a warp.
#include <algorithm>
#include <cstdint>
#include <string>

#include "kernels/launch_helpers.cuh"
#include "kernels/patterns_reference.hpp"
#include "models/error.hpp"

namespace roofline::kernels::patterns {

struct Sum {
  __device__ float operator()(float a, float b) const { return a + b; }
};
struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

// __shfl_down_sync tree over the 32 lanes: lane 0 ends with the warp's result.
template <typename Op>
__device__ __forceinline__ float warp_reduce(float v, Op op) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v = op(v, __shfl_down_sync(0xffffffffu, v, offset));
  return v;
}

// The block's result in every thread: each warp reduces, lane 0s meet in shared memory, then
// every warp reduces those partials itself (two barriers, no broadcast round).
template <typename Op>
__device__ __forceinline__ float block_reduce(float v, Op op, float identity) {
  __shared__ float partials[32];
  v = warp_reduce(v, op);
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  __syncthreads();  // the previous call's readers are done with partials
  if (lane == 0) partials[warp] = v;
  __syncthreads();
  v = warp_reduce(lane < blockDim.x / 32 ? partials[lane] : identity, op);
  return __shfl_sync(0xffffffffu, v, 0);
}

// Matrix kernels: 32 threads across a row (coalesced), blockDim / 32 rows per block.
inline dim3 matrix_block(int threads) { return dim3(32, static_cast<unsigned>(threads / 32)); }

// Blocks covering a side x side matrix with tiles of tile_cols x tile_rows elements.
inline dim3 matrix_grid(std::int64_t side, std::int64_t tile_cols, std::int64_t tile_rows) {
  const std::int64_t x = (side + tile_cols - 1) / tile_cols, y = (side + tile_rows - 1) / tile_rows;
  if (y > 65535)
    throw Error("a " + std::to_string(side) + " x " + std::to_string(side) + " matrix needs " + std::to_string(y) +
                " block rows, more than a grid's 65535: use a smaller n");
  return dim3(static_cast<unsigned>(x), static_cast<unsigned>(y));
}

// launch_matrix_in_out's launch with index type I.
template <typename Kernel, typename I>
void launch_matrix_in_out_as(const LaunchContext& c, std::int64_t side, dim3 block) {
  Kernel::template fn<I><<<matrix_grid(side, 32, block.y), block, 0, c.stream>>>(
      static_cast<const float*>(c.buffers[0]), static_cast<float*>(c.buffers[1]), static_cast<I>(side));
}

// Launches Kernel::fn<I>(in, out, side) (a ROOFLINE_KERNEL_SELECTOR) over a side x side matrix
// in blocks of 32 x (block / 32) elements: a kernel of one input and one output matrix (prepare()
// has checked n is a perfect square). The index type is chosen here, not by with_index_type's
// generic lambda: a selector's fn<I> launched inside that lambda makes nvcc warn (#114-D) that it
// is referenced but not defined.
template <typename Kernel>
void launch_matrix_in_out(const LaunchContext& c) {
  const std::int64_t side = square_side(c.n);
  const dim3 block = matrix_block(c.block);
  if (fits_int32(c.extent))
    launch_matrix_in_out_as<Kernel, int>(c, side, block);
  else
    launch_matrix_in_out_as<Kernel, long long>(c, side, block);
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
}

// Launches Kernel (a ROOFLINE_KERNEL_SELECTOR) one block per row (or segment) of `Cols`
// elements: the grid is n / Cols, whatever the runner chose.
template <typename Kernel, std::int64_t Cols>
void launch_block_per_row(const LaunchContext& c) {
  LaunchContext rows = c;
  rows.grid = c.n / Cols;
  launch_selected<Kernel>(rows);
}

// Launches Kernel (a ROOFLINE_KERNEL_SELECTOR) one warp per row of `Cols` elements: blockDim / 32
// rows per block, whatever the runner chose.
template <typename Kernel, std::int64_t Cols>
void launch_warp_per_row(const LaunchContext& c) {
  LaunchContext rows = c;
  const std::int64_t threads = c.n / Cols * 32;
  rows.grid = std::max<std::int64_t>((threads + c.block - 1) / c.block, 1);
  launch_selected<Kernel>(rows);
}

// A one-launch patterns kernel, verified as a whole by `check`.
constexpr KernelImpl whole_array_kernel(std::string_view name, std::span<const BufferLayout> buffers,
                                        const void* (*device_function)(std::int64_t),
                                        void (*launch)(const LaunchContext&), HostCheck check,
                                        ProblemShape shape = ProblemShape::flat, int fixed_block = 0,
                                        std::int64_t cols = kRowCols) {
  KernelImpl k{name, buffers, device_function, launch};
  k.host_check = check;
  k.shape = shape;
  k.fixed_block = fixed_block;
  k.cols = cols;
  return k;
}

// The launch's matrix side (prepare() has checked n is a perfect square).
inline std::int64_t side_of(const LaunchContext& c) { return square_side(c.n); }

}  // namespace roofline::kernels::patterns

// A user's program of four kernels that stage their input through shared memory and meet at a
// barrier before they compute, over float arrays of 2^20, 2^22 and 2^24 elements:
// - stencil5_tiled: a 5-point stencil on a square grid, edges clamped; blocks of 32 x 8 load
//   their 34 x 10 tile (with its halo) cooperatively, two loads for some threads.
// - sobel_tiled: the Sobel gradient's magnitude on the same tiles (eight neighbours, a sqrt).
// - conv1d_tiled_r8: a 17-tap 1-D convolution (zero padding), blocks of 256 staging their 272
//   elements; the taps in constant memory.
// - reverse_blocks: the whole array reversed, each block's 256 elements through shared memory.
// Each runs five times back to back at each size; a sample of 4096 outputs is checked against
// the CPU.
// Build (as a user would): nvcc -O3 -arch=sm_90 -o staged_kernels tests/profile/staged_kernels.cu
// Run: staged_kernels
#include <cuda_runtime.h>

#include <cmath>
#include <cstdlib>
#include <vector>

#include "staged_check.cuh"

constexpr int kBx = 32, kBy = 8, kRadius = 8, kTaps = 2 * kRadius + 1, kBlock = 256;
__constant__ float taps[kTaps];

__device__ __forceinline__ int clamp_to(int v, int side) { return min(max(v, 0), side - 1); }

// The block's (kBy + 2) x (kBx + 2) tile of a side x side grid, edges clamped, loaded by its 256
// threads in turn.
__device__ __forceinline__ void load_tile(const float* __restrict__ in, int side, float (*tile)[kBx + 2]) {
  const int x0 = blockIdx.x * kBx - 1, y0 = blockIdx.y * kBy - 1;
  for (int j = threadIdx.y * kBx + threadIdx.x; j < (kBy + 2) * (kBx + 2); j += kBx * kBy) {
    const int ly = j / (kBx + 2), lx = j % (kBx + 2);
    tile[ly][lx] = in[clamp_to(y0 + ly, side) * side + clamp_to(x0 + lx, side)];
  }
  __syncthreads();
}

__global__ void __launch_bounds__(kBlock) stencil5_tiled(const float* __restrict__ in, float* __restrict__ out,
                                                         int side) {
  __shared__ float tile[kBy + 2][kBx + 2];
  load_tile(in, side, tile);
  const int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  const float v = 0.5f * tile[ty][tx] +
                  0.125f * (tile[ty - 1][tx] + tile[ty + 1][tx] + tile[ty][tx - 1] + tile[ty][tx + 1]);
  out[(blockIdx.y * kBy + threadIdx.y) * side + blockIdx.x * kBx + threadIdx.x] = v;
}

__global__ void __launch_bounds__(kBlock) sobel_tiled(const float* __restrict__ in, float* __restrict__ out,
                                                      int side) {
  __shared__ float tile[kBy + 2][kBx + 2];
  load_tile(in, side, tile);
  const int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  const float gx = (tile[ty - 1][tx + 1] + 2.0f * tile[ty][tx + 1] + tile[ty + 1][tx + 1]) -
                   (tile[ty - 1][tx - 1] + 2.0f * tile[ty][tx - 1] + tile[ty + 1][tx - 1]);
  const float gy = (tile[ty + 1][tx - 1] + 2.0f * tile[ty + 1][tx] + tile[ty + 1][tx + 1]) -
                   (tile[ty - 1][tx - 1] + 2.0f * tile[ty - 1][tx] + tile[ty - 1][tx + 1]);
  out[(blockIdx.y * kBy + threadIdx.y) * side + blockIdx.x * kBx + threadIdx.x] = sqrtf(gx * gx + gy * gy);
}

__global__ void __launch_bounds__(kBlock) conv1d_tiled_r8(const float* __restrict__ in, float* __restrict__ out,
                                                          int n) {
  staged::conv1d_tiled<kRadius, kBlock>(in, out, n, taps);
}

__global__ void __launch_bounds__(kBlock) reverse_blocks(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float tile[kBlock];
  tile[threadIdx.x] = in[blockIdx.x * kBlock + threadIdx.x];
  __syncthreads();
  out[(gridDim.x - 1 - blockIdx.x) * kBlock + threadIdx.x] = tile[kBlock - 1 - threadIdx.x];
}

namespace {

using staged::at;
using staged::run;

// Output i of each kernel on the CPU.
float stencil5_cpu(const std::vector<float>& in, int side, int i) {
  const int y = i / side, x = i % side;
  return 0.5f * at(in, side, y, x) +
         0.125f * (at(in, side, y - 1, x) + at(in, side, y + 1, x) + at(in, side, y, x - 1) + at(in, side, y, x + 1));
}

float sobel_cpu(const std::vector<float>& in, int side, int i) {
  const int y = i / side, x = i % side;
  auto p = [&](int dy, int dx) { return static_cast<double>(at(in, side, y + dy, x + dx)); };
  const double gx = (p(-1, 1) + 2 * p(0, 1) + p(1, 1)) - (p(-1, -1) + 2 * p(0, -1) + p(1, -1));
  const double gy = (p(1, -1) + 2 * p(1, 0) + p(1, 1)) - (p(-1, -1) + 2 * p(-1, 0) + p(-1, 1));
  return static_cast<float>(std::sqrt(gx * gx + gy * gy));
}

float reverse_cpu(const std::vector<float>& in, int i) { return in[in.size() - 1 - i]; }

}  // namespace

int main() {
  std::vector<float> w(kTaps);
  for (int k = 0; k < kTaps; ++k) w[k] = 1.0f / static_cast<float>(1 + std::abs(k - kRadius));
  CHECK(cudaMemcpyToSymbol(taps, w.data(), kTaps * sizeof(float)));
  bool ok = true;
  for (int side : {1024, 2048, 4096}) {
    const int n = side * side;
    std::vector<float> in(n);
    for (int i = 0; i < n; ++i) in[i] = static_cast<float>((i * 37 + 11) % 101) / 101.0f;
    float *d_in = nullptr, *d_out = nullptr;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    const dim3 tiles(side / kBx, side / kBy), block(kBx, kBy);
    ok &= run("stencil5_tiled", n, [&] { stencil5_tiled<<<tiles, block>>>(d_in, d_out, side); }, d_out,
              [&](int i) { return stencil5_cpu(in, side, i); });
    ok &= run("sobel_tiled", n, [&] { sobel_tiled<<<tiles, block>>>(d_in, d_out, side); }, d_out,
              [&](int i) { return sobel_cpu(in, side, i); });
    ok &= run("conv1d_tiled_r8", n, [&] { conv1d_tiled_r8<<<n / kBlock, kBlock>>>(d_in, d_out, n); }, d_out,
              [&](int i) { return staged::conv1d_at(in, w, kRadius, i); });
    ok &= run("reverse_blocks", n, [&] { reverse_blocks<<<n / kBlock, kBlock>>>(d_in, d_out); }, d_out,
              [&](int i) { return reverse_cpu(in, i); });
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
  }
  return ok ? 0 : 1;
}

// A user's second program of kernels that stage data through shared memory behind a barrier,
// written after the first (staged_kernels.cu) had been profiled and the model and the drafts
// changed for what it showed; over float arrays of 2^20, 2^22 and 2^24 elements:
// - box5x5_tiled: a 5x5 box filter on a square grid, edges clamped; blocks of 32 x 8 load their
//   36 x 12 tile (432 words) cooperatively, two loads for most threads.
// - conv1d_tiled_r16: a 33-tap 1-D convolution (zero padding), blocks of 256 staging 288
//   elements; lanes 0-15 of warp 0 load the halo after their own element; the taps in constant
//   memory.
// - gather_stage: each thread gathers table[idx[i]] from a 4 MiB table into shared memory; after
//   the barrier, out[i] = 2 s[t] - s[t ^ 1] - s[(t + 1) mod 256].
// Each runs five times back to back at each size; a sample of 4096 outputs is checked against
// the CPU.
// Build (as a user would): nvcc -O3 -arch=sm_90 -o staged_kernels2 tests/profile/staged_kernels2.cu
// Run: staged_kernels2
#include <cuda_runtime.h>

#include <cstdlib>
#include <vector>

#include "staged_check.cuh"

constexpr int kBx = 32, kBy = 8, kBlock = 256, kR = 16, kTaps = 2 * kR + 1, kTable = 1 << 20;
__constant__ float taps[kTaps];

__global__ void __launch_bounds__(kBlock) box5x5_tiled(const float* __restrict__ in, float* __restrict__ out,
                                                       int side) {
  __shared__ float tile[kBy + 4][kBx + 4];
  const int x0 = blockIdx.x * kBx - 2, y0 = blockIdx.y * kBy - 2;
  for (int j = threadIdx.y * kBx + threadIdx.x; j < (kBy + 4) * (kBx + 4); j += kBlock) {
    const int ly = j / (kBx + 4), lx = j % (kBx + 4);
    tile[ly][lx] = in[min(max(y0 + ly, 0), side - 1) * side + min(max(x0 + lx, 0), side - 1)];
  }
  __syncthreads();
  float s = 0.0f;
#pragma unroll
  for (int dy = 0; dy < 5; ++dy)
#pragma unroll
    for (int dx = 0; dx < 5; ++dx) s += tile[threadIdx.y + dy][threadIdx.x + dx];
  out[(blockIdx.y * kBy + threadIdx.y) * side + blockIdx.x * kBx + threadIdx.x] = s * (1.0f / 25.0f);
}

__global__ void __launch_bounds__(kBlock) conv1d_tiled_r16(const float* __restrict__ in, float* __restrict__ out,
                                                           int n) {
  staged::conv1d_tiled<kR, kBlock>(in, out, n, taps);
}

__global__ void __launch_bounds__(kBlock) gather_stage(const int* __restrict__ idx, const float* __restrict__ table,
                                                       float* __restrict__ out) {
  __shared__ float s[kBlock];
  const int i = blockIdx.x * kBlock + threadIdx.x;
  s[threadIdx.x] = table[idx[i]];
  __syncthreads();
  const int t = threadIdx.x;
  out[i] = 2.0f * s[t] - s[t ^ 1] - s[(t + 1) % kBlock];
}

namespace {

using staged::at;
using staged::run;

float box_cpu(const std::vector<float>& in, int side, int i) {
  const int y = i / side, x = i % side;
  double s = 0;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) s += at(in, side, y + dy, x + dx);
  return static_cast<float>(s / 25.0);
}

float gather_cpu(const std::vector<int>& idx, const std::vector<float>& table, int i) {
  const int b = i / kBlock * kBlock, t = i % kBlock;
  auto v = [&](int u) { return static_cast<double>(table[idx[b + u]]); };
  return static_cast<float>(2 * v(t) - v(t ^ 1) - v((t + 1) % kBlock));
}

}  // namespace

int main() {
  std::vector<float> w(kTaps);
  for (int k = 0; k < kTaps; ++k) w[k] = 1.0f / static_cast<float>(1 + std::abs(k - kR));
  CHECK(cudaMemcpyToSymbol(taps, w.data(), kTaps * sizeof(float)));
  std::vector<float> table(kTable);
  for (int i = 0; i < kTable; ++i) table[i] = static_cast<float>((i * 13 + 5) % 97) / 97.0f;
  float* d_table = nullptr;
  CHECK(cudaMalloc(&d_table, kTable * sizeof(float)));
  CHECK(cudaMemcpy(d_table, table.data(), kTable * sizeof(float), cudaMemcpyHostToDevice));
  bool ok = true;
  for (int side : {1024, 2048, 4096}) {
    const int n = side * side;
    std::vector<float> in(n);
    std::vector<int> idx(n);
    unsigned state = 12345u;
    for (int i = 0; i < n; ++i) {
      in[i] = static_cast<float>((i * 37 + 11) % 101) / 101.0f;
      state = state * 1664525u + 1013904223u;
      idx[i] = static_cast<int>(state >> 12) % kTable;
    }
    float *d_in = nullptr, *d_out = nullptr;
    int* d_idx = nullptr;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMalloc(&d_idx, n * sizeof(int)));
    CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_idx, idx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    const dim3 tiles(side / kBx, side / kBy), block(kBx, kBy);
    ok &= run("box5x5_tiled", n, [&] { box5x5_tiled<<<tiles, block>>>(d_in, d_out, side); }, d_out,
              [&](int i) { return box_cpu(in, side, i); });
    ok &= run("conv1d_tiled_r16", n, [&] { conv1d_tiled_r16<<<n / kBlock, kBlock>>>(d_in, d_out, n); }, d_out,
              [&](int i) { return staged::conv1d_at(in, w, kR, i); });
    ok &= run("gather_stage", n, [&] { gather_stage<<<n / kBlock, kBlock>>>(d_idx, d_table, d_out); }, d_out,
              [&](int i) { return gather_cpu(idx, table, i); });
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_idx));
  }
  CHECK(cudaFree(d_table));
  return ok ? 0 : 1;
}

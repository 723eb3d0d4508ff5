// A user's program of two tensor-core GEMMs, C = A x B with FP16 A (row-major) and B (row-major),
// FP32 C, square sides 1024, 2048 and 4096, through WMMA 16 x 16 x 16 fragments:
// - hgemm_wmma_global: each warp one 16 x 16 tile of C, its fragments loaded from global memory
//   at every step of 16 along K; blocks of 2 x 2 warps (a 32 x 32 tile).
// - hgemm_wmma_shared: blocks of 2 x 2 warps own a 64 x 64 tile of C, each warp 32 x 32 (2 x 2
//   fragments); A's 64 x 32 and B's 32 x 64 slices are staged through shared memory (rows padded
//   by 8 halves), 32 along K a step.
// Each runs five times back to back at each size; a sample of 256 outputs is checked against the
// CPU in double precision.
// Build (as a user would): nvcc -O3 -arch=sm_90 -o tensor_kernels tests/profile/tensor_kernels.cu
// Run: tensor_kernels
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                                    \
  do {                                                                                                 \
    const cudaError_t status = (call);                                                                 \
    if (status != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "tensor_kernels: %s failed: %s\n", #call, cudaGetErrorString(status));     \
      std::exit(1);                                                                                    \
    }                                                                                                  \
  } while (0)

using namespace nvcuda;

__global__ void hgemm_wmma_global(const __half* __restrict__ a, const __half* __restrict__ b, float* __restrict__ c,
                                  int side) {
  const int warp = threadIdx.x / 32;
  const int row = (blockIdx.y * 2 + warp / 2) * 16, col = (blockIdx.x * 2 + warp % 2) * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < side; k += 16) {
    wmma::load_matrix_sync(fa, a + static_cast<long long>(row) * side + k, side);
    wmma::load_matrix_sync(fb, b + static_cast<long long>(k) * side + col, side);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(c + static_cast<long long>(row) * side + col, acc, side, wmma::mem_row_major);
}

constexpr int kTile = 64, kStep = 32, kPad = 8;

__global__ void __launch_bounds__(128) hgemm_wmma_shared(const __half* __restrict__ a, const __half* __restrict__ b,
                                                         float* __restrict__ c, int side) {
  __shared__ __half sa[kTile][kStep + kPad];
  __shared__ __half sb[kStep][kTile + kPad];
  const int warp = threadIdx.x / 32;
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
  const int wr = (warp / 2) * 32, wc = (warp % 2) * 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
  for (int k0 = 0; k0 < side; k0 += kStep) {
    // 64 x 32 halves of A and 32 x 64 of B: 256 16-byte vectors each, two per thread.
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      const int v = threadIdx.x + r * 128;
      const int ar = v / (kStep / 8), ac = (v % (kStep / 8)) * 8;
      *reinterpret_cast<uint4*>(&sa[ar][ac]) =
          *reinterpret_cast<const uint4*>(a + static_cast<long long>(row0 + ar) * side + k0 + ac);
      const int br = v / (kTile / 8), bc = (v % (kTile / 8)) * 8;
      *reinterpret_cast<uint4*>(&sb[br][bc]) =
          *reinterpret_cast<const uint4*>(b + static_cast<long long>(k0 + br) * side + col0 + bc);
    }
    __syncthreads();
    for (int kk = 0; kk < kStep; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb[2];
      for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(fa[i], &sa[wr + i * 16][kk], kStep + kPad);
      for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(fb[j], &sb[kk][wc + j * 16], kTile + kPad);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(c + static_cast<long long>(row0 + wr + i * 16) * side + col0 + wc + j * 16, acc[i][j],
                              side, wmma::mem_row_major);
}

namespace {

float uniform(unsigned& state) {  // in [-1, 1)
  state = state * 1664525u + 1013904223u;
  return static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
}

bool check(const char* name, int side, const std::vector<__half>& a, const std::vector<__half>& b, const float* dc) {
  std::vector<float> c(static_cast<std::size_t>(side) * side);
  CHECK(cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
  unsigned state = 99u;
  for (int s = 0; s < 256; ++s) {
    const int i = static_cast<int>((uniform(state) + 1) * 0.5f * side) % side;
    const int j = static_cast<int>((uniform(state) + 1) * 0.5f * side) % side;
    double expected = 0, magnitude = 0;
    for (int k = 0; k < side; ++k) {
      const double p = static_cast<double>(__half2float(a[static_cast<std::size_t>(i) * side + k])) *
                       __half2float(b[static_cast<std::size_t>(k) * side + j]);
      expected += p;
      magnitude += std::fabs(p);
    }
    const double got = c[static_cast<std::size_t>(i) * side + j];
    if (std::fabs(got - expected) > 1e-4 * magnitude + 1e-3) {  // FP32 accumulation over K products
      std::printf("%s side %d: C[%d][%d] = %g, expected %g\n", name, side, i, j, got, expected);
      return false;
    }
  }
  return true;
}

bool run_size(int side) {
  const std::size_t n = static_cast<std::size_t>(side) * side;
  std::vector<__half> a(n), b(n);
  unsigned state = 12345u + static_cast<unsigned>(side);
  for (std::size_t i = 0; i < n; ++i) a[i] = __float2half(uniform(state));
  for (std::size_t i = 0; i < n; ++i) b[i] = __float2half(uniform(state));
  __half *da = nullptr, *db = nullptr;
  float* dc = nullptr;
  CHECK(cudaMalloc(&da, n * sizeof(__half)));
  CHECK(cudaMalloc(&db, n * sizeof(__half)));
  CHECK(cudaMalloc(&dc, n * sizeof(float)));
  CHECK(cudaMemcpy(da, a.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
  bool ok = true;
  CHECK(cudaMemset(dc, 0, n * sizeof(float)));
  for (int r = 0; r < 5; ++r) hgemm_wmma_global<<<dim3(side / 32, side / 32), 128>>>(da, db, dc, side);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  ok = check("hgemm_wmma_global", side, a, b, dc) && ok;
  CHECK(cudaMemset(dc, 0, n * sizeof(float)));
  for (int r = 0; r < 5; ++r) hgemm_wmma_shared<<<dim3(side / kTile, side / kTile), 128>>>(da, db, dc, side);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  ok = check("hgemm_wmma_shared", side, a, b, dc) && ok;
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  return ok;
}

}  // namespace

int main() {
  bool ok = true;
  for (int side : {1024, 2048, 4096}) ok = run_size(side) && ok;
  std::printf(ok ? "tensor_kernels: results correct\n" : "tensor_kernels: results WRONG\n");
  return ok ? 0 : 1;
}

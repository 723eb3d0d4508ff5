#pragma once
// What the two programs of kernels staged through shared memory (staged_kernels.cu,
// staged_kernels2.cu) share: their tiled 1-D convolution, and on the host a CUDA call that must
// succeed, the CPU references their stencils and convolutions are checked against, and the check
// itself (science_kernels.cu checks its outputs with it too).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                                    \
  do {                                                                                                 \
    const cudaError_t status = (call);                                                                 \
    if (status != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(status)); \
      std::exit(1);                                                                                    \
    }                                                                                                  \
  } while (0)

namespace staged {

// Output i of a 1-D convolution of 2 R + 1 taps (in constant memory), zero padding: a block of
// Block threads stages its outputs' inputs and their halo in shared memory, lanes 0 to R - 1
// loading the halo after their own element, then each thread multiply-adds its taps.
template <int R, int Block>
__device__ __forceinline__ void conv1d_tiled(const float* __restrict__ in, float* __restrict__ out, int n,
                                             const float* taps) {
  __shared__ float tile[Block + 2 * R];
  const int i = blockIdx.x * Block + threadIdx.x;
  tile[threadIdx.x + R] = in[i];
  if (threadIdx.x < R) {
    const int left = i - R, right = i + Block;
    tile[threadIdx.x] = left >= 0 ? in[left] : 0.0f;
    tile[threadIdx.x + Block + R] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < 2 * R + 1; ++k) acc = fmaf(taps[k], tile[threadIdx.x + k], acc);
  out[i] = acc;
}

// Element (y, x) of a side x side grid, edges clamped.
inline float at(const std::vector<float>& in, int side, int y, int x) {
  return in[static_cast<size_t>(std::clamp(y, 0, side - 1)) * side + std::clamp(x, 0, side - 1)];
}

// Output i of a 1-D convolution with taps w (2 x radius + 1 of them), zero padding, in double.
inline float conv1d_at(const std::vector<float>& in, const std::vector<float>& w, int radius, int i) {
  double acc = 0;
  for (int k = 0; k < static_cast<int>(w.size()); ++k) {
    const int j = i + k - radius;
    if (j >= 0 && j < static_cast<int>(in.size())) acc += static_cast<double>(w[k]) * in[j];
  }
  return static_cast<float>(acc);
}

// Five launches back to back, then 4096 outputs spread over the n checked against `expected`
// (one output index in, the CPU's value out); prints one line, with the launch's size (`size`,
// n by default), and says whether all matched.
template <typename T, typename Launch, typename Expected>
bool run(const char* name, int n, Launch&& launch, T* d_out, Expected&& expected, int size = 0) {
  for (int r = 0; r < 5; ++r) launch();
  CHECK(cudaGetLastError());
  std::vector<T> out(n);
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int s = 0; s < 4096; ++s) {
    const int i = static_cast<int>((static_cast<long long>(s) * 2654435761LL) % n);
    const double want = expected(i), got = out[i];
    if (std::fabs(got - want) > 1e-4 * (1.0 + std::fabs(want))) ++bad;
  }
  std::printf("%-16s n = %9d: %s\n", name, size > 0 ? size : n, bad == 0 ? "ok" : "MISMATCH");
  return bad == 0;
}

}  // namespace staged

// A user's eighth program, written on 2026-11-28 when the model first took the special function
// unit (ncu's XU pipe: MUFU's exp2, rcp, rsqrt, sin, cos and conversions) as a pipe of its own:
// activations computed with the fast intrinsics, __expf (an FMUL and a MUFU.EX2) and __fdividef
// (a MUFU.RCP and an FMUL), where no suite kernel spends more than two special functions an element.
// - silu_f32: y = x * sigmoid(x), one float per thread: two special functions an element between
//   one load and one store.
// - sigmoid_chain4: y = sigmoid applied 4 times to x: eight.
// - sigmoid_chain16: 16 times: 32, which the unit's 16 lanes per SM (an eighth of the FP32
//   lanes) take longer than anything else the kernel does.
// Over 2^20, 2^22 and 2^24 elements; each runs five launches back to back and a sample of the
// outputs is checked against the CPU.
// Build (as a user would): nvcc -O3 -arch=sm_90 -o sfu_kernels tests/profile/sfu_kernels.cu
// Run: sfu_kernels
#include <cuda_runtime.h>

#include <cmath>
#include <vector>

#include "staged_check.cuh"

constexpr int kBlock = 256;

__device__ __forceinline__ float fast_sigmoid(float v) { return __fdividef(1.0f, 1.0f + __expf(-v)); }

template <int Steps>
__device__ __forceinline__ void sigmoid_chain(const float* __restrict__ x, float* __restrict__ y, int n) {
  const int i = blockIdx.x * kBlock + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
#pragma unroll
  for (int s = 0; s < Steps; ++s) v = fast_sigmoid(v);
  y[i] = v;
}

__global__ void __launch_bounds__(kBlock) silu_f32(const float* __restrict__ x, float* __restrict__ y, int n) {
  const int i = blockIdx.x * kBlock + threadIdx.x;
  if (i < n) y[i] = x[i] * fast_sigmoid(x[i]);
}

// Two kernels of their own names, as a profile shows them.
__global__ void __launch_bounds__(kBlock) sigmoid_chain4(const float* __restrict__ x, float* __restrict__ y, int n) {
  sigmoid_chain<4>(x, y, n);
}
__global__ void __launch_bounds__(kBlock) sigmoid_chain16(const float* __restrict__ x, float* __restrict__ y, int n) {
  sigmoid_chain<16>(x, y, n);
}

namespace {

using staged::run;

unsigned next(unsigned& state) { return state = state * 1664525u + 1013904223u; }

double sigmoid(double v) { return 1 / (1 + std::exp(-v)); }

double chain(double v, int steps) {
  for (int s = 0; s < steps; ++s) v = sigmoid(v);
  return v;
}

}  // namespace

int main() {
  bool ok = true;
  for (int n : {1 << 20, 1 << 22, 1 << 24}) {
    unsigned state = 777u;
    std::vector<float> x(n);
    for (float& v : x) v = 8.0f * static_cast<float>(next(state) >> 8) / 16777216.0f - 4.0f;  // [-4, 4)
    float *d_x = nullptr, *d_y = nullptr;
    CHECK(cudaMalloc(&d_x, n * sizeof(float)));
    CHECK(cudaMalloc(&d_y, n * sizeof(float)));
    CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    const int blocks = n / kBlock;
    ok &= run("silu_f32", n, [&] { silu_f32<<<blocks, kBlock>>>(d_x, d_y, n); }, d_y,
              [&](int i) { return x[i] * sigmoid(x[i]); });
    ok &= run("sigmoid_chain4", n, [&] { sigmoid_chain4<<<blocks, kBlock>>>(d_x, d_y, n); }, d_y,
              [&](int i) { return chain(x[i], 4); });
    ok &= run("sigmoid_chain16", n, [&] { sigmoid_chain16<<<blocks, kBlock>>>(d_x, d_y, n); }, d_y,
              [&](int i) { return chain(x[i], 16); });
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
  }
  return ok ? 0 : 1;
}

// A user's ninth program, written on 2026-11-28: integer and bit arithmetic, which no suite
// kernel does much of (their integers are indices): hashing and a random-number generator's
// steps per element.
// - xorshift32_x32: 32 steps of Marsaglia's xorshift32 (three shifts and three xors a step) from
//   each element's seed: shifts and logic, no multiply.
// - murmur_fmix4: the 32-bit MurmurHash3 finaliser applied 4 times to each element (three
//   shift-xors and two multiplies each).
// Over 2^20, 2^22 and 2^24 elements of uint32; each runs five launches back to back and a sample
// of the outputs is checked against the CPU.
// Build (as a user would): nvcc -O3 -arch=sm_90 -o int_kernels tests/profile/int_kernels.cu
// Run: int_kernels
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "staged_check.cuh"

constexpr int kBlock = 256;

__host__ __device__ __forceinline__ std::uint32_t xorshift32(std::uint32_t x, int steps) {
  for (int s = 0; s < steps; ++s) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
  }
  return x;
}

__host__ __device__ __forceinline__ std::uint32_t fmix32(std::uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

__global__ void __launch_bounds__(kBlock) xorshift32_x32(const std::uint32_t* __restrict__ seed,
                                                         std::uint32_t* __restrict__ out, int n) {
  const int i = blockIdx.x * kBlock + threadIdx.x;
  if (i >= n) return;
  std::uint32_t x = seed[i];
#pragma unroll
  for (int s = 0; s < 32; ++s) x = xorshift32(x, 1);
  out[i] = x;
}

__global__ void __launch_bounds__(kBlock) murmur_fmix4(const std::uint32_t* __restrict__ key,
                                                       std::uint32_t* __restrict__ out, int n) {
  const int i = blockIdx.x * kBlock + threadIdx.x;
  if (i >= n) return;
  std::uint32_t h = key[i];
#pragma unroll
  for (int r = 0; r < 4; ++r) h = fmix32(h);
  out[i] = h;
}

namespace {

using staged::run;

std::uint32_t next(std::uint32_t& state) { return state = state * 1664525u + 1013904223u; }

}  // namespace

int main() {
  bool ok = true;
  for (int n : {1 << 20, 1 << 22, 1 << 24}) {
    std::uint32_t state = 99u;
    std::vector<std::uint32_t> in(n);
    for (auto& v : in) v = next(state) | 1u;  // xorshift32 needs a nonzero seed
    std::uint32_t *d_in = nullptr, *d_out = nullptr;
    CHECK(cudaMalloc(&d_in, n * sizeof(std::uint32_t)));
    CHECK(cudaMalloc(&d_out, n * sizeof(std::uint32_t)));
    CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
    const int blocks = n / kBlock;
    // The check compares as doubles within 1e-4 of the value: a wrong hash is nowhere near.
    ok &= run("xorshift32_x32", n, [&] { xorshift32_x32<<<blocks, kBlock>>>(d_in, d_out, n); }, d_out,
              [&](int i) { return static_cast<double>(xorshift32(in[i], 32)); });
    ok &= run("murmur_fmix4", n, [&] { murmur_fmix4<<<blocks, kBlock>>>(d_in, d_out, n); }, d_out, [&](int i) {
      std::uint32_t h = in[i];
      for (int r = 0; r < 4; ++r) h = fmix32(h);
      return static_cast<double>(h);
    });
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
  }
  return ok ? 0 : 1;
}

// Exploratory probe (not part of the build): how many shared-memory wavefronts a warp's load
// takes by access width (32, 64, 128 bits) and by how many distinct addresses its lanes read
// (one for the whole warp, one per half-warp, one per quarter-warp, one per lane). Each kernel
// is one launch of 132 blocks of 256 threads, every thread making kLoads loads of its pattern;
// `roofline profile` collects the wavefronts and the LDS instructions of each launch
// (scripts/device/shared_probe.sh divides one by the other).
#include <cuda_runtime.h>

#include <cstdio>

#include "probe_timing.cuh"

namespace {

constexpr int kLoads = 64;
constexpr int kWords = 4096;  // 16 KiB of shared memory

// Distinct addresses per warp: 1 (broadcast), 2 (one per half-warp), 4 (one per quarter-warp)
// or 32 (one per lane, consecutive elements: conflict free).
template <typename V, int kDistinct>
__global__ void shared_loads(float* out) {
  __shared__ __align__(16) float words[kWords];
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = static_cast<float>(i);
  __syncthreads();
  const V* elements = reinterpret_cast<const V*>(words);
  constexpr int kElements = kWords * sizeof(float) / sizeof(V);
  const int lane = threadIdx.x % 32;
  const int lane_offset = lane / (32 / kDistinct);
  float sum = 0;
#pragma unroll
  for (int k = 0; k < kLoads; ++k) {
    // Each load's base moves by an odd number of 8-element steps: a new address every time
    // (no two of a thread's loads can be merged), 128-byte aligned for the 16-byte elements.
    const int base = (k * 37 * 8) % kElements;
    const V v = elements[(base + lane_offset) % kElements];
    if constexpr (sizeof(V) == 4) sum += v;
    if constexpr (sizeof(V) == 8) sum += v.x + v.y;
    if constexpr (sizeof(V) == 16) sum += v.x + v.y + v.z + v.w;
  }
  // Never true for the data written above, but the compiler cannot know: keeps every load.
  if (sum == -1.0f) out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

template <typename V, int kDistinct>
void run(float* out) {
  shared_loads<V, kDistinct><<<132, 256>>>(out);
  probe::check(cudaGetLastError(), "launch");
}

}  // namespace

int main() {
  float* out = nullptr;
  if (cudaMalloc(&out, 132 * 256 * sizeof(float)) != cudaSuccess) return 1;
  run<float, 1>(out);
  run<float, 32>(out);
  run<float2, 1>(out);
  run<float2, 2>(out);
  run<float2, 32>(out);
  run<float4, 1>(out);
  run<float4, 2>(out);
  run<float4, 4>(out);
  run<float4, 32>(out);
  const cudaError_t e = cudaDeviceSynchronize();
  cudaFree(out);
  std::printf("shared_probe: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}

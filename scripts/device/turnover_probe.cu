// Exploratory probe (not part of the build): what a one-shot grid pays per wave of blocks beyond
// its memory latency. The same per-thread work (nothing, a 4-byte load, a 4-byte store, a load
// and a store) runs either one-shot (one element per thread, a new wave of blocks every
// 270,336 elements on an H100/H200) or grid-stride (one resident wave looping over the same
// elements, one element per trip, unroll 1). Each kernel runs at 128 and 512 waves (trips) over
// DRAM-sized buffers; the time per wave (trip) is the slope between the two, median of 5 event
// timings. Prints one line per kernel, then the grid-stride load's time per trip with a fraction
// of the resident threads (scripts/device/turnover_probe.sh).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "probe_timing.cuh"

namespace {

using probe::check;
using probe::median_ms;

enum Work { kNothing, kLoad, kStore, kLoadStore };

template <int kWork>
__device__ __forceinline__ void element(const float* in, float* out, long long i, float& keep) {
  if constexpr (kWork == kLoad || kWork == kLoadStore) keep += in[i];
  if constexpr (kWork == kStore) out[i] = 1.0f;
  if constexpr (kWork == kLoadStore) out[i] = keep;
}

template <int kWork>
__global__ void one_shot(const float* in, float* out, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  float keep = 0;
  if (i < n) element<kWork>(in, out, i, keep);
  if (keep == -1.0f) out[0] = keep;  // never true for the data below: keeps the load
}

template <int kWork>
__global__ void grid_stride(const float* in, float* out, long long n) {
  float keep = 0;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
#pragma unroll 1
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    element<kWork>(in, out, i, keep);
  if (keep == -1.0f) out[0] = keep;
}

}  // namespace

int main() {
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, 0), "properties");
  const int block = 256;
  const long long resident =
      static_cast<long long>(p.multiProcessorCount) * (p.maxThreadsPerMultiProcessor / block) * block;
  const long long waves_lo = 128, waves_hi = 512, n_max = resident * waves_hi;
  float *in = nullptr, *out = nullptr;
  check(cudaMalloc(&in, n_max * sizeof(float)), "malloc");
  check(cudaMalloc(&out, n_max * sizeof(float)), "malloc");
  check(cudaMemset(in, 0, n_max * sizeof(float)), "memset");
  std::printf("%s, %d SMs, %lld resident threads; per wave (one-shot) or trip (grid-stride) of %lld elements\n",
              p.name, p.multiProcessorCount, resident, resident);
  std::printf("%-12s %-11s %12s %12s %14s\n", "work", "grid", "128 waves ms", "512 waves ms", "ns per wave");
  const char* names[] = {"nothing", "load 4 B", "store 4 B", "load+store"};
  auto run = [&](int work, bool stride) {
    double t[2];
    for (int k = 0; k < 2; ++k) {
      const long long n = resident * (k == 0 ? waves_lo : waves_hi);
      const unsigned grid = static_cast<unsigned>(stride ? resident / block : (n + block - 1) / block);
      t[k] = median_ms([&] {
        switch (work * 2 + (stride ? 1 : 0)) {
          case 0: one_shot<kNothing><<<grid, block>>>(in, out, n); break;
          case 1: grid_stride<kNothing><<<grid, block>>>(in, out, n); break;
          case 2: one_shot<kLoad><<<grid, block>>>(in, out, n); break;
          case 3: grid_stride<kLoad><<<grid, block>>>(in, out, n); break;
          case 4: one_shot<kStore><<<grid, block>>>(in, out, n); break;
          case 5: grid_stride<kStore><<<grid, block>>>(in, out, n); break;
          case 6: one_shot<kLoadStore><<<grid, block>>>(in, out, n); break;
          case 7: grid_stride<kLoadStore><<<grid, block>>>(in, out, n); break;
        }
        check(cudaGetLastError(), "launch");
      });
    }
    std::printf("%-12s %-11s %12.4f %12.4f %14.1f\n", names[work], stride ? "grid-stride" : "one-shot", t[0], t[1],
                (t[1] - t[0]) * 1e6 / (waves_hi - waves_lo));
  };
  for (int work = 0; work < 4; ++work) {
    run(work, false);
    run(work, true);
  }
  // The loaded latency against the DRAM utilization the loads make: the grid-stride 4-byte load
  // with a fraction of the resident threads (fewer bytes in flight), 512 trips of the full grid's
  // elements each. Latency per trip = time / trips; utilization = bytes / time / the best rate.
  std::printf("\n%-10s %12s %14s %10s\n", "threads", "ms", "ns per trip", "GB/s");
  for (int part : {32, 16, 8, 4, 2, 1}) {
    const long long threads = resident / part, n = threads * waves_hi;
    const double t = median_ms([&] {
      grid_stride<kLoad><<<static_cast<unsigned>(threads / block), block>>>(in, out, n);
      check(cudaGetLastError(), "launch");
    });
    std::printf("%-10lld %12.4f %14.1f %10.1f\n", threads, t, t * 1e6 / waves_hi, n * 4.0 / (t * 1e-3) / 1e9);
  }
  cudaFree(in);
  cudaFree(out);
  return 0;
}

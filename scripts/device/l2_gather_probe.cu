// Exploratory probe (not part of the build): how long is a round of random loads that L2 serves?
// A warp's coalesced load is one 128-byte line in one L2 slice; a random gather's 32 lanes reach
// about 32 slices, on both halves of a split L2, and the round lasts until the slowest returns.
// One resident wave of threads loops (grid-stride, one 4-byte load a trip, unroll 1, L1 bypassed
// with __ldcg); each trip loads from a table, at lane-consecutive indices (coalesced) or at a
// multiplicative hash of the element index (random), over tables of 4 MiB and 32 MiB (in L2)
// and 1 GiB (DRAM). Each runs with all of the resident threads, a quarter and a sixteenth of
// them; the time per trip is the slope between 64 and 256 trips, median of 5 event timings.
// Prints one line per case (scripts/device/l2_gather_probe.sh).
#include <cuda_runtime.h>

#include <cstdio>

#include "probe_timing.cuh"

namespace {

using probe::check;
using probe::median_ms;

template <bool kRandom>
__global__ void trips(const float* table, unsigned long long mask, float* out, long long n) {
  float keep = 0;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
#pragma unroll 1
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const unsigned long long at = kRandom ? (static_cast<unsigned long long>(i) * 2654435761ull) & mask
                                          : static_cast<unsigned long long>(i) & mask;
    keep += __ldcg(table + at);
  }
  if (keep == -1.0f) out[0] = keep;  // never true for the zeroed table: keeps the loads
}

template <bool kRandom>
double ns_per_trip(const float* table, unsigned long long elements, float* out, long long threads) {
  const int block = 256;
  const long long blocks = threads / block;
  auto time = [&](long long n_trips) {
    const long long n = blocks * block * n_trips;
    return median_ms([&] { trips<kRandom><<<static_cast<unsigned>(blocks), block>>>(table, elements - 1, out, n); });
  };
  const double lo = time(64), hi = time(256);
  check(cudaGetLastError(), "launch");
  return (hi - lo) * 1e6 / (256 - 64);
}

}  // namespace

int main() {
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, 0), "properties");
  const long long resident = static_cast<long long>(p.multiProcessorCount) * (p.maxThreadsPerMultiProcessor / 256) * 256;
  const unsigned long long big = 1ull << 28;  // 1 GiB of floats
  float *table = nullptr, *out = nullptr;
  check(cudaMalloc(&table, big * sizeof(float)), "malloc");
  check(cudaMalloc(&out, sizeof(float)), "malloc");
  check(cudaMemset(table, 0, big * sizeof(float)), "memset");
  std::printf("%s: %d SMs, %lld resident threads, L2 %d MiB\n", p.name, p.multiProcessorCount, resident,
              p.l2CacheSize >> 20);
  for (const unsigned long long elements : {1ull << 20, 1ull << 23, big})
    for (const long long div : {1LL, 4LL, 16LL}) {
      const long long threads = resident / div;
      std::printf("table %5llu MiB  threads=%-7lld  coalesced: %6.1f ns/trip  random: %6.1f ns/trip\n",
                  elements * 4 >> 20, threads, ns_per_trip<false>(table, elements, out, threads),
                  ns_per_trip<true>(table, elements, out, threads));
    }
  return 0;
}

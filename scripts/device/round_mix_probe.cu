// Exploratory probe (not part of the build): how long is a round of loads when some of a thread's
// loads come from DRAM and the others, issued with them, hit L2? Little's law over rounds needs
// each round's latency: the mean of its loads' latencies, or the slowest one's.
// One resident wave of threads loops over a DRAM-sized stream (grid-stride, one element per trip,
// unroll 1); each trip loads one new 4-byte element of the stream and K more from a 4 MiB table
// that stays in L2 (coalesced like the stream, all loads issued before any is used, L1 bypassed
// with __ldcg so the table's loads reach L2). K = 0, 1, 2, 4; "L2 only" loads the table alone
// (K + 1 loads a trip, no DRAM). Each runs with all of the resident threads and with a quarter
// of them; the time per trip is the slope between 64 and 256 trips, median of 5 event timings.
// Prints one line per case (scripts/device/round_mix_probe.sh).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "probe_timing.cuh"

namespace {

using probe::check;
using probe::median_ms;

constexpr long long kTableElements = 1 << 20;  // 4 MiB of floats: L2-resident on an H100/H200

template <int K, bool kStream>
__global__ void rounds(const float* stream, const float* table, float* out, long long n) {
  float keep = 0;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
#pragma unroll 1
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    float v[K + 1];
    v[0] = kStream ? __ldcg(stream + i) : __ldcg(table + ((i + 4099) & (kTableElements - 1)));
#pragma unroll
    for (int j = 1; j <= K; ++j) v[j] = __ldcg(table + ((i + j * 65537) & (kTableElements - 1)));
#pragma unroll
    for (int j = 0; j <= K; ++j) keep += v[j];
  }
  if (keep == -1.0f) out[0] = keep;  // never true for the data below: keeps the loads
}

struct Buffers {
  const float* stream;
  const float* table;
  float* out;
};

// Nanoseconds per trip of `kernel` with `threads` threads in blocks of 256.
template <int K, bool kStream>
double ns_per_trip(const Buffers& b, long long threads) {
  const int block = 256;
  const long long blocks = threads / block;
  auto time = [&](long long trips) {
    const long long n = blocks * block * trips;
    return median_ms([&] { rounds<K, kStream><<<static_cast<unsigned>(blocks), block>>>(b.stream, b.table, b.out, n); });
  };
  const double lo = time(64), hi = time(256);
  check(cudaGetLastError(), "launch");
  return (hi - lo) * 1e6 / (256 - 64);
}

template <int K>
void line(const Buffers& b, long long resident, double bytes_per_s) {
  for (const long long div : {1LL, 4LL}) {
    const long long threads = resident / div;
    const double mixed = ns_per_trip<K, true>(b, threads), l2_only = ns_per_trip<K, false>(b, threads);
    // The stream's DRAM utilization at this time per trip.
    const double u = threads * 4.0 / (mixed * 1e-9) / bytes_per_s;
    std::printf("K=%d  threads=%-7lld  stream + %d L2 loads: %6.1f ns/trip (stream at %4.2f of %.2f TB/s)"
                "  |  %d L2 loads: %6.1f ns/trip\n",
                K, threads, K, mixed, u, bytes_per_s / 1e12, K + 1, l2_only);
  }
}

}  // namespace

int main() {
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, 0), "properties");
  const long long resident = static_cast<long long>(p.multiProcessorCount) * (p.maxThreadsPerMultiProcessor / 256) * 256;
  const long long n_max = resident * 256;
  float *stream = nullptr, *table = nullptr, *out = nullptr;
  check(cudaMalloc(&stream, n_max * sizeof(float)), "malloc");
  check(cudaMalloc(&table, kTableElements * sizeof(float)), "malloc");
  check(cudaMalloc(&out, sizeof(float)), "malloc");
  check(cudaMemset(stream, 0, n_max * sizeof(float)), "memset");
  check(cudaMemset(table, 0, kTableElements * sizeof(float)), "memset");
  int bus = 0, mem_clock = 0;
  check(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0), "attribute");
  check(cudaDeviceGetAttribute(&mem_clock, cudaDevAttrMemoryClockRate, 0), "attribute");
  const double peak = 2.0 * mem_clock * 1e3 * bus / 8;  // bytes/s, the datasheet way
  std::printf("%s: %d SMs, %lld resident threads, DRAM peak %.2f TB/s, table %lld KiB\n", p.name,
              p.multiProcessorCount, resident, peak / 1e12, kTableElements * 4 / 1024);
  const Buffers b{stream, table, out};
  line<0>(b, resident, peak);
  line<1>(b, resident, peak);
  line<2>(b, resident, peak);
  line<4>(b, resident, peak);
  return 0;
}

// Exploratory probe (not part of the build): how fast the L2 applies a warp's global atomics
// into a 1 KiB table (256 words, 8 lines of 128 bytes) as the warp's lanes and their words
// change: how many lanes take part, whether two of them meet on one word, and how many lines
// one warp instruction touches. Asked after a warp-aggregated histogram (its leaders, ~18 per
// warp, each on a word of its own within one line) ran 1.6 times the rate roofline calibrate
// measures for random lanes over such a table (docs/results/science-kernels.md). One resident
// wave of 256-thread blocks, 64 atomic instructions per thread; each case's best of three
// launches, and its atomics per SM clock at the device's clock rate.
#include <cuda_runtime.h>

#include <cstdio>

enum Mode {
  kRandomWords,           // every lane a random word of the table (duplicates in a warp: ~2)
  kDistinctSpread,        // 32 distinct words, four in each of the 8 lines
  kDistinctOneLine,       // 32 distinct words of one line (a rotation of the line's words)
  kRandomOneLine,         // every lane a random word of one line (duplicates: ~11)
  kHalfDistinctSpread,    // 18 lanes, distinct words spread over the lines; the rest idle
  kHalfDistinctOneLine,   // 18 lanes, distinct words of one line
  kHistogramLeaders,      // the histogram's: bytes a + b (0-15 each), lanes of one byte matched, the leader adds
};

__device__ unsigned hash(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  return x ^ (x >> 16);
}

__global__ void atomics(unsigned* table, int mode, int per_thread, unsigned long long* made) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32, warp = tid / 32;
  unsigned count = 0;
  for (int k = 0; k < per_thread; ++k) {
    const unsigned w = hash(warp * 131u + k), l = hash(tid * 977u + k);  // per warp, per lane
    switch (mode) {
      case kRandomWords: atomicAdd(&table[l % 256], 1u), ++count; break;
      case kDistinctSpread: atomicAdd(&table[(w + lane * 8) % 256], 1u), ++count; break;
      case kDistinctOneLine: atomicAdd(&table[(w % 8) * 32 + (lane + w) % 32], 1u), ++count; break;
      case kRandomOneLine: atomicAdd(&table[(w % 8) * 32 + l % 32], 1u), ++count; break;
      case kHalfDistinctSpread:
        if (lane < 18) atomicAdd(&table[(w + lane * 8) % 256], 1u), ++count;
        break;
      case kHalfDistinctOneLine:
        if (lane < 18) atomicAdd(&table[(w % 8) * 32 + (lane + w) % 32], 1u), ++count;
        break;
      case kHistogramLeaders: {
        const unsigned v = (l >> 4) % 16 + (l >> 12) % 16;
        const unsigned peers = __match_any_sync(0xffffffffu, v);
        if (lane == static_cast<unsigned>(__ffs(peers) - 1)) atomicAdd(&table[v], __popc(peers)), ++count;
        break;
      }
    }
  }
  // One count per warp: a count per thread would itself be 270 thousand atomics on one word.
  count = __reduce_add_sync(0xffffffffu, count);
  if (lane == 0) atomicAdd(made, static_cast<unsigned long long>(count));
}

int main() {
  int sms = 0, blocks_per_sm = 0, khz = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, atomics, 256, 0);
  const int blocks = sms * blocks_per_sm, per_thread = 64;
  unsigned* table = nullptr;
  unsigned long long* made = nullptr;
  cudaMalloc(&table, 1024);
  cudaMemset(table, 0, 1024);
  cudaMallocManaged(&made, sizeof(unsigned long long));
  const char* names[] = {"random words (32 lanes)",        "distinct, spread over 8 lines",
                         "distinct, one line",             "random words of one line",
                         "18 lanes distinct, spread",      "18 lanes distinct, one line",
                         "histogram leaders (match_any)"};
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::printf("%d SMs x %d blocks of 256, %d atomic instructions per thread, clock %.3f GHz\n", sms, blocks_per_sm,
              per_thread, khz * 1e-6);
  std::printf("%-32s %12s %10s %12s %16s\n", "case", "atomics", "ms", "atomics/clk", "warp inst/clk");
  for (int mode = kRandomWords; mode <= kHistogramLeaders; ++mode) {
    float best = 1e30f;
    unsigned long long count = 0;
    for (int rep = 0; rep < 4; ++rep) {  // the first launch warms up
      *made = 0;
      cudaEventRecord(a);
      atomics<<<blocks, 256>>>(table, mode, per_thread, made);
      cudaEventRecord(b);
      cudaEventSynchronize(b);
      float ms = 0;
      cudaEventElapsedTime(&ms, a, b);
      if (rep > 0 && ms < best) best = ms, count = *made;
    }
    const double clocks = best * 1e-3 * khz * 1e3;
    const double warp_inst = static_cast<double>(blocks) * 8 * per_thread;
    std::printf("%-32s %12llu %10.3f %12.3f %16.4f\n", names[mode], count, best, count / clocks, warp_inst / clocks);
  }
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

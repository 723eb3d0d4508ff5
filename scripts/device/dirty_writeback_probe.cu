// Exploratory probe (not part of the build): does the L2 write dirty lines back to DRAM while a
// kernel keeps them dirty, without any eviction pressure? Long-running kernels that touch only
// a small table (it stays in L2) either add 1 to random words of it with atomics, store to it,
// or do neither (arithmetic only), for a number of trips that sets the duration. Run under ncu
// (scripts/device/dirty_writeback_probe.sh), which gives each launch's DRAM write sectors and
// duration: a write-back rate per microsecond, if there is one, shows as writes growing with
// the duration.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "probe_timing.cuh"

namespace {

using probe::check;

enum Work { kArithmetic, kStore, kAtomic };

template <int kWork>
__global__ void touch(unsigned* table, unsigned mask, int trips) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x, keep = 0;
#pragma unroll 1
  for (int t = 0; t < trips; ++t) {
    x = x * 1664525u + 1013904223u;  // a different word every trip
    if constexpr (kWork == kAtomic) atomicAdd(table + (x >> 8 & mask), 1u);
    if constexpr (kWork == kStore) table[x >> 8 & mask] = x;
    if constexpr (kWork == kArithmetic) keep += x;
  }
  if (keep == 1u) table[0] = keep;  // keeps the arithmetic
}

}  // namespace

int main() {
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, 0), "properties");
  unsigned* table = nullptr;
  const unsigned words = 1u << 18;  // 1 MiB
  check(cudaMalloc(&table, words * sizeof(unsigned)), "malloc");
  check(cudaMemset(table, 0, words * sizeof(unsigned)), "memset");
  const int blocks = p.multiProcessorCount * 8, block = 256;
  // Table sizes (words): 256 (1 KiB, a histogram's) and 2^18 (1 MiB); trips set the duration.
  for (unsigned table_words : {256u, 1u << 18})
    for (int trips : {256, 1024, 4096}) {
      touch<kAtomic><<<blocks, block>>>(table, table_words - 1, trips);
      touch<kStore><<<blocks, block>>>(table, table_words - 1, trips);
      touch<kArithmetic><<<blocks, block>>>(table, table_words - 1, trips * 16);
    }
  // Arithmetic alone, longer: 14 to 220 ms.
  for (int trips : {16384, 65536, 262144}) touch<kArithmetic><<<blocks, block>>>(table, 0, trips * 16);
  check(cudaDeviceSynchronize(), "sync");
  std::printf("done: %d blocks of %d threads\n", blocks, block);
  return 0;
}

// Exploratory probe: does roofline's L2 flush leave a kernel slower than ncu's cache control
// does by evicting its buffers' address translations? The flush writes and reads a buffer of
// four L2s (profiler/l2_flush.cu); ncu invalidates the L2 without touching other memory. A cold
// FP32 add over n elements is timed (its own time: the first block's start to the last block's
// end by %globaltimer, median of 21) after
//   flush          the flush alone;
//   flush+touch    the flush, then a kernel reading one word of every 64 KiB of the add's buffers
//                  (their translations cached again; 3 sectors per 2 MiB of data left in L2);
//   flush+other    the flush, then the same kernel over another buffer of the add's size (the
//                  extra launch without the add's translations);
//   warm           nothing between launches.
#include <cstdint>
#include <cstdio>

#include "scripts/device/probe_timing.cuh"

namespace {

__device__ unsigned long long g_start, g_end;

__device__ __forceinline__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

__global__ void add(const float* a, const float* b, float* c, int n) {
  if (threadIdx.x == 0) atomicMin(&g_start, now());
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
  __syncthreads();
  if (threadIdx.x == 0) atomicMax(&g_end, now());
}

__global__ void sweep_read(const uint4* data, std::size_t words, unsigned* sink) {
  uint4 acc{0, 0, 0, 0};
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < words; i += std::size_t{gridDim.x} * blockDim.x) {
    const uint4 v = data[i];
    acc.x ^= v.x;
  }
  if (acc.x == 0x12345678u) *sink = acc.x;
}

// One word of every 64 KiB page of `bytes` at p.
__global__ void touch(const float* p, std::size_t bytes, unsigned* sink) {
  const std::size_t pages = bytes >> 16;
  float acc = 0;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < pages; i += std::size_t{gridDim.x} * blockDim.x)
    acc += p[i << 14];
  if (acc == 1234.5f) *sink = 1;
}

}  // namespace

int main() {
  int l2 = 0;
  probe::check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0), "L2 size");
  const std::size_t flush_bytes = std::size_t{4} * l2;
  void* flush = nullptr;
  unsigned* sink = nullptr;
  probe::check(cudaMalloc(&flush, flush_bytes), "malloc flush");
  probe::check(cudaMalloc(&sink, sizeof(unsigned)), "malloc sink");
  std::printf("L2 %d bytes; flush buffer %zu bytes, written then read\n", l2, flush_bytes);
  std::printf("%-10s %-12s %14s\n", "n", "before", "add's own ns");
  for (int n : {1 << 18, 1 << 20, 1 << 22, 1 << 24}) {
    const std::size_t bytes = std::size_t(n) * sizeof(float);
    float *a, *b, *c, *other;
    for (float** p : {&a, &b, &c, &other}) probe::check(cudaMalloc(p, bytes), "malloc");
    for (float* p : {a, b, c, other}) probe::check(cudaMemset(p, 0, bytes), "memset");
    const auto do_flush = [&] {
      probe::check(cudaMemsetAsync(flush, n & 0xff, flush_bytes), "flush memset");
      sweep_read<<<528, 512>>>(static_cast<const uint4*>(flush), flush_bytes / sizeof(uint4), sink);
    };
    const char* names[] = {"flush", "flush+touch", "flush+other", "warm"};
    for (int mode = 0; mode < 4; ++mode) {
      std::vector<double> ns;
      for (int r = 0; r < 22; ++r) {
        if (mode < 3) do_flush();
        if (mode == 1)
          for (float* p : {a, b, c}) touch<<<8, 256>>>(p, bytes, sink);
        if (mode == 2)
          for (int k = 0; k < 3; ++k) touch<<<8, 256>>>(other, bytes, sink);
        const unsigned long long start = ~0ull, end = 0;
        probe::check(cudaMemcpyToSymbol(g_start, &start, sizeof start), "reset start");
        probe::check(cudaMemcpyToSymbol(g_end, &end, sizeof end), "reset end");
        add<<<(n + 255) / 256, 256>>>(a, b, c, n);
        probe::check(cudaDeviceSynchronize(), "add");
        unsigned long long s = 0, e = 0;
        probe::check(cudaMemcpyFromSymbol(&s, g_start, sizeof s), "start");
        probe::check(cudaMemcpyFromSymbol(&e, g_end, sizeof e), "end");
        if (r > 0) ns.push_back(static_cast<double>(e - s));
      }
      std::sort(ns.begin(), ns.end());
      std::printf("%-10d %-12s %14.0f\n", n, names[mode], ns[ns.size() / 2]);
    }
    for (float* p : {a, b, c, other}) probe::check(cudaFree(p), "free");
  }
  return 0;
}

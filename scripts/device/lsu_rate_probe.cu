// Exploratory probe (not part of the build): how many L1 wavefronts an SM's load/store unit serves
// per clock for global loads that hit L1, beside shared-memory loads: the model assumes one
// (`lsu_wavefronts_per_clock_per_sm`), and its LSU-bound kernels (the naive SGEMM) ran at 75-83 %
// of that with L1 misses among their hits (docs/model.md). One resident wave of 256-thread blocks;
// each thread makes 8 independent loads per trip, 512 trips, from 8 consecutive of the 24 lines
// of a table every block shares (12 KiB at most: L1-resident after the first trips), the first
// line turning with the trip so that no load can be hoisted out of the loop (the 8 are one base
// and immediate offsets: one instruction each), and adds them. Prints each case's best of three
// launches: warp load instructions and wavefronts per SM clock, at the device's clock rate.
#include <cuda_runtime.h>

#include <cstdio>

enum Mode {
  kCoalesced4,   // lane l reads word l of a line: one wavefront per request
  kBroadcast4,   // every lane the same word: one wavefront
  kCoalesced16,  // lane l reads 16 bytes, four lines: four wavefronts
  kShared4,      // the same pattern as kCoalesced4 from shared memory
};

constexpr int kTrips = 512, kIlp = 8;

template <int mode>
__global__ void loads(const float* __restrict__ table, float* out) {
  __shared__ float staged[24 * 32];
  for (int i = threadIdx.x; i < 24 * 32; i += blockDim.x) staged[i] = table[i];
  __syncthreads();
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float sum = 0.0f;
  for (int t = 0; t < kTrips; ++t) {
    float v[kIlp];
#pragma unroll
    for (int j = 0; j < kIlp; ++j) {
      const unsigned line = (warp + t) % 16 + j;  // 8 consecutive of 24 lines of 32 words
      if constexpr (mode == kCoalesced4) v[j] = table[line * 32 + lane];
      if constexpr (mode == kBroadcast4) v[j] = table[line * 32];
      if constexpr (mode == kCoalesced16) {
        const float4 q = reinterpret_cast<const float4*>(table)[line * 32 + lane];
        v[j] = (q.x + q.y) + (q.z + q.w);
      }
      if constexpr (mode == kShared4) v[j] = staged[line * 32 + lane];
    }
#pragma unroll
    for (int j = 0; j < kIlp; ++j) sum += v[j];
  }
  if (sum == -1.0f) out[threadIdx.x] = sum;  // never: keeps the loads
}

int main() {
  int sms = 0, khz = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
  const void* kernels[] = {reinterpret_cast<const void*>(loads<kCoalesced4>),
                           reinterpret_cast<const void*>(loads<kBroadcast4>),
                           reinterpret_cast<const void*>(loads<kCoalesced16>),
                           reinterpret_cast<const void*>(loads<kShared4>)};
  float *table = nullptr, *out = nullptr;
  cudaMalloc(&table, 24 * 32 * 16);
  cudaMemset(table, 0, 24 * 32 * 16);
  cudaMalloc(&out, 1024);
  const char* names[] = {"global, 4 B coalesced (1 wavefront)", "global, 4 B broadcast (1 wavefront)",
                         "global, 16 B coalesced (4 wavefronts)", "shared, 4 B conflict-free (1 wavefront)"};
  const double wavefronts[] = {1, 1, 4, 1};
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::printf("%d SMs, %d loads per thread, clock %.3f GHz\n", sms, kTrips * kIlp, khz * 1e-6);
  std::printf("%-40s %6s %10s %18s %22s\n", "case", "blocks", "ms", "warp loads/clk/SM", "wavefronts/clk/SM");
  for (int mode = kCoalesced4; mode <= kShared4; ++mode) {
    int blocks_per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernels[mode], 256, 0);
    const int blocks = sms * blocks_per_sm;
    float best = 1e30f;
    for (int rep = 0; rep < 4; ++rep) {  // the first launch warms up
      void* args[] = {&table, &out};
      cudaEventRecord(a);
      cudaLaunchKernel(kernels[mode], blocks, 256, args, 0, nullptr);
      cudaEventRecord(b);
      cudaEventSynchronize(b);
      float ms = 0;
      cudaEventElapsedTime(&ms, a, b);
      if (rep > 0 && ms < best) best = ms;
    }
    const double clocks = best * 1e-3 * khz * 1e3;
    const double per_sm = static_cast<double>(blocks_per_sm) * 8 * kTrips * kIlp / clocks;
    std::printf("%-40s %6d %10.3f %18.3f %22.3f\n", names[mode], blocks_per_sm, best, per_sm,
                per_sm * wavefronts[mode]);
  }
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

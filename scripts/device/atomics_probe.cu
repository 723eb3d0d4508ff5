// Exploratory probe (not part of the build): how fast the L2 applies global atomicAdd as their
// addresses spread. Each case launches one resident wave of 256-thread blocks; every thread adds
// `per_thread` times, lane l to word f(l, k). Prints atomics per SM clock (1.98 GHz assumed) so
// the model's atomic term can be chosen from data: scripts/device/atomics_probe.sh.
#include <cuda_runtime.h>

#include <cstdio>

enum Mode { kOneWord, kOneLine, kLanesIn256Words, kRandomIn256Words, kRandomIn64KWords, kLane0OneWord };

__global__ void atomics(unsigned* words, int mode, int per_thread) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
  unsigned h = tid * 2654435761u;
  for (int k = 0; k < per_thread; ++k) {
    h = h * 1664525u + 1013904223u;
    switch (mode) {
      case kOneWord: atomicAdd(words, 1u); break;
      case kOneLine: atomicAdd(words + lane, 1u); break;
      case kLanesIn256Words: atomicAdd(words + ((lane + 32 * k) & 255), 1u); break;
      case kRandomIn256Words: atomicAdd(words + (h >> 24), 1u); break;
      case kRandomIn64KWords: atomicAdd(words + (h >> 16), 1u); break;
      case kLane0OneWord:
        if (lane == 0) atomicAdd(words, 1u);
        break;
    }
  }
}

int main() {
  int sms = 0, blocks_per_sm = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, atomics, 256, 0);
  const int blocks = sms * blocks_per_sm, per_thread = 64;
  unsigned* words = nullptr;
  cudaMalloc(&words, 65536 * 4);
  const char* names[] = {"one word, every lane", "one 128-B line, lane l on word l", "256 words, lanes consecutive",
                         "256 words, random per lane", "65536 words, random per lane", "one word, lane 0 only"};
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (int mode = 0; mode <= kLane0OneWord; ++mode) {
    atomics<<<blocks, 256>>>(words, mode, 4);  // warm-up
    cudaEventRecord(a);
    atomics<<<blocks, 256>>>(words, mode, per_thread);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    const double count = static_cast<double>(blocks) * 256 * per_thread / (mode == kLane0OneWord ? 32 : 1);
    const double warp_ops = static_cast<double>(blocks) * 8 * per_thread;
    std::printf("%-36s %12.0f atomics %9.3f ms %8.3f atomics/clk %8.3f warp instructions/clk\n", names[mode], count, ms,
                count / (ms * 1e-3 * 1.98e9), warp_ops / (ms * 1e-3 * 1.98e9));
  }
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

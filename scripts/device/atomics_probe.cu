// Exploratory probe (not part of the build): how fast the L2 applies global atomics as their
// addresses spread. Each case launches one resident wave of 256-thread blocks; every thread
// adds `per_thread` times, lane l to a word its case chooses. Prints each case's best time of
// three, and atomics and line requests (a warp instruction's distinct 128-byte lines) per
// cycle of block 0's clock64() over that time: a rough clock, low when block 0 ends early, so
// the model's terms were read from the times; `roofline calibrate` measures their values
// (scripts/device/atomics_probe.sh).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>

enum Mode { kLane0OneWord, kOneWordAllLanes, kOneLineLaneWord, kRandomWords, kContiguousLines };

template <typename T>
__global__ void atomics(T* words, int mode, unsigned word_mask, int per_thread, long long* cycles) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32, warp = tid / 32;
  const long long start = clock64();
  unsigned h = tid * 2654435761u;
  for (int k = 0; k < per_thread; ++k) {
    h = h * 1664525u + 1013904223u;
    switch (mode) {
      case kLane0OneWord:
        if (lane == 0) atomicAdd(words, T(1));
        break;
      case kOneWordAllLanes: atomicAdd(words + (h & word_mask), T(1)); break;
      case kOneLineLaneWord: atomicAdd(words + lane, T(1)); break;
      case kRandomWords: atomicAdd(words + ((h >> 7) & word_mask), T(1)); break;
      case kContiguousLines: atomicAdd(words + ((((warp + 977u * k) * 32u) + lane) & word_mask), T(1)); break;
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) *cycles = clock64() - start;
}

struct Case {
  const char* name;
  int mode;
  unsigned words;  // power of two
  bool f32;
};

int main() {
  int sms = 0, blocks_per_sm = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, atomics<unsigned>, 256, 0);
  const int blocks = sms * blocks_per_sm, per_thread = 64;
  const unsigned max_words = 1u << 22;
  void* words = nullptr;
  long long* cycles = nullptr;
  cudaMalloc(&words, max_words * 4);
  cudaMemset(words, 0, max_words * 4);
  cudaMallocManaged(&cycles, sizeof(long long));
  const Case cases[] = {
      {"one word, lane 0 only, u32", kLane0OneWord, 1, false},
      {"one word, lane 0 only, f32", kLane0OneWord, 1, true},
      {"one word, every lane, f32", kOneWordAllLanes, 1, true},
      {"one line, lane l on word l, u32", kOneLineLaneWord, 32, false},
      {"one line, lane l on word l, f32", kOneLineLaneWord, 32, true},
      {"random words, u32", kRandomWords, 32, false},
      {"random words, u32", kRandomWords, 64, false},
      {"random words, u32", kRandomWords, 128, false},
      {"random words, u32", kRandomWords, 256, false},
      {"random words, f32", kRandomWords, 256, true},
      {"random words, u32", kRandomWords, 1024, false},
      {"random words, u32", kRandomWords, 4096, false},
      {"random words, u32", kRandomWords, 16384, false},
      {"random words, u32", kRandomWords, 65536, false},
      {"random words, f32", kRandomWords, 65536, true},
      {"random words, u32", kRandomWords, 1u << 20, false},
      {"random words, u32", kRandomWords, 1u << 22, false},
      {"contiguous lanes, a line per warp, u32", kContiguousLines, 1u << 22, false},
      {"contiguous lanes, a line per warp, f32", kContiguousLines, 1u << 22, true},
  };
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::printf("%-40s %9s %7s %10s %9s %10s %12s %12s %14s\n", "case", "words", "lines", "atomics", "ms", "SM GHz",
              "atomics/clk", "warp inst/clk", "line req/clk");
  for (const Case& c : cases) {
    float best = 1e30f;
    long long best_cycles = 0;
    for (int rep = 0; rep < 4; ++rep) {  // first launch warms up
      cudaEventRecord(a);
      if (c.f32)
        atomics<float><<<blocks, 256>>>(static_cast<float*>(words), c.mode, c.words - 1, per_thread, cycles);
      else
        atomics<unsigned><<<blocks, 256>>>(static_cast<unsigned*>(words), c.mode, c.words - 1, per_thread, cycles);
      cudaEventRecord(b);
      cudaEventSynchronize(b);
      float ms = 0;
      cudaEventElapsedTime(&ms, a, b);
      if (rep > 0 && ms < best) best = ms, best_cycles = *cycles;
    }
    const double lanes = c.mode == kLane0OneWord ? 1 : 32;
    const double warp_ops = static_cast<double>(blocks) * 8 * per_thread;
    const double count = warp_ops * lanes;
    const double lines = c.words * 4.0 / 128 < 1 ? 1 : c.words * 4.0 / 128;
    // Distinct lines of one warp instruction: one unless the lanes are random over several.
    const double per_warp =
        c.mode == kRandomWords ? lines * (1 - std::pow(1 - 1 / lines, 32.0)) : 1.0;
    const double clk = best_cycles / (best * 1e-3);  // block 0's cycles over the launch's time
    const double clocks = best * 1e-3 * clk;
    std::printf("%-40s %9u %7.0f %10.0f %9.3f %10.3f %12.3f %12.4f %14.3f\n", c.name, c.words, lines, count, best,
                clk / 1e9, count / clocks, warp_ops / clocks, warp_ops * per_warp / clocks);
  }
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

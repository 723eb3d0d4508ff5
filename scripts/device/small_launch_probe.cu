// Exploratory: why the warm 2^20 one-shot launches' medians fall near 5.6-5.9 us in some runs and
// near 6.4-6.7 in others (docs/model.md). The suite's write-only grid (4,096 blocks of 256, one
// 4-byte store each, its 4 MiB L2-resident) timed the ways a timing could differ: queued behind a
// spinning kernel in batches of 64 with an event pair around each launch (as `measure` times
// kernels), by position in the batch; the same batches with no events between the launches (their
// throughput); and each launch alone, the host waiting for the one before (the GPU idle between).
// Prints, per way, the minimum, the quartiles and the share under 6.1 us; then batches of 4 to 32.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "probe_timing.cuh"

namespace {

__global__ void write_only(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.0f;
}

__global__ void hold(volatile int* go) {
  while (*go == 0) {
  }
}

constexpr int kN = 1 << 20, kBatch = 64, kBatches = 30;

void summary(const char* way, std::vector<float> us) {
  std::sort(us.begin(), us.end());
  const auto q = [&](double f) { return us[static_cast<std::size_t>(f * (us.size() - 1))]; };
  const double fast = std::count_if(us.begin(), us.end(), [](float t) { return t < 6.1f; });
  std::printf("%-44s n=%5zu min %.2f  p25 %.2f  median %.2f  p75 %.2f  max %.2f us  under 6.1 us: %.0f %%\n", way,
              us.size(), q(0), q(0.25), q(0.5), q(0.75), q(1), 100.0 * fast / us.size());
}

}  // namespace

int main() {
  float* out = nullptr;
  probe::check(cudaMalloc(&out, kN * sizeof(float)), "malloc");
  int* go = nullptr;
  probe::check(cudaHostAlloc(&go, sizeof(int), cudaHostAllocMapped), "host alloc");
  int* go_device = nullptr;
  probe::check(cudaHostGetDevicePointer(&go_device, go, 0), "device pointer");
  cudaStream_t s;
  probe::check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
  std::vector<cudaEvent_t> ev(2 * kBatch);
  for (auto& e : ev) probe::check(cudaEventCreate(&e), "event");
  const auto launch = [&] { write_only<<<kN / 256, 256, 0, s>>>(out, kN); };
  for (int i = 0; i < 100; ++i) launch();
  probe::check(cudaStreamSynchronize(s), "warm-up");
  // One hold of `size` launches queued behind the spinning kernel, an event pair around each:
  // their times in us, in queue order.
  const auto timed_hold = [&](int size) {
    *go = 0;
    hold<<<1, 1, 0, s>>>(go_device);
    for (int i = 0; i < size; ++i) {
      probe::check(cudaEventRecord(ev[2 * i], s), "record");
      launch();
      probe::check(cudaEventRecord(ev[2 * i + 1], s), "record");
    }
    *go = 1;
    probe::check(cudaStreamSynchronize(s), "batch");
    std::vector<float> us(size);
    for (int i = 0; i < size; ++i) {
      float ms = 0;
      probe::check(cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]), "elapsed");
      us[i] = ms * 1e3f;
    }
    return us;
  };

  std::vector<float> queued, first, rest, by_position(kBatch, 0.0f), throughput, alone;
  for (int b = 0; b < kBatches; ++b) {
    const std::vector<float> us = timed_hold(kBatch);
    for (int i = 0; i < kBatch; ++i) {
      queued.push_back(us[i]);
      (i == 0 ? first : rest).push_back(us[i]);
      by_position[i] += us[i] / kBatches;
    }
    // The same batch with one event pair around all of it.
    *go = 0;
    hold<<<1, 1, 0, s>>>(go_device);
    probe::check(cudaEventRecord(ev[0], s), "record");
    for (int i = 0; i < kBatch; ++i) launch();
    probe::check(cudaEventRecord(ev[1], s), "record");
    *go = 1;
    probe::check(cudaStreamSynchronize(s), "batch");
    float ms = 0;
    probe::check(cudaEventElapsedTime(&ms, ev[0], ev[1]), "elapsed");
    throughput.push_back(ms * 1e3f / kBatch);
    // Alone: the host waits for each launch, so the GPU is idle before the next.
    for (int i = 0; i < 8; ++i) {
      probe::check(cudaEventRecord(ev[0], s), "record");
      launch();
      probe::check(cudaEventRecord(ev[1], s), "record");
      probe::check(cudaEventSynchronize(ev[1]), "sync");
      probe::check(cudaEventElapsedTime(&ms, ev[0], ev[1]), "elapsed");
      alone.push_back(ms * 1e3f);
    }
  }
  summary("queued, event pair per launch (as measure)", queued);
  summary("  the first launch of each batch", first);
  summary("  the other 63", rest);
  summary("queued, no events between (per launch)", throughput);
  summary("alone, the host waiting for each", alone);
  std::printf("mean by position in the batch (us):");
  for (int i = 0; i < kBatch; ++i) std::printf("%s%.2f", i % 16 == 0 ? "\n  " : " ", by_position[i]);
  std::printf("\n");
  // Batches of other sizes: is the fast tail the last launches of any batch, or those after a
  // given position?
  for (const int size : {4, 8, 16, 32}) {
    std::vector<float> all, position(size, 0.0f);
    for (int b = 0; b < kBatches; ++b) {
      const std::vector<float> us = timed_hold(size);
      for (int i = 0; i < size; ++i) {
        all.push_back(us[i]);
        position[i] += us[i] / kBatches;
      }
    }
    char way[64];
    std::snprintf(way, sizeof way, "queued in batches of %d", size);
    summary(way, all);
    std::printf("  mean by position (us):");
    for (int i = 0; i < size; ++i) std::printf(" %.2f", position[i]);
    std::printf("\n");
  }
  return 0;
}

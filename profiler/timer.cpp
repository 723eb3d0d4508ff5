#include "profiler/timer.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

#include "kernels/cuda_check.hpp"
#include "kernels/queued_timing.hpp"
#include "kernels/stream_blocker.hpp"
#include "models/error.hpp"

namespace roofline {

TimingStats time_launches(KernelRunner& runner, CacheState cache, const TimerOptions& options, L2Flush* flush,
                          void* stream) {
  if (cache == CacheState::cold && flush == nullptr) throw Error("time_launches: cold timing needs an L2Flush");
  if (cache == CacheState::cold && options.back_to_back)
    throw InputError("back-to-back launches (--timing loop) run warm: nothing flushes the L2 between them; measure "
                     "them with --cache warm");
  auto s = static_cast<cudaStream_t>(stream);
  const bool cold = cache == CacheState::cold;
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();

  for (int i = 0; i < options.warmup; ++i) {
    if (cold) flush->flush(s);
    runner.launch(s);
  }
  ROOFLINE_CUDA_CHECK(cudaStreamSynchronize(s));
  ROOFLINE_CUDA_CHECK(cudaGetLastError());

  // Batches: the first one is min_repetitions, later ones grow with what is already there, so
  // the budget is checked O(log n) times rather than after every launch.
  constexpr int kMaxBatch = 64;
  std::vector<double> times;
  times.reserve(static_cast<std::size_t>(std::max(options.min_repetitions, 1)) * 4);
  TimingStats stats;
  const std::function<void()> launch = [&] { runner.launch(s); };
  const std::function<void()> before = cold ? std::function<void()>([&] { flush->flush(s); }) : nullptr;
  // Back to back, a repetition is one chunk's time per launch, and the first batch one chunk (64
  // launches of a long kernel already pass the budget).
  constexpr int kLoopChunk = StreamBlocker::kMaxQueuedLaunches;
  int batch = options.back_to_back ? 1 : std::clamp(options.min_repetitions, 1, kMaxBatch);
  for (;;) {
    batch = std::min(batch, options.max_repetitions - static_cast<int>(times.size()));
    if (batch <= 0) break;
    const auto batch_times = options.back_to_back ? time_back_to_back(s, batch, kLoopChunk, launch)
                                                  : time_queued_launches(s, batch, launch, before);
    times.insert(times.end(), batch_times.begin(), batch_times.end());
    stats = summarize_times(times);
    const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
    if (timing_done(stats, options, elapsed)) break;
    // Size the next batch to what the remaining budget allows (at least 1, at most kMaxBatch).
    const double launches_per_time = options.back_to_back ? kLoopChunk : 1;
    const double per_time = elapsed / (static_cast<double>(times.size()) +
                                       static_cast<double>(options.warmup) / launches_per_time);
    const double left = options.budget_s - elapsed;
    const int affordable = per_time > 0.0 ? static_cast<int>(left / per_time) : kMaxBatch;
    batch = std::clamp(std::min(static_cast<int>(times.size()), affordable), 1, kMaxBatch);
  }
  return stats;
}

}  // namespace roofline

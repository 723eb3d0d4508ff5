#include "profiler/timer.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "kernels/cuda_check.hpp"
#include "kernels/stream_blocker.hpp"
#include "models/error.hpp"

namespace roofline {
namespace {

// A pool of event pairs, destroyed on scope exit.
class EventPairs {
 public:
  explicit EventPairs(int count) {
    events_.resize(2 * static_cast<std::size_t>(count));
    for (auto& e : events_) ROOFLINE_CUDA_CHECK(cudaEventCreate(&e));
  }
  ~EventPairs() {
    for (auto e : events_)
      if (e != nullptr) (void)cudaEventDestroy(e);
  }
  EventPairs(const EventPairs&) = delete;
  EventPairs& operator=(const EventPairs&) = delete;
  cudaEvent_t start(int i) const { return events_[2 * static_cast<std::size_t>(i)]; }
  cudaEvent_t stop(int i) const { return events_[2 * static_cast<std::size_t>(i) + 1]; }

 private:
  std::vector<cudaEvent_t> events_;
};

}  // namespace

TimingStats time_launches(KernelRunner& runner, CacheState cache, const TimerOptions& options, L2Flush* flush,
                          void* stream) {
  if (cache == CacheState::cold && flush == nullptr) throw Error("time_launches: cold timing needs an L2Flush");
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

  // Batches: the first one is min_repetitions, later ones grow with what is already there,
  // so the host synchronises O(log n) times rather than after every launch. Each batch is
  // enqueued behind a StreamBlocker, so that no event pair holds a host submission gap; a
  // batch the launch queue could not hold (the blocker gave up) is dropped and the cap halved.
  int max_batch = StreamBlocker::kMaxQueuedLaunches;
  EventPairs events(max_batch);
  StreamBlocker blocker;
  std::vector<double> times;
  times.reserve(static_cast<std::size_t>(std::max(options.min_repetitions, 1)) * 4);
  TimingStats stats;
  int batch = std::clamp(options.min_repetitions, 1, max_batch);
  for (;;) {
    batch = std::min(batch, options.max_repetitions - static_cast<int>(times.size()));
    if (batch <= 0) break;
    const bool held = blocker.run_held(s, [&] {
      for (int i = 0; i < batch; ++i) {
        if (cold) flush->flush(s);
        ROOFLINE_CUDA_CHECK(cudaEventRecord(events.start(i), s));
        runner.launch(s);
        ROOFLINE_CUDA_CHECK(cudaEventRecord(events.stop(i), s));
      }
    });
    if (!held) {
      if (max_batch == 1) throw Error("time_launches: the stream blocker gave up with one launch queued");
      max_batch /= 2;
      batch = max_batch;
      continue;
    }
    for (int i = 0; i < batch; ++i) {
      float ms = 0.0f;
      ROOFLINE_CUDA_CHECK(cudaEventElapsedTime(&ms, events.start(i), events.stop(i)));
      times.push_back(static_cast<double>(ms) * 1e-3);
    }
    stats = summarize_times(times);
    const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
    if (timing_done(stats, options, elapsed)) break;
    // Size the next batch to what the remaining budget allows (at least 1, at most max_batch).
    const double per_launch = elapsed / static_cast<double>(times.size() + static_cast<std::size_t>(options.warmup));
    const double left = options.budget_s - elapsed;
    const int affordable = per_launch > 0.0 ? static_cast<int>(left / per_launch) : max_batch;
    batch = std::clamp(std::min(static_cast<int>(times.size()), affordable), 1, max_batch);
  }
  return stats;
}

}  // namespace roofline

#include "kernels/queued_timing.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "kernels/cuda_check.hpp"
#include "kernels/stream_blocker.hpp"
#include "models/error.hpp"

namespace roofline {
namespace {

// One hold's event pairs, destroyed on scope exit.
class EventPairs {
 public:
  explicit EventPairs(int count) : events_(2 * static_cast<std::size_t>(count), nullptr) {
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

std::vector<double> time_queued_launches(void* stream, int count, const std::function<void()>& launch,
                                         const std::function<void()>& before) {
  auto s = static_cast<cudaStream_t>(stream);
  EventPairs events(kTimedLaunchesPerHold);
  StreamBlocker blocker;
  std::vector<double> seconds;
  seconds.reserve(static_cast<std::size_t>(std::max(count, 0)));
  int per_hold = kTimedLaunchesPerHold;
  while (static_cast<int>(seconds.size()) < count) {
    const int n = std::min(per_hold, count - static_cast<int>(seconds.size()));
    const bool held = blocker.run_held(s, [&] {
      for (int i = 0; i < n; ++i) {
        if (before) before();
        ROOFLINE_CUDA_CHECK(cudaEventRecord(events.start(i), s));
        launch();
        ROOFLINE_CUDA_CHECK(cudaEventRecord(events.stop(i), s));
      }
    });
    if (!held) {
      if (per_hold == 1) throw Error("timing: the stream blocker gave up with one launch queued");
      per_hold /= 2;
      continue;
    }
    for (int i = 0; i < n; ++i) {
      float ms = 0.0f;
      ROOFLINE_CUDA_CHECK(cudaEventElapsedTime(&ms, events.start(i), events.stop(i)));
      seconds.push_back(static_cast<double>(ms) * 1e-3);
    }
  }
  return seconds;
}

std::vector<double> time_back_to_back(void* stream, int chunks, int per_chunk, const std::function<void()>& launch) {
  if (per_chunk < 1 || per_chunk > StreamBlocker::kMaxQueuedLaunches)
    throw Error("timing: a back-to-back chunk holds 1 to " + std::to_string(StreamBlocker::kMaxQueuedLaunches) +
                " launches, not " + std::to_string(per_chunk));
  auto s = static_cast<cudaStream_t>(stream);
  EventPairs events(1);
  StreamBlocker blocker;
  std::vector<double> seconds;
  for (int c = 0; c < chunks; ++c) {
    const bool held = blocker.run_held(s, [&] {
      ROOFLINE_CUDA_CHECK(cudaEventRecord(events.start(0), s));
      for (int i = 0; i < per_chunk; ++i) launch();
      ROOFLINE_CUDA_CHECK(cudaEventRecord(events.stop(0), s));
    });
    if (!held)
      throw Error("timing: the stream blocker gave up with " + std::to_string(per_chunk) +
                  " back-to-back launches queued");
    float ms = 0.0f;
    ROOFLINE_CUDA_CHECK(cudaEventElapsedTime(&ms, events.start(0), events.stop(0)));
    seconds.push_back(static_cast<double>(ms) * 1e-3 / per_chunk);
  }
  return seconds;
}

}  // namespace roofline

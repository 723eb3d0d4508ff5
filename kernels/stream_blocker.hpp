#pragma once
// StreamBlocker: holds a stream with a spinning kernel while the host enqueues a batch of
// timed launches, then lets it go (as nvbench's blocking kernel). Without it, launches that
// are shorter than the host's enqueue cost are timed with the host's submission gaps inside
// their event pairs: warm 1M-element adds measured 8-14 us instead of their GPU time.
//
// The spinning kernel gives up after a timeout so that a full launch queue (the host blocks
// in an enqueue while the stream is held) cannot hang the process; run_held() then says so.
#include <functional>

namespace roofline {

class StreamBlocker {
 public:
  StreamBlocker();  // allocates one mapped host word; throws Error on a CUDA failure
  ~StreamBlocker();
  StreamBlocker(const StreamBlocker&) = delete;
  StreamBlocker& operator=(const StreamBlocker&) = delete;

  // Holds stream (a cudaStream_t; nullptr = default stream) with the spinning kernel, calls
  // enqueue, lets the stream go and synchronises it. Returns false when the kernel stopped
  // waiting on its own (kTimeoutS before the release): what enqueue queued then ran with host
  // gaps. Throws Error on a CUDA failure.
  bool run_held(void* stream, const std::function<void()>& enqueue);

  // Batches larger than this may not fit the launch queue while the stream is held.
  static constexpr int kMaxQueuedLaunches = 64;
  static constexpr double kTimeoutS = 2.0;

 private:
  volatile int* words_ = nullptr;  // host-mapped: [0] go (host writes), [1] gave up (kernel writes)
  int* device_words_ = nullptr;
};

}  // namespace roofline

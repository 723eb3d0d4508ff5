#pragma once
// StreamBlocker: holds a stream with a spinning kernel while the host enqueues a batch of
// timed launches, then lets it go (as nvbench's blocking kernel). Without it, launches that
// are shorter than the host's enqueue cost are timed with the host's submission gaps inside
// their event pairs: warm 1M-element adds measured 8-14 us instead of their GPU time.
//
// The spinning kernel gives up after a timeout so that a full launch queue (the host blocks
// in an enqueue while the stream is held) cannot hang the process; gave_up() then says so.
namespace roofline {

class StreamBlocker {
 public:
  StreamBlocker();  // allocates one mapped host word; throws Error on a CUDA failure
  ~StreamBlocker();
  StreamBlocker(const StreamBlocker&) = delete;
  StreamBlocker& operator=(const StreamBlocker&) = delete;

  // Enqueues the spinning kernel on stream (a cudaStream_t; nullptr = default stream).
  void block(void* stream);
  // Lets the held stream go.
  void release();
  // After the stream has been synchronised: true when the kernel stopped waiting on its own
  // (kTimeoutS before release), so what was enqueued behind it ran with host gaps.
  bool gave_up() const;

  // Batches larger than this may not fit the launch queue while the stream is held.
  static constexpr int kMaxQueuedLaunches = 64;
  static constexpr double kTimeoutS = 2.0;

 private:
  volatile int* words_ = nullptr;  // host-mapped: [0] go (host writes), [1] gave up (kernel writes)
  int* device_words_ = nullptr;
};

}  // namespace roofline

#pragma once
// Records the attributes of kernel launches (registers, block and grid size, shared memory)
// through CUPTI driver-API callbacks, for the launch__* metrics.
#include <cupti.h>

#include <mutex>
#include <vector>

namespace roofline::detail {

struct CapturedLaunch {
  CUfunction function = nullptr;  // attributes below are read in stop(), outside the callback
  int registers = -1, static_shared = -1;
  long long block = 0, grid = 0, dynamic_shared = 0;
};

class LaunchCapture {
 public:
  // Subscribes to CUPTI callbacks (disabled until start()). Throws CuptiError (e.g.
  // MULTIPLE_SUBSCRIBERS when another profiler is attached).
  LaunchCapture();
  ~LaunchCapture();
  LaunchCapture(const LaunchCapture&) = delete;
  LaunchCapture& operator=(const LaunchCapture&) = delete;

  void start();  // clears what was recorded and enables the launch callbacks
  std::vector<CapturedLaunch> stop();

 private:
  static void CUPTIAPI callback(void* self, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data);
  void enable(bool on);
  CUpti_SubscriberHandle subscriber_ = nullptr;
  std::mutex mutex_;
  std::vector<CapturedLaunch> launches_;
};

}  // namespace roofline::detail

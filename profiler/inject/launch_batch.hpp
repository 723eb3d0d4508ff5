#pragma once
// The launches of one context since the first one whose counters are wanted, replayed together.
//
// A profiled launch must be measured on the memory it ran on. Replaying each launch on its own
// costs a range-profiler Start and Stop per pass (11-50 ms each on the H100), so launches are
// batched: device memory is saved before the batch's first launch runs, the program's launches
// then run as usual, and when the batch ends every pass puts the saved memory back and replays
// the batch's launches in order, each counted one after an L2 flush. Replaying in order re-creates
// the memory each launch saw. A batch ends before anything that would break that: a copy, a 2-D
// memset, a free, a graph launch, a launch in another context, or the program's end; and when
// it holds `batch` counted launches. A 1-D memset joins the batch and is replayed in its place.
// The last pass leaves memory as the program's own launches left it (deterministic kernels).
#include <cuda.h>

#include <memory>
#include <vector>

#include "profiler/inject/captured_launch.hpp"
#include "profiler/inject/device_memory_snapshot.hpp"

namespace roofline::inject {

struct LaunchBatch {
  CUcontext context = nullptr;
  CUdevice device = 0;
  std::unique_ptr<DeviceMemorySnapshot> saved;
  std::vector<std::unique_ptr<CapturedLaunch>> launches;
  int counted = 0;
  bool open() const { return context != nullptr; }
};

}  // namespace roofline::inject

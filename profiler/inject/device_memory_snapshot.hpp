#pragma once
// A copy of every allocation a replay saves (DeviceMemoryTracker::saved_regions) of one
// context: in device memory when it fits in the free memory (less a margin), else in host
// memory. Replay puts it back before each pass.
#include <cuda.h>

#include <cstddef>
#include <vector>

#include "profiler/inject/device_memory_tracker.hpp"

namespace roofline::inject {

class DeviceMemorySnapshot {
 public:
  // Throws std::runtime_error saying why when neither device nor host memory can hold it.
  DeviceMemorySnapshot(const DeviceMemoryTracker& tracker, CUcontext context, CUstream stream);
  ~DeviceMemorySnapshot();
  DeviceMemorySnapshot(const DeviceMemorySnapshot&) = delete;
  DeviceMemorySnapshot& operator=(const DeviceMemorySnapshot&) = delete;
  void restore(CUstream stream) const;  // enqueues the copies back

 private:
  struct Copy {
    CUdeviceptr ptr;
    std::size_t bytes, offset;
  };
  std::vector<Copy> copies_;
  std::size_t total_ = 0;
  CUdeviceptr device_copy_ = 0;
  std::vector<unsigned char> host_copy_;
};

}  // namespace roofline::inject

#pragma once
// A copy of every allocation a replay saves (DeviceMemoryTracker::saved_regions) of one
// context: in device memory as far as the free memory (less a margin) holds it, the rest in the
// session's host staging buffer. Replay puts it back before each pass.
#include <cuda.h>

#include <cstddef>
#include <vector>

#include "profiler/inject/device_memory_tracker.hpp"
#include "profiler/inject/host_staging.hpp"

namespace roofline::inject {

class DeviceMemorySnapshot {
 public:
  // Throws std::runtime_error saying why when neither device nor host memory can hold it.
  // `staging` serves one snapshot at a time.
  DeviceMemorySnapshot(const DeviceMemoryTracker& tracker, CUcontext context, CUstream stream,
                       HostStaging& staging);
  ~DeviceMemorySnapshot();
  DeviceMemorySnapshot(const DeviceMemorySnapshot&) = delete;
  DeviceMemorySnapshot& operator=(const DeviceMemorySnapshot&) = delete;
  void restore(CUstream stream) const;  // enqueues the copies back

 private:
  struct Copy {
    CUdeviceptr ptr;
    std::size_t bytes, offset;
    bool on_device;  // in device_copy_ at offset, else in the host buffer at offset
  };
  std::vector<Copy> copies_;
  CUdeviceptr device_copy_ = 0;
  unsigned char* host_copy_ = nullptr;
};

}  // namespace roofline::inject

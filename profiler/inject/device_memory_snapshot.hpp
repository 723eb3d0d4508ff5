#pragma once
// A copy of every allocation and CUDA array a replay saves (DeviceMemoryTracker::saved_regions,
// saved_arrays) of one context: in device memory as far as the free memory (less a margin) holds it, the rest in the
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
    CUdeviceptr ptr;  // a linear allocation's, or 0 for an array
    std::size_t bytes, offset;
    bool on_device;  // in device_copy_ at offset, else in the host buffer at offset
    DeviceMemoryTracker::ArrayRegion array{};  // its rows, packed, when ptr is 0
  };
  // Enqueues one array's copy out to the saved copy, or back.
  void copy_array(const Copy& c, bool out, CUstream stream) const;
  std::vector<Copy> copies_;
  CUdeviceptr device_copy_ = 0;
  unsigned char* host_copy_ = nullptr;
};

}  // namespace roofline::inject

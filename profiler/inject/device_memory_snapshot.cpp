#include "profiler/inject/device_memory_snapshot.hpp"

#include <stdexcept>
#include <string>

#include "profiler/inject/driver_check.hpp"

namespace roofline::inject {

DeviceMemorySnapshot::DeviceMemorySnapshot(const DeviceMemoryTracker& tracker, CUcontext context, CUstream stream) {
  for (const auto& r : tracker.saved_regions(context)) {
    copies_.push_back({r.ptr, r.bytes, total_});
    total_ += (r.bytes + 255) / 256 * 256;
  }
  if (total_ == 0) return;
  std::size_t free = 0, all = 0;
  check(cuMemGetInfo(&free, &all), "cuMemGetInfo");
  const std::size_t margin = std::size_t{1} << 30;  // the replay's own buffers and the program's next allocations
  if (total_ + margin < free && cuMemAlloc(&device_copy_, total_) == CUDA_SUCCESS) {
    for (const Copy& c : copies_)
      check(cuMemcpyDtoDAsync(device_copy_ + c.offset, c.ptr, c.bytes, stream), "cuMemcpyDtoDAsync");
  } else {
    try {
      host_copy_.resize(total_);
    } catch (const std::bad_alloc&) {
      throw std::runtime_error("the launch's memory could not be saved for replay: its context holds " +
                               std::to_string(total_ >> 20) + " MiB of allocations, and neither the free device " +
                               "memory (" + std::to_string(free >> 20) + " MiB) nor host memory can hold a copy");
    }
    for (const Copy& c : copies_)
      check(cuMemcpyDtoHAsync(host_copy_.data() + c.offset, c.ptr, c.bytes, stream), "cuMemcpyDtoHAsync");
  }
  check(cuStreamSynchronize(stream), "cuStreamSynchronize");
}

DeviceMemorySnapshot::~DeviceMemorySnapshot() {
  if (device_copy_ != 0) cuMemFree(device_copy_);
}

void DeviceMemorySnapshot::restore(CUstream stream) const {
  for (const Copy& c : copies_) {
    if (device_copy_ != 0)
      check(cuMemcpyDtoDAsync(c.ptr, device_copy_ + c.offset, c.bytes, stream), "cuMemcpyDtoDAsync");
    else
      check(cuMemcpyHtoDAsync(c.ptr, host_copy_.data() + c.offset, c.bytes, stream), "cuMemcpyHtoDAsync");
  }
}

}  // namespace roofline::inject

#include "profiler/inject/device_memory_snapshot.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "profiler/inject/driver_check.hpp"

namespace roofline::inject {
namespace {

constexpr std::size_t aligned(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

}  // namespace

DeviceMemorySnapshot::DeviceMemorySnapshot(const DeviceMemoryTracker& tracker, CUcontext context, CUstream stream,
                                           HostStaging& staging) {
  const auto regions = tracker.saved_regions(context);
  if (regions.empty()) return;
  std::size_t free = 0, all = 0;
  check(cuMemGetInfo(&free, &all), "cuMemGetInfo");
  // The replay's own buffers and the program's next allocations need room beside the copy: a
  // quarter of the free memory, at least 1 GiB, is left to them.
  const std::size_t margin = std::max(std::size_t{1} << 30, free / 4);
  const std::size_t room = free > margin ? free - margin : 0;
  // Regions go to the device copy, in order, while it has room; the others to the host.
  std::size_t on_device = 0, on_host = 0;
  for (const auto& r : regions) {
    const bool device = on_device + aligned(r.bytes) <= room;
    copies_.push_back({r.ptr, r.bytes, device ? on_device : on_host, device});
    (device ? on_device : on_host) += aligned(r.bytes);
  }
  if (on_device > 0 && cuMemAlloc(&device_copy_, on_device) != CUDA_SUCCESS) {
    device_copy_ = 0;  // the room went meanwhile: everything to the host
    on_host = 0;
    for (Copy& c : copies_) {
      c.on_device = false;
      c.offset = on_host;
      on_host += aligned(c.bytes);
    }
  }
  if (on_host > 0 && (host_copy_ = staging.reserve(on_host)) == nullptr)
    throw std::runtime_error("the launch's memory could not be saved for replay: its context holds " +
                             std::to_string((on_device + on_host) >> 20) + " MiB of allocations, and neither the " +
                             "free device memory (" + std::to_string(free >> 20) + " MiB) nor host memory can hold " +
                             "a copy");
  for (const Copy& c : copies_) {
    if (c.on_device)
      check(cuMemcpyDtoDAsync(device_copy_ + c.offset, c.ptr, c.bytes, stream), "cuMemcpyDtoDAsync");
    else
      check(cuMemcpyDtoHAsync(host_copy_ + c.offset, c.ptr, c.bytes, stream), "cuMemcpyDtoHAsync");
  }
  check(cuStreamSynchronize(stream), "cuStreamSynchronize");
}

DeviceMemorySnapshot::~DeviceMemorySnapshot() {
  if (device_copy_ != 0) cuMemFree(device_copy_);
}

void DeviceMemorySnapshot::restore(CUstream stream) const {
  for (const Copy& c : copies_) {
    if (c.on_device)
      check(cuMemcpyDtoDAsync(c.ptr, device_copy_ + c.offset, c.bytes, stream), "cuMemcpyDtoDAsync");
    else
      check(cuMemcpyHtoDAsync(c.ptr, host_copy_ + c.offset, c.bytes, stream), "cuMemcpyHtoDAsync");
  }
}

}  // namespace roofline::inject

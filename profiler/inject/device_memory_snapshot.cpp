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
  const auto arrays = tracker.saved_arrays(context);
  if (regions.empty() && arrays.empty()) return;
  std::size_t free = 0, all = 0;
  check(cuMemGetInfo(&free, &all), "cuMemGetInfo");
  // The replay's own buffers and the program's next allocations need room beside the copy: a
  // quarter of the free memory, at least 1 GiB, is left to them.
  const std::size_t margin = std::max(std::size_t{1} << 30, free / 4);
  const std::size_t room = free > margin ? free - margin : 0;
  for (const auto& r : regions) copies_.push_back({r.ptr, r.bytes, 0, false, {}});
  for (const auto& a : arrays) copies_.push_back({0, a.bytes(), 0, false, a});
  // Copies go to the device copy, in order, while it has `device_room`; the others to the host.
  std::size_t on_device = 0, on_host = 0;
  const auto place = [&](std::size_t device_room) {
    on_device = on_host = 0;
    for (Copy& c : copies_) {
      c.on_device = on_device + aligned(c.bytes) <= device_room;
      c.offset = c.on_device ? on_device : on_host;
      (c.on_device ? on_device : on_host) += aligned(c.bytes);
    }
  };
  place(room);
  if (on_device > 0 && cuMemAlloc(&device_copy_, on_device) != CUDA_SUCCESS) {
    device_copy_ = 0;  // the room went meanwhile: everything to the host
    place(0);
  }
  if (on_host > 0 && (host_copy_ = staging.reserve(on_host)) == nullptr)
    throw std::runtime_error("the launch's memory could not be saved for replay: its context holds " +
                             std::to_string((on_device + on_host) >> 20) + " MiB of allocations, and neither the " +
                             "free device memory (" + std::to_string(free >> 20) + " MiB) nor host memory can hold " +
                             "a copy");
  for (const Copy& c : copies_) {
    if (c.ptr == 0)
      copy_array(c, true, stream);
    else if (c.on_device)
      check(cuMemcpyDtoDAsync(device_copy_ + c.offset, c.ptr, c.bytes, stream), "cuMemcpyDtoDAsync");
    else
      check(cuMemcpyDtoHAsync(host_copy_ + c.offset, c.ptr, c.bytes, stream), "cuMemcpyDtoHAsync");
  }
  check(cuStreamSynchronize(stream), "cuStreamSynchronize");
}

void DeviceMemorySnapshot::copy_array(const Copy& c, bool out, CUstream stream) const {
  CUDA_MEMCPY3D m{};
  const CUmemorytype saved_type = c.on_device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
  if (out) {
    m.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    m.srcArray = c.array.array;
    m.dstMemoryType = saved_type;
    m.dstDevice = c.on_device ? device_copy_ + c.offset : 0;
    m.dstHost = c.on_device ? nullptr : host_copy_ + c.offset;
    m.dstPitch = c.array.row_bytes;
    m.dstHeight = c.array.rows;
  } else {
    m.srcMemoryType = saved_type;
    m.srcDevice = c.on_device ? device_copy_ + c.offset : 0;
    m.srcHost = c.on_device ? nullptr : host_copy_ + c.offset;
    m.srcPitch = c.array.row_bytes;
    m.srcHeight = c.array.rows;
    m.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    m.dstArray = c.array.array;
  }
  m.WidthInBytes = c.array.row_bytes;
  m.Height = c.array.rows;
  m.Depth = c.array.slices;
  check(cuMemcpy3DAsync(&m, stream), "cuMemcpy3DAsync");
}

DeviceMemorySnapshot::~DeviceMemorySnapshot() {
  if (device_copy_ != 0) cuMemFree(device_copy_);
}

void DeviceMemorySnapshot::restore(CUstream stream) const {
  for (const Copy& c : copies_) {
    if (c.ptr == 0)
      copy_array(c, false, stream);
    else if (c.on_device)
      check(cuMemcpyDtoDAsync(c.ptr, device_copy_ + c.offset, c.bytes, stream), "cuMemcpyDtoDAsync");
    else
      check(cuMemcpyHtoDAsync(c.ptr, host_copy_ + c.offset, c.bytes, stream), "cuMemcpyHtoDAsync");
  }
}

}  // namespace roofline::inject

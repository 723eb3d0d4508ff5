#include "profiler/inject/device_memory_tracker.hpp"

#include <stdexcept>

#include "profiler/inject/driver_check.hpp"

namespace roofline::inject {

void DeviceMemoryTracker::add(CUcontext context, CUdeviceptr ptr, std::size_t bytes) {
  if (ptr != 0 && bytes > 0) allocations_[ptr] = {context, bytes};
}

void DeviceMemoryTracker::remove(CUdeviceptr ptr) { allocations_.erase(ptr); }

void DeviceMemoryTracker::share(CUdeviceptr ptr) { remove(ptr); }

void DeviceMemoryTracker::map(CUcontext context, CUdeviceptr ptr, std::size_t bytes,
                              CUmemGenericAllocationHandle handle) {
  mapped_[handle].push_back(ptr);
  if (!shared_handles_.contains(handle)) add(context, ptr, bytes);
}

void DeviceMemoryTracker::share_handle(CUmemGenericAllocationHandle handle) {
  shared_handles_.insert(handle);
  if (auto it = mapped_.find(handle); it != mapped_.end())
    for (const CUdeviceptr ptr : it->second) remove(ptr);
}

// A released handle's value may come back for another allocation.
void DeviceMemoryTracker::release_handle(CUmemGenericAllocationHandle handle) {
  shared_handles_.erase(handle);
  mapped_.erase(handle);
}

void DeviceMemoryTracker::forget_context(CUcontext context) {
  std::erase_if(allocations_, [context](const auto& entry) { return entry.second.context == context; });
}

std::size_t DeviceMemoryTracker::bytes(CUcontext context) const {
  std::size_t total = 0;
  for (const auto& [ptr, a] : allocations_)
    if (a.context == context) total += a.bytes;
  return total;
}

DeviceMemoryTracker::Snapshot::Snapshot(const DeviceMemoryTracker& tracker, CUcontext context, CUstream stream) {
  for (const auto& [ptr, a] : tracker.allocations_) {
    if (a.context != context) continue;
    regions_.push_back({ptr, a.bytes, total_});
    total_ += (a.bytes + 255) / 256 * 256;
  }
  if (total_ == 0) return;
  std::size_t free = 0, all = 0;
  check(cuMemGetInfo(&free, &all), "cuMemGetInfo");
  const std::size_t margin = std::size_t{1} << 30;  // the replay's own buffers and the program's next allocations
  if (total_ + margin < free && cuMemAlloc(&device_copy_, total_) == CUDA_SUCCESS) {
    for (const Region& r : regions_) check(cuMemcpyDtoDAsync(device_copy_ + r.offset, r.ptr, r.bytes, stream), "cuMemcpyDtoDAsync");
  } else {
    try {
      host_copy_.resize(total_);
    } catch (const std::bad_alloc&) {
      throw std::runtime_error("the launch's memory could not be saved for replay: its context holds " +
                               std::to_string(total_ >> 20) + " MiB of allocations, and neither the free device " +
                               "memory (" + std::to_string(free >> 20) + " MiB) nor host memory can hold a copy");
    }
    for (const Region& r : regions_) check(cuMemcpyDtoHAsync(host_copy_.data() + r.offset, r.ptr, r.bytes, stream), "cuMemcpyDtoHAsync");
  }
  check(cuStreamSynchronize(stream), "cuStreamSynchronize");
}

DeviceMemoryTracker::Snapshot::~Snapshot() {
  if (device_copy_ != 0) cuMemFree(device_copy_);
}

void DeviceMemoryTracker::Snapshot::restore(CUstream stream) const {
  for (const Region& r : regions_) {
    if (device_copy_ != 0)
      check(cuMemcpyDtoDAsync(r.ptr, device_copy_ + r.offset, r.bytes, stream), "cuMemcpyDtoDAsync");
    else
      check(cuMemcpyHtoDAsync(r.ptr, host_copy_.data() + r.offset, r.bytes, stream), "cuMemcpyHtoDAsync");
  }
}

}  // namespace roofline::inject

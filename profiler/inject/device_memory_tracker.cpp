#include "profiler/inject/device_memory_tracker.hpp"

#include <algorithm>

namespace roofline::inject {

void DeviceMemoryTracker::add(CUcontext context, CUdeviceptr ptr, std::size_t bytes, bool host_writes) {
  if (ptr != 0 && bytes > 0) allocations_[ptr] = {context, bytes, host_writes};
}

// An unmapped address may be mapped again to another handle: it no longer stands for this one's.
void DeviceMemoryTracker::remove(CUdeviceptr ptr) {
  allocations_.erase(ptr);
  for (auto& [handle, ptrs] : mapped_) std::erase(ptrs, ptr);
}

void DeviceMemoryTracker::add_array(CUcontext context, const ArrayRegion& array) {
  if (array.array != nullptr && array.bytes() > 0) arrays_[array.array] = {context, array};
}

void DeviceMemoryTracker::remove_array(CUarray array) { arrays_.erase(array); }

std::optional<DeviceMemoryTracker::ArrayRegion> DeviceMemoryTracker::array_region(CUarray array,
                                                                                  const CUDA_ARRAY3D_DESCRIPTOR& d) {
  std::size_t element = 0;
  switch (d.Format) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_SIGNED_INT8: element = 1; break;
    case CU_AD_FORMAT_UNSIGNED_INT16:
    case CU_AD_FORMAT_SIGNED_INT16:
    case CU_AD_FORMAT_HALF: element = 2; break;
    case CU_AD_FORMAT_UNSIGNED_INT32:
    case CU_AD_FORMAT_SIGNED_INT32:
    case CU_AD_FORMAT_FLOAT: element = 4; break;
    default: return std::nullopt;
  }
  return ArrayRegion{array, d.Width * element * d.NumChannels, std::max<std::size_t>(d.Height, 1),
                     std::max<std::size_t>(d.Depth, 1)};
}

void DeviceMemoryTracker::share(CUdeviceptr ptr) { allocations_.erase(ptr); }

void DeviceMemoryTracker::map(CUcontext context, CUdeviceptr ptr, std::size_t bytes,
                              CUmemGenericAllocationHandle handle) {
  mapped_[handle].push_back(ptr);
  if (!shared_handles_.contains(handle)) add(context, ptr, bytes);
}

void DeviceMemoryTracker::share_handle(CUmemGenericAllocationHandle handle) {
  shared_handles_.insert(handle);
  if (auto it = mapped_.find(handle); it != mapped_.end())
    for (const CUdeviceptr ptr : it->second) allocations_.erase(ptr);
}

// A released handle's value may come back for another allocation.
void DeviceMemoryTracker::release_handle(CUmemGenericAllocationHandle handle) {
  shared_handles_.erase(handle);
  mapped_.erase(handle);
}

void DeviceMemoryTracker::forget_context(CUcontext context) {
  std::erase_if(allocations_, [context](const auto& entry) { return entry.second.context == context; });
  std::erase_if(arrays_, [context](const auto& entry) { return entry.second.first == context; });
  peers_.erase(context);
  for (auto& [c, reached] : peers_) reached.erase(context);
}

void DeviceMemoryTracker::enable_peer(CUcontext context, CUcontext peer) { peers_[context].insert(peer); }

void DeviceMemoryTracker::disable_peer(CUcontext context, CUcontext peer) {
  if (auto it = peers_.find(context); it != peers_.end()) it->second.erase(peer);
}

bool DeviceMemoryTracker::reaches(CUcontext context, CUcontext owner) const {
  if (owner == context) return true;
  const auto peers = peers_.find(context);
  return peers != peers_.end() && peers->second.contains(owner);
}

std::vector<DeviceMemoryTracker::Region> DeviceMemoryTracker::saved_regions(CUcontext context) const {
  std::vector<Region> regions;
  for (const auto& [ptr, a] : allocations_)
    if (reaches(context, a.context)) regions.push_back({ptr, a.bytes});
  return regions;
}

std::vector<DeviceMemoryTracker::ArrayRegion> DeviceMemoryTracker::saved_arrays(CUcontext context) const {
  std::vector<ArrayRegion> arrays;
  for (const auto& [array, owned] : arrays_)
    if (reaches(context, owned.first)) arrays.push_back(owned.second);
  return arrays;
}

bool DeviceMemoryTracker::holds_host_written_memory(CUcontext context) const {
  for (const auto& [ptr, a] : allocations_)
    if (a.context == context && a.host_writes) return true;
  return false;
}

}  // namespace roofline::inject

#include "profiler/inject/device_memory_tracker.hpp"

namespace roofline::inject {

void DeviceMemoryTracker::add(CUcontext context, CUdeviceptr ptr, std::size_t bytes, bool host_writes) {
  if (ptr != 0 && bytes > 0) allocations_[ptr] = {context, bytes, host_writes};
}

// An unmapped address may be mapped again to another handle: it no longer stands for this one's.
void DeviceMemoryTracker::remove(CUdeviceptr ptr) {
  allocations_.erase(ptr);
  for (auto& [handle, ptrs] : mapped_) std::erase(ptrs, ptr);
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
  peers_.erase(context);
  for (auto& [c, reached] : peers_) reached.erase(context);
}

void DeviceMemoryTracker::enable_peer(CUcontext context, CUcontext peer) { peers_[context].insert(peer); }

void DeviceMemoryTracker::disable_peer(CUcontext context, CUcontext peer) {
  if (auto it = peers_.find(context); it != peers_.end()) it->second.erase(peer);
}

std::vector<DeviceMemoryTracker::Region> DeviceMemoryTracker::saved_regions(CUcontext context) const {
  const auto peers = peers_.find(context);
  const auto reaches = [&](CUcontext c) {
    return c == context || (peers != peers_.end() && peers->second.contains(c));
  };
  std::vector<Region> regions;
  for (const auto& [ptr, a] : allocations_)
    if (reaches(a.context)) regions.push_back({ptr, a.bytes});
  return regions;
}

bool DeviceMemoryTracker::holds_host_written_memory(CUcontext context) const {
  for (const auto& [ptr, a] : allocations_)
    if (a.context == context && a.host_writes) return true;
  return false;
}

}  // namespace roofline::inject

#pragma once
// Every device allocation a program makes, per context, so that the memory a replayed launch
// may touch can be saved before the first replay pass and put back before each of the others.
// A launch's kernels can reach any allocation of its context through pointers we cannot see,
// so all of them are saved, as ncu does.
#include <cuda.h>

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace roofline::inject {

class DeviceMemoryTracker {
 public:
  void add(CUcontext context, CUdeviceptr ptr, std::size_t bytes);
  void remove(CUdeviceptr ptr);

  // Memory shared with other processes is neither saved nor restored: another process may write
  // it at any time (NCCL's buffers, which its peers on other GPUs write), and a restore would undo
  // what it wrote. Legacy IPC shares an allocation (cuIpcGetMemHandle); the virtual memory API
  // shares a physical allocation (cuMemExportToShareableHandle) or maps one another process
  // shared (cuMemImportFromShareableHandle), wherever it is mapped (cuMemMap).
  void share(CUdeviceptr ptr);
  void map(CUcontext context, CUdeviceptr ptr, std::size_t bytes, CUmemGenericAllocationHandle handle);
  void share_handle(CUmemGenericAllocationHandle handle);
  void release_handle(CUmemGenericAllocationHandle handle);
  void forget_context(CUcontext context);  // it was destroyed, and its memory with it
  std::size_t bytes(CUcontext context) const;

  // A copy of every allocation of one context, in device memory when it fits in the free
  // memory (less a margin), else in host memory.
  class Snapshot {
   public:
    // Throws std::runtime_error saying why when neither device nor host memory can hold it.
    Snapshot(const DeviceMemoryTracker& tracker, CUcontext context, CUstream stream);
    ~Snapshot();
    Snapshot(const Snapshot&) = delete;
    Snapshot& operator=(const Snapshot&) = delete;
    void restore(CUstream stream) const;  // enqueues the copies back
    std::size_t bytes() const { return total_; }

   private:
    struct Region {
      CUdeviceptr ptr;
      std::size_t bytes, offset;
    };
    std::vector<Region> regions_;
    std::size_t total_ = 0;
    CUdeviceptr device_copy_ = 0;
    std::vector<unsigned char> host_copy_;
  };

 private:
  struct Allocation {
    CUcontext context;
    std::size_t bytes;
  };
  std::map<CUdeviceptr, Allocation> allocations_;
  std::map<CUmemGenericAllocationHandle, std::vector<CUdeviceptr>> mapped_;  // where each handle is mapped
  std::set<CUmemGenericAllocationHandle> shared_handles_;
};

}  // namespace roofline::inject

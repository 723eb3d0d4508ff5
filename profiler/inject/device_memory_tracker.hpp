#pragma once
// Every device allocation a program makes, per context, so that the memory a replayed launch
// may touch can be saved before the first replay pass and put back before each of the others
// (DeviceMemorySnapshot). A launch's kernels can reach any allocation of its context through
// pointers we cannot see, so all of them are saved, as ncu does. Bookkeeping only: no driver call.
#include <cuda.h>

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace roofline::inject {

class DeviceMemoryTracker {
 public:
  struct Region {
    CUdeviceptr ptr;
    std::size_t bytes;
  };
  // A CUDA array (what textures read and surfaces write), copied row by row: its rows' bytes,
  // rows per slice, and slices (a 3-D array's depth, a layered one's layers).
  struct ArrayRegion {
    CUarray array;
    std::size_t row_bytes, rows, slices;
    std::size_t bytes() const { return row_bytes * rows * slices; }
  };
  // The copy shape of an array from the descriptor it was created with; empty for an element format
  // whose size is not known here (block-compressed, video formats): such an array is not saved.
  static std::optional<ArrayRegion> array_region(CUarray array, const CUDA_ARRAY3D_DESCRIPTOR& d);

  // Managed memory (`host_writes`) is memory the host may change with no CUDA call between two
  // launches: a batch must end before the host can touch it (holds_host_written_memory).
  void add(CUcontext context, CUdeviceptr ptr, std::size_t bytes, bool host_writes = false);
  void remove(CUdeviceptr ptr);  // freed or unmapped
  void add_array(CUcontext context, const ArrayRegion& array);
  void remove_array(CUarray array);

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
  // Peer access (cuCtxEnablePeerAccess): kernels of `context` reach `peer`'s allocations too (a
  // kernel on one GPU adding into another's memory), so its replays save and restore those as well.
  void enable_peer(CUcontext context, CUcontext peer);
  void disable_peer(CUcontext context, CUcontext peer);

  // What a replay of a launch in `context` saves and restores, by address, and its arrays.
  std::vector<Region> saved_regions(CUcontext context) const;
  std::vector<ArrayRegion> saved_arrays(CUcontext context) const;
  // Whether any of those is memory the host writes directly (managed).
  bool holds_host_written_memory(CUcontext context) const;

 private:
  struct Allocation {
    CUcontext context;
    std::size_t bytes;
    bool host_writes;
  };
  std::map<CUdeviceptr, Allocation> allocations_;
  std::map<CUmemGenericAllocationHandle, std::vector<CUdeviceptr>> mapped_;  // where each handle is mapped now
  std::set<CUmemGenericAllocationHandle> shared_handles_;
  std::map<CUcontext, std::set<CUcontext>> peers_;  // the contexts each context's kernels may reach
  std::map<CUarray, std::pair<CUcontext, ArrayRegion>> arrays_;
  bool reaches(CUcontext context, CUcontext owner) const;
};

}  // namespace roofline::inject

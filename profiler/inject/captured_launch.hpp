#pragma once
// One kernel launch of the profiled program, captured at the launch call with everything needed
// to launch it again later: the function, the shape, and a copy of the argument values (the
// program's argument pointers are only valid during the call). A memset of device memory is kept
// the same way, so that a batch replays it in its place instead of ending before it, and so is a
// graph's copy node, replayed in its place among the graph's kernels.
#include <cuda.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <memory>
#include <vector>

#include "profiler/inject/memset_op.hpp"
#include "profiler/replay_job.hpp"

namespace roofline::inject {

class DeviceMemoryTracker;

inline constexpr int kDirectLaunch = -2;  // CapturedLaunch::graph_index of a launch made outside graphs

class CapturedLaunch final : public ReplayJob {
 public:
  // From a cuLaunchKernel / cuLaunchCooperativeKernel / cuLaunchKernelEx callback's parameters
  // (cbid: the CUPTI driver callback id). A launch whose arguments cannot be read (the driver
  // will not tell the function's parameter layout) is kept with why_not_replayable set.
  CapturedLaunch(unsigned cbid, const void* params);
  // A kernel node of a CUDA graph (the graph keeps its own copy of the arguments).
  explicit CapturedLaunch(const CUDA_KERNEL_NODE_PARAMS& node);
  // A memset, replayed in its place in every pass (it launches no kernel, so it has no range).
  explicit CapturedLaunch(const MemsetOp& op);
  // A graph's copy node, likewise.
  explicit CapturedLaunch(const CUDA_MEMCPY3D& copy);

  int kernel_launches() const override { return memset_ || copy_ ? 0 : 1; }
  void restore() override;  // puts the batch's saved memory back, when this launch is the batch's first
  void launch(void* stream) override;

  CUfunction function() const { return function_; }
  CUstream stream() const { return stream_; }
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  unsigned shared_bytes = 0;
  bool cooperative = false;

  std::uint64_t correlation = 0;  // CUPTI's id of the program's launch call
  int graph_index = kDirectLaunch;  // a graph's kernel node: its position in the graph's topological order
  std::string name;                 // a graph's kernel node: its mangled name (it has no launch record)
  bool counted = false;           // its counters are wanted (selected by the program's filters)
  std::string why_not_replayable;  // empty when it can be launched again
  // Set on a batch's first launch: restore() enqueues it before every pass.
  std::function<void()> restore_memory;

 private:
  void copy_arguments(void** params, void** extra);
  CUfunction function_ = nullptr;
  CUstream stream_ = nullptr;
  std::vector<unsigned char> argument_bytes_;
  std::vector<std::size_t> argument_offsets_;
  std::vector<CUlaunchAttribute> attributes_;  // cuLaunchKernelEx's
  std::vector<unsigned char> extra_buffer_;     // CU_LAUNCH_PARAM_BUFFER_POINTER form
  bool uses_extra_ = false;
  std::optional<MemsetOp> memset_;
  std::optional<CUDA_MEMCPY3D> copy_;
  CUstream replay_stream_ = nullptr;
};

}  // namespace roofline::inject

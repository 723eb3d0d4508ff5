#pragma once
// Everything the injection library keeps for one profiled process: the options, the spool, the
// device allocations, the open launch batch and a counter collector per context. Every CUPTI
// callback of the program's threads comes through here under one lock, so the program's
// launches are serialised while a batch is replayed (ncu serialises them too).
#include <cuda.h>
#include <cupti.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "profiler/inject/device_memory_snapshot.hpp"
#include "profiler/inject/device_memory_tracker.hpp"
#include "profiler/inject/graph_kernels.hpp"
#include "profiler/inject/host_staging.hpp"
#include "profiler/inject/inject_options.hpp"
#include "profiler/inject/launch_batch.hpp"
#include "profiler/inject/module_globals.hpp"
#include "profiler/inject/replay_thread.hpp"
#include "profiler/inject/spool_writer.hpp"
#include "profiler/counter_lock.hpp"

namespace roofline {
class CuptiCollector;
class L2Flush;
}  // namespace roofline

namespace roofline::inject {

class ProfilingSession {
 public:
  // after_counter_setup: called each time a context's counters have been set up.
  ProfilingSession(InjectOptions options, SpoolWriter& spool, std::function<void()> after_counter_setup);
  ~ProfilingSession();

  // With counters, hold() at a call's entry and release() at its return keep other threads'
  // batches (their save of memory, their replay) off the call's work; trace-only, they do nothing.
  void hold();
  void release();
  void on_launch_enter(CUpti_CallbackId cbid, const CUpti_CallbackData& cb);
  void on_launch_exit();
  void on_graph_launch(const CUpti_CallbackData& cb);
  void on_graph_instantiated(CUgraphExec exec, CUgraph graph);
  // After any driver call returned successfully: one that changed or destroyed an executable
  // graph is followed by the graph's copy (GraphKernels::on_changed).
  void on_graph_exec_call(CUpti_CallbackId cbid, const void* params);
  // A memset: joins the open batch, replayed in its place, where a copy would end the batch.
  void on_memset(const MemsetOp& op, CUcontext context);
  // Before an API call that changes device memory (or may let the host see it changed).
  void end_batch();
  // Before a call after which the host may read or write what the GPU did (a synchronisation, a
  // query): where the open batch's context holds managed memory, the batch is replayed now, from
  // the memory its launches saw, and the host's next changes start the next batch's saved memory.
  void on_host_sync();
  void on_allocation(CUcontext context, CUdeviceptr ptr, std::size_t bytes, bool host_writes = false);
  // Any other change to which memory replays save (a mapping, a free, memory shared with other
  // processes, peer access), made under the session's lock.
  void update_memory(const std::function<void(DeviceMemoryTracker&)>& change);
  // On whatever thread loads the module, the replay thread included: takes no session lock.
  void on_module_loaded(std::string_view cubin);
  void on_module_unload();
  void on_context_destroy(CUcontext context);
  bool is_program_launch(std::uint64_t correlation);  // for the Activity API's records
  void add_program_launch(std::uint64_t correlation);

 private:
  struct ContextProfiler;
  struct FunctionAttributes {
    int registers = 0, static_shared = 0;
  };
  ContextProfiler& profiler_for(CUcontext context);
  // The context's counter collector, set up on first use; throws CuptiError(HARDWARE_BUSY) while
  // another process holds the GPU's counters, and runtime_error when there are none to be had.
  CuptiCollector& collector_for(ContextProfiler& cp, CUcontext context);
  CounterLock& counter_lock(CUdevice device);
  // Runs replay (which collects with cp's collector) holding the GPU's counters (CounterLock).
  void with_counters(CUcontext context, CUdevice device, ContextProfiler& cp, const std::function<void()>& replay);
  FunctionAttributes attributes(CUfunction f);
  bool select(const std::string& match_name, int device);
  // graph_index: a graph kernel's position, -1 for all of a graph launch's kernels, kDirectLaunch otherwise.
  void write_counters(std::uint64_t correlation, int graph_index, const std::string& status, const std::string& note,
                      int passes, const std::string& values_json, const CapturedLaunch* graph_kernel = nullptr);
  // Replays jobs from saved (restored before each pass) and writes each counted one's counters.
  void collect_and_write(ContextProfiler& cp, std::vector<std::unique_ptr<CapturedLaunch>>& launches,
                         const DeviceMemorySnapshot& saved);
  void replay_graph(CUcontext context, CUdevice device, std::vector<std::unique_ptr<CapturedLaunch>>& operations);
  // Whether --launch-count has been reached: no later launch will be selected.
  bool selection_exhausted() const;
  // Why a kernel is never replayed (an NCCL kernel, or one --no-replay names), or "".
  std::string why_never_replayed(const std::string& mangled, const std::string& match_name) const;

  InjectOptions options_;
  SpoolWriter& spool_;
  std::vector<std::string> cupti_metrics_;  // options_.metrics less launch__* (the CLI fills those)
  std::function<void()> after_counter_setup_;
  std::recursive_mutex mutex_;
  DeviceMemoryTracker memory_;
  HostStaging staging_;  // for the saved memory the device has no room for, one snapshot at a time
  // Set once managed memory is allocated: until then a synchronisation or query (PyTorch's
  // allocator queries events all the time) goes by without waiting for mutex_.
  std::atomic<bool> managed_allocated_{false};
  ModuleGlobals globals_;
  LaunchBatch batch_;
  GraphKernels graphs_;
  ReplayThread replayer_;
  std::map<CUcontext, std::unique_ptr<ContextProfiler>> profilers_;
  std::map<CUdevice, std::unique_ptr<CounterLock>> counter_locks_;
  std::map<CUfunction, FunctionAttributes> functions_;
  // Read by the Activity API's thread, which must never wait for mutex_: CUPTI holds its own
  // locks there, and a thread holding mutex_ may be launching a kernel that needs them.
  std::mutex correlations_mutex_;
  std::set<std::uint64_t> program_correlations_;
  std::int64_t seq_ = 0, matched_ = 0;
  bool counters_failed_ = false;
  std::string counters_failure_;
  // After another process held the GPU's counters past kBusyWait: no new try before busy_until_,
  // a pause that doubles (2 s up to a minute) while the counters stay busy.
  std::chrono::steady_clock::time_point busy_until_{};
  std::chrono::steady_clock::duration busy_backoff_{};
};

}  // namespace roofline::inject

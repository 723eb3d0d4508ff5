#include "profiler/inject/profiling_session.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#include "profiler/counter_availability.hpp"
#include "profiler/detail/trace.hpp"
#include "profiler/inject/communication_kernel.hpp"
#include "profiler/inject/kernel_handle.hpp"
#include "profiler/cupti_check.hpp"
#include "profiler/cupti_collector.hpp"
#include "profiler/device_query.hpp"
#include "profiler/l2_flush.hpp"
#include "models/profiled_launch.hpp"
#include "profiler/metric_names.hpp"

namespace roofline::inject {
namespace {

bool per_thread_stream(CUpti_CallbackId cbid) {
  return cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz || cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz;
}

const char* api_name(CUpti_CallbackId cbid) {
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: return "cuLaunchKernelEx";
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: return "cuLaunchCooperativeKernel";
    default: return "cuLaunchKernel";
  }
}

// Kernel timestamps of the Activity API are taken by instrumenting the kernels on Hopper (SW
// instrumentation; the hardware way is Blackwell's): seen on the H100, replays made while it was
// on ran 8 more warp instructions per warp and read 0 for every smsp__sass_* counter. So the
// kernel activity is off while counters are collected (the replays' own times are not wanted).
class KernelActivityPaused {
 public:
  KernelActivityPaused() { cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); }
  ~KernelActivityPaused() { cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); }
  KernelActivityPaused(const KernelActivityPaused&) = delete;
  KernelActivityPaused& operator=(const KernelActivityPaused&) = delete;
};

// How long a replay waits for another process to let go of the GPU's counters (it does after its
// next replay), trying again every kBusyPoll, before the batch is recorded without counters; and
// how long, at most, later launches then go without counters before the next try (a profiler
// outside roofline may hold them for the whole run: waiting at every launch would stall the program).
constexpr auto kBusyWait = std::chrono::seconds(2);
constexpr auto kBusyPoll = std::chrono::milliseconds(20);
constexpr auto kBusyBackoffMax = std::chrono::seconds(60);

}  // namespace

struct ProfilingSession::ContextProfiler {
  std::unique_ptr<CuptiCollector> collector;
  std::unique_ptr<L2Flush> flush;
  CUstream stream = nullptr;
  ~ContextProfiler() {
    if (stream != nullptr) cuStreamDestroy(stream);
  }
};

ProfilingSession::ProfilingSession(InjectOptions options, SpoolWriter& spool, std::function<void()> after_counter_setup)
    : options_(std::move(options)), spool_(spool), after_counter_setup_(std::move(after_counter_setup)) {
  for (const auto& m : options_.metrics)
    if (!is_launch_metric(m)) cupti_metrics_.push_back(m);
}

ProfilingSession::~ProfilingSession() = default;

ProfilingSession::ContextProfiler& ProfilingSession::profiler_for(CUcontext context) {
  auto& slot = profilers_[context];
  if (slot) return *slot;
  auto cp = std::make_unique<ContextProfiler>();
  if (cuStreamCreate(&cp->stream, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS)
    throw std::runtime_error("cuStreamCreate failed");
  slot = std::move(cp);
  return *slot;
}

CuptiCollector& ProfilingSession::collector_for(ContextProfiler& cp, CUcontext context) {
  // One context at a time holds the GPU's counters (another's Enable fails with
  // CUPTI_ERROR_HARDWARE_BUSY): the others let them go first.
  for (auto& [other, p] : profilers_)
    if (other != context && p && p->collector) p->collector->release_range_profiler();
  if (cp.collector) return *cp.collector;
  auto collector = std::make_unique<CuptiCollector>(context);
  if (!collector->available()) {
    if (collector->busy()) throw CuptiError(collector->unavailable_note(), CUPTI_ERROR_HARDWARE_BUSY);
    counters_failed_ = true;
    counters_failure_ = collector->unavailable_note();
    throw std::runtime_error(counters_failure_);
  }
  collector->validate(options_.metrics);
  cp.collector = std::move(collector);
  cp.flush = std::make_unique<L2Flush>();
  if (after_counter_setup_) after_counter_setup_();
  return *cp.collector;
}

CounterLock& ProfilingSession::counter_lock(CUdevice device) {
  auto& slot = counter_locks_[device];
  if (!slot) {
    CUuuid uuid{};
    slot = std::make_unique<CounterLock>(cuDeviceGetUuid_v2(&uuid, device) == CUDA_SUCCESS
                                             ? uuid_string(uuid)
                                             : "device" + std::to_string(static_cast<int>(device)));
  }
  return *slot;
}

void ProfilingSession::with_counters(CUcontext context, CUdevice device, ContextProfiler& cp,
                                     const std::function<void()>& replay) {
  using Clock = std::chrono::steady_clock;
  if (Clock::now() < busy_until_)
    throw std::runtime_error(counters_unavailable_note(CUPTI_ERROR_HARDWARE_BUSY, "not tried again yet"));
  CounterLock& lock = counter_lock(device);
  const auto give_up = Clock::now() + kBusyWait;
  for (;;) {
    try {
      const CounterLock::Held held(lock);
      collector_for(cp, context);
      replay();
      busy_backoff_ = {};
      // Alone, the range profiler stays enabled for the next replay; beside another process that
      // wants this GPU's counters it is let go of, so that the other's setup and Enable succeed.
      if (!lock.alone()) cp.collector->release_range_profiler();
      return;
    } catch (const CuptiError& e) {
      if (e.status() != CUPTI_ERROR_HARDWARE_BUSY) throw;
      if (Clock::now() > give_up) {
        busy_backoff_ = std::clamp<Clock::duration>(2 * busy_backoff_, kBusyWait, kBusyBackoffMax);
        busy_until_ = Clock::now() + busy_backoff_;
        throw std::runtime_error(counters_unavailable_note(CUPTI_ERROR_HARDWARE_BUSY, "waited 2 s"));
      }
    }
    std::this_thread::sleep_for(kBusyPoll);  // the lock let go of, so that the holder can replay
  }
}

ProfilingSession::FunctionAttributes ProfilingSession::attributes(CUfunction f) {
  auto it = functions_.find(f);
  if (it != functions_.end()) return it->second;
  FunctionAttributes a;
  function_attribute(f, CU_FUNC_ATTRIBUTE_NUM_REGS, a.registers);
  function_attribute(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, a.static_shared);
  return functions_[f] = a;
}

// As ncu: --kernel-name and --device filter, then --launch-skip and --launch-count count the
// launches that passed the filters (in this process).
bool ProfilingSession::select(const std::string& match_name, int device) {
  if (options_.device >= 0 && device != options_.device) return false;
  if (options_.kernel_regex && !std::regex_search(match_name, *options_.kernel_regex)) return false;
  const std::int64_t n = matched_++;
  if (n < options_.launch_skip) return false;
  return options_.launch_count < 0 || n < options_.launch_skip + options_.launch_count;
}

bool ProfilingSession::selection_exhausted() const {
  return options_.launch_count >= 0 && matched_ >= options_.launch_skip + options_.launch_count;
}

void ProfilingSession::hold() {
  if (!cupti_metrics_.empty()) mutex_.lock();
}

void ProfilingSession::release() {
  if (!cupti_metrics_.empty()) mutex_.unlock();
}

void ProfilingSession::on_launch_enter(CUpti_CallbackId cbid, const CUpti_CallbackData& cb) {
  std::lock_guard lock(mutex_);
  auto launch = std::make_unique<CapturedLaunch>(cbid, cb.functionParams);
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  if (cuStreamIsCapturing(launch->stream(), &capture) == CUDA_SUCCESS && capture != CU_STREAM_CAPTURE_STATUS_NONE)
    return;  // recorded into a graph, not run now: its kernels are seen when the graph is launched
  const std::string mangled = cb.symbolName != nullptr ? cb.symbolName : "";
  const std::string demangled = demangle_symbol(mangled);
  const std::string match_name = name_for_matching(mangled, demangled, options_.name_base);
  const FunctionAttributes attrs = attributes(launch->function());
  CUdevice device = 0;
  cuCtxGetDevice(&device);
  std::uint32_t context_id = 0, stream_id = 0;
  cuptiGetContextId(cb.context, &context_id);
  cuptiGetStreamIdEx(cb.context, launch->stream(), per_thread_stream(cbid) ? 1 : 0, &stream_id);
  const bool selected = select(match_name, device);
  add_program_launch(cb.correlationId);
  JsonLine line;
  line.field("type", "launch").field("seq", static_cast<long long>(++seq_))
      .field("corr", static_cast<unsigned long long>(cb.correlationId)).field("mangled", mangled)
      .field("demangled", demangled).triple("grid", launch->grid[0], launch->grid[1], launch->grid[2])
      .triple("block", launch->block[0], launch->block[1], launch->block[2]).field("regs", attrs.registers)
      .field("smem_static", attrs.static_shared).field("smem_dynamic", static_cast<long long>(launch->shared_bytes))
      .field("device", static_cast<int>(device)).field("context", static_cast<unsigned long long>(context_id))
      .field("stream", static_cast<unsigned long long>(stream_id))
      .field("api", api_name(cbid))
      .field("selected", selected);
  spool_.write(line);
  if (cupti_metrics_.empty()) return;
  launch->correlation = cb.correlationId;
  launch->counted = selected;
  if (launch->why_not_replayable.empty()) launch->why_not_replayable = why_never_replayed(mangled, match_name);
  // A launch that cannot be replayed ends the batch before it runs (the replay could not
  // re-create what it does) and gets no counters.
  if (!launch->why_not_replayable.empty()) {
    end_batch();
    if (selected)
      write_counters(launch->correlation, kDirectLaunch, "timing-only",
                     "counters not collected: " + launch->why_not_replayable, 0, "{}");
    return;
  }
  if (batch_.open() && batch_.context != cb.context) end_batch();
  // Once no later launch can be selected (--launch-count reached), the open batch is replayed
  // before this launch joins it: every launch joining it would be replayed in every pass only to
  // re-create memory no counted launch reads (50,000 tiny launches after the first 200 counted ones
  // ran past 300 s, where tracing them took 9 s).
  if (!selected && batch_.open() && selection_exhausted()) end_batch();
  // The first launch of a module's kernel in a context adds the module's variables to the memory
  // saved for replay; an open batch saved its memory without them, so it ends first.
  if (globals_.add_module_of(cb.context, launch->function(), memory_)) end_batch();
  if (!selected && !batch_.open()) return;
  if (!batch_.open()) {
    try {
      detail::TraceLaps laps("open batch");
      if (counters_failed_) throw std::runtime_error(counters_failure_);
      ContextProfiler& cp = profiler_for(cb.context);
      with_counters(cb.context, device, cp, [] {});  // set up now: a device without counters says so here
      laps.lap("counters set up");
      if (cuCtxSynchronize() != CUDA_SUCCESS) throw std::runtime_error("cuCtxSynchronize failed before the launch");
      laps.lap("synchronized");
      batch_.saved = std::make_unique<DeviceMemorySnapshot>(memory_, cb.context, cp.stream, staging_);
      laps.lap("memory saved");
      // The copy left the L2 full of its dirty lines, which the program's next launches would
      // write back on their own time: written back now, as a flush before a pass does. Its kernel
      // runs inside the program's launch call, whose correlation its record would take.
      {
        const KernelActivityPaused paused;
        cp.flush->flush(cp.stream);
        if (cuStreamSynchronize(cp.stream) != CUDA_SUCCESS)
          throw std::runtime_error("the L2 flush after saving memory failed");
      }
      laps.lap("flushed");
      batch_.context = cb.context;
      batch_.device = device;
    } catch (const std::exception& e) {
      write_counters(launch->correlation, launch->graph_index, "timing-only", e.what(), 0, "{}");
      return;
    }
  }
  if (selected) ++batch_.counted;
  batch_.launches.push_back(std::move(launch));
}

// A copy ends the batch (the replay would need the copied data), but a memset can be replayed in
// its place: PyTorch zeroes a reduction's semaphores before every multi-block reduction, and each
// would otherwise start a batch with a copy of the program's memory right before the launch.
void ProfilingSession::on_memset(const MemsetOp& op, CUcontext context) {
  std::lock_guard lock(mutex_);
  if (!batch_.open()) return;
  if (batch_.context != context) {
    end_batch();
    return;
  }
  batch_.launches.push_back(std::make_unique<CapturedLaunch>(op));
}

void ProfilingSession::on_launch_exit() {
  std::lock_guard lock(mutex_);
  if (batch_.open() && batch_.counted >= options_.batch) end_batch();
}

void ProfilingSession::on_graph_instantiated(CUgraphExec exec, CUgraph graph) {
  std::lock_guard lock(mutex_);
  graphs_.on_instantiated(exec, graph);
}

void ProfilingSession::on_graph_exec_call(CUpti_CallbackId cbid, const void* params) {
  const auto change = graph_exec_change(cbid, params);
  if (!change) return;  // most calls: no lock taken
  std::lock_guard lock(mutex_);
  graphs_.on_changed(*change);
}

std::string ProfilingSession::why_never_replayed(const std::string& mangled, const std::string& match_name) const {
  if (is_communication_kernel(mangled))
    return "it is a communication kernel (NCCL): it waits for its peers' kernels on the other GPUs, so replayed "
           "alone it would wait for ever";
  if (options_.no_replay && std::regex_search(match_name, *options_.no_replay))
    return "--no-replay matched it: it is never replayed";
  return {};
}

// A graph's kernel nodes are profiled one by one, as ncu does: its memory is saved before it
// runs, its kernels replayed in topological order from there with its memsets and copies in
// their places (each counted kernel after an L2 flush), and the memory put back before the
// program's own launch of the graph goes ahead. A graph holding a kernel that is never replayed
// is not replayed either.
void ProfilingSession::on_graph_launch(const CUpti_CallbackData& cb) {
  std::lock_guard lock(mutex_);
  end_batch();
  add_program_launch(cb.correlationId);
  if (cupti_metrics_.empty()) return;
  const auto* p = static_cast<const cuGraphLaunch_params*>(cb.functionParams);
  std::vector<std::unique_ptr<CapturedLaunch>> operations;
  try {
    operations = graphs_.operations(p->hGraph);
  } catch (const std::exception& e) {
    write_counters(cb.correlationId, -1, "timing-only", std::string("counters not collected: ") + e.what(), 0, "{}");
    return;
  }
  CUdevice device = 0;
  cuCtxGetDevice(&device);
  bool any = false;
  std::string never;  // why a kernel of the graph is never replayed: then neither is the graph
  for (auto& k : operations) {
    if (k->kernel_launches() == 0) continue;  // a memset or copy node, replayed in its place
    const char* name = nullptr;
    cuFuncGetName(&name, k->function());
    const std::string mangled = name != nullptr ? name : "";
    const std::string demangled = demangle_symbol(mangled);
    const std::string match_name = name_for_matching(mangled, demangled, options_.name_base);
    k->name = mangled;
    k->correlation = cb.correlationId;
    k->counted = select(match_name, device);
    any = any || k->counted;
    if (const std::string why = why_never_replayed(mangled, match_name); !why.empty() && never.empty())
      never = "the graph holds " + kernel_display_name(demangled) + ", and " + why;
    globals_.add_module_of(cb.context, k->function(), memory_);
  }
  if (!never.empty()) {
    for (auto& k : operations)
      if (k->counted)
        write_counters(k->correlation, k->graph_index, "timing-only", "counters not collected: " + never, 0, "{}",
                       k.get());
    return;
  }
  if (any) replay_graph(cb.context, device, operations);
}

void ProfilingSession::replay_graph(CUcontext context, CUdevice device,
                                    std::vector<std::unique_ptr<CapturedLaunch>>& operations) {
  try {
    if (counters_failed_) throw std::runtime_error(counters_failure_);
    ContextProfiler& cp = profiler_for(context);
    if (cuCtxSynchronize() != CUDA_SUCCESS) throw std::runtime_error("cuCtxSynchronize failed before the graph");
    const DeviceMemorySnapshot saved(memory_, context, cp.stream, staging_);
    const KernelActivityPaused paused;
    with_counters(context, device, cp, [&] {
      replayer_.run(context, [&] {
        collect_and_write(cp, operations, saved);
        saved.restore(cp.stream);  // the program's launch of the graph starts from the memory it left
        if (cuStreamSynchronize(cp.stream) != CUDA_SUCCESS)
          throw std::runtime_error("restoring the graph's memory failed");
      });
    });
  } catch (const std::exception& e) {
    for (auto& k : operations)
      if (k->counted)
        write_counters(k->correlation, k->graph_index, "timing-only",
                       std::string("counters not collected: ") + e.what(), 0, "{}", k.get());
  }
}

void ProfilingSession::add_program_launch(std::uint64_t correlation) {
  std::lock_guard lock(correlations_mutex_);
  program_correlations_.insert(correlation);
}

bool ProfilingSession::is_program_launch(std::uint64_t correlation) {
  std::lock_guard lock(correlations_mutex_);
  return program_correlations_.count(correlation) != 0;
}

void ProfilingSession::write_counters(std::uint64_t correlation, int graph_index, const std::string& status,
                                      const std::string& note, int passes, const std::string& values_json,
                                      const CapturedLaunch* graph_kernel) {
  JsonLine line;
  line.field("type", "counters").field("corr", static_cast<unsigned long long>(correlation));
  if (graph_index != kDirectLaunch) line.field("graph_index", graph_index);
  // A graph's kernel has no launch record: its name and shape, for the progress line.
  if (graph_kernel != nullptr && !graph_kernel->name.empty())
    line.field("mangled", graph_kernel->name)
        .triple("grid", graph_kernel->grid[0], graph_kernel->grid[1], graph_kernel->grid[2])
        .triple("block", graph_kernel->block[0], graph_kernel->block[1], graph_kernel->block[2]);
  line.field("status", status).field("note", note).field("passes", passes).raw("values", values_json);
  spool_.write(line);
}

void ProfilingSession::collect_and_write(ContextProfiler& cp, std::vector<std::unique_ptr<CapturedLaunch>>& launches,
                                         const DeviceMemorySnapshot& saved) {
  std::vector<CounterJob> jobs;
  for (auto& l : launches) jobs.push_back({l.get(), CacheState::cold, l->counted});
  CUstream stream = cp.stream;
  launches.front()->restore_memory = [&saved, stream] { saved.restore(stream); };
  const std::vector<CounterResult> results = cp.collector->collect(jobs, cupti_metrics_, *cp.flush, cp.stream);
  for (std::size_t i = 0; i < launches.size(); ++i) {
    if (!launches[i]->counted) continue;
    const CounterResult& r = results[i];
    JsonLine values;
    for (const auto& v : r.values) values.field(v.name, v.value);
    write_counters(launches[i]->correlation, launches[i]->graph_index, std::string(to_string(r.status)), r.note,
                   r.passes, values.str(), launches[i].get());
  }
}

void ProfilingSession::end_batch() {
  std::lock_guard lock(mutex_);
  if (!batch_.open()) return;
  LaunchBatch batch = std::move(batch_);
  batch_ = LaunchBatch{};
  try {
    detail::TraceLaps laps("end batch");
    if (cuCtxSynchronize() != CUDA_SUCCESS) throw std::runtime_error("cuCtxSynchronize failed before the replay");
    laps.lap("synchronized");
    ContextProfiler& cp = profiler_for(batch.context);
    const KernelActivityPaused paused;
    with_counters(batch.context, batch.device, cp,
                  [&] { replayer_.run(batch.context, [&] { collect_and_write(cp, batch.launches, *batch.saved); }); });
    laps.lap("replayed");
  } catch (const std::exception& e) {
    for (auto& l : batch.launches)
      if (l->counted)
        write_counters(l->correlation, l->graph_index, "timing-only",
                       std::string("counters not collected: ") + e.what(), 0, "{}");
  }
}

void ProfilingSession::on_host_sync() {
  if (!managed_allocated_.load(std::memory_order_relaxed)) return;
  std::lock_guard lock(mutex_);
  if (batch_.open() && memory_.holds_host_written_memory(batch_.context)) end_batch();
}

void ProfilingSession::on_allocation(CUcontext context, CUdeviceptr ptr, std::size_t bytes, bool host_writes) {
  std::lock_guard lock(mutex_);
  memory_.add(context, ptr, bytes, host_writes);
  if (host_writes) managed_allocated_ = true;
}

void ProfilingSession::update_memory(const std::function<void(DeviceMemoryTracker&)>& change) {
  std::lock_guard lock(mutex_);
  change(memory_);
}

void ProfilingSession::on_module_loaded(std::string_view cubin) { globals_.on_cubin_loaded(cubin); }

void ProfilingSession::on_module_unload() {
  std::lock_guard lock(mutex_);
  globals_.forget(memory_);
}

void ProfilingSession::on_context_destroy(CUcontext context) {
  std::lock_guard lock(mutex_);
  detail::TraceLaps laps("context destroyed");
  if (batch_.open() && batch_.context == context) end_batch();
  // Its allocations and module variables went with it; a later context may get the same handle.
  memory_.forget_context(context);
  globals_.forget(memory_);
  // Every context's profiler goes, not only this one's: seen on the H100, the first context's
  // next collection hung in its passes once a second context had held the counters and been
  // destroyed (a program that creates, uses and destroys a context of its own, then launches again
  // in the primary one). Each is set up again when next used.
  profilers_.clear();
  laps.lap("profilers released");
}

}  // namespace roofline::inject

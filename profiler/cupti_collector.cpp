#include "profiler/cupti_collector.hpp"

#include <cuda_runtime.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "kernels/cuda_check.hpp"
#include "models/error.hpp"
#include "models/occupancy.hpp"
#include "profiler/counter_availability.hpp"
#include "profiler/cupti_check.hpp"
#include "profiler/detail/counter_config.hpp"
#include "profiler/detail/driver_api.hpp"
#include "profiler/detail/launch_capture.hpp"
#include "profiler/detail/trace.hpp"
#include "profiler/device_query.hpp"
#include "profiler/range_results.hpp"

namespace roofline {
namespace {

std::string unsupported_reason(const CUpti_Profiler_DeviceSupported_Params& p) {
  auto bad = [](CUpti_Profiler_Support_Level l) { return l != CUPTI_PROFILER_CONFIGURATION_SUPPORTED; };
  if (bad(p.architecture))
    return "counters unavailable: the CUPTI range profiler does not support this GPU architecture; fix: use a GPU of "
           "compute capability >= 7.5";
  if (p.vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED)
    return "counters unavailable: profiling is disabled on this vGPU; fix: ask the host administrator to enable "
           "profiling for the vGPU";
  if (bad(p.vGpu)) return "counters unavailable: this vGPU does not support profiling; fix: use a bare-metal GPU";
  if (bad(p.confidentialCompute))
    return "counters unavailable: confidential computing is enabled; fix: disable CC mode to profile";
  if (bad(p.cmp)) return "counters unavailable: CMP devices expose no counters; fix: use another GPU";
  if (bad(p.sli)) return "counters unavailable: SLI is enabled; fix: disable SLI";
  if (bad(p.wsl)) return "counters unavailable: profiling is not supported under this WSL setup; fix: update the driver";
  return "counters unavailable: the device does not support the CUPTI range profiler; fix: update the driver";
}

bool reenable_each_collect() {
  static const bool on = [] {
    const char* v = std::getenv("ROOFLINE_CUPTI_REENABLE");
    return v != nullptr && *v != '\0' && *v != '0';
  }();
  return on;
}

}  // namespace

// Stops launch capture however collect() leaves, and disables the range profiler on the way
// out while `owner` is set: after a failure (the next collection starts from a fresh Enable),
// and after every collection in ROOFLINE_CUPTI_REENABLE mode.
struct CuptiCollector::RangeProfilerGuard {
  CuptiCollector* owner = nullptr;
  detail::LaunchCapture* capture = nullptr;
  bool capturing = false;
  ~RangeProfilerGuard() {
    if (capturing && capture != nullptr) (void)capture->stop();
    if (owner != nullptr) owner->disable_range_profiler();
  }
};

void CuptiCollector::disable_range_profiler() {
  if (object_ == nullptr) return;
  auto p = ROOFLINE_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
  p.pRangeProfilerObject = static_cast<CUpti_RangeProfiler_Object*>(object_);
  (void)cuptiRangeProfilerDisable(&p);
  object_ = nullptr;
  configured_ = {nullptr, 0};
  counter_images_.clear();
}

namespace {

double launch_value(std::string_view name, const detail::CapturedLaunch& l) {
  if (name == "launch__registers_per_thread") return allocated_registers(l.registers);  // as ncu reports it
  if (name == "launch__block_size") return static_cast<double>(l.block);
  if (name == "launch__grid_size") return static_cast<double>(l.grid);
  if (name == "launch__shared_mem_per_block_static") return l.static_shared;
  if (name == "launch__shared_mem_per_block_dynamic") return static_cast<double>(l.dynamic_shared);
  if (name == "launch__thread_count") return static_cast<double>(l.block * l.grid);
  return 0.0;
}

}  // namespace

CuptiCollector::CuptiCollector(void* context) {
  std::string why;
  if (cuda_device_count(&why) == 0) throw Error("no CUDA device: " + why);
  int device = 0;
  ROOFLINE_CUDA_CHECK(cudaGetDevice(&device));
  context_ = context != nullptr ? context : detail::current_context();
  try {
    auto init = ROOFLINE_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
    ROOFLINE_CUPTI_CHECK(cuptiProfilerInitialize(&init));
    initialized_ = true;

    auto chip = ROOFLINE_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
    chip.deviceIndex = static_cast<std::size_t>(device);
    ROOFLINE_CUPTI_CHECK(cuptiDeviceGetChipName(&chip));
    chip_ = chip.pChipName;
    validator_ = std::make_unique<MetricValidator>(chip_);

    auto supported = ROOFLINE_CUPTI_PARAMS(CUpti_Profiler_DeviceSupported_Params);
    supported.cuDevice = detail::current_cu_device();
    supported.api = CUPTI_PROFILER_RANGE_PROFILING;
    ROOFLINE_CUPTI_CHECK(cuptiProfilerDeviceSupported(&supported));
    if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
      mark_unavailable(unsupported_reason(supported));
      return;
    }

    auto avail = ROOFLINE_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    avail.ctx = static_cast<CUcontext>(context_);
    ROOFLINE_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&avail));
    counter_availability_.resize(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = counter_availability_.data();
    ROOFLINE_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&avail));
    available_ = true;
  } catch (const CuptiError& e) {
    busy_ = e.status() == CUPTI_ERROR_HARDWARE_BUSY;
    mark_unavailable(counters_unavailable_note(e.status(), "setup"));
  }
}

CuptiCollector::~CuptiCollector() {
  disable_range_profiler();
  configs_.clear();
  capture_.reset();
  validator_.reset();
  if (initialized_) {
    auto p = ROOFLINE_CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params);
    (void)cuptiProfilerDeInitialize(&p);
  }
}

void CuptiCollector::mark_unavailable(std::string note) {
  available_ = false;
  note_ = std::move(note);
}

void CuptiCollector::validate(std::span<const std::string> names) {
  if (validator_ == nullptr) return;  // chip unknown: names cannot be checked (counters are unavailable anyway)
  std::string key;
  for (const auto& n : names) key += n + ',';
  if (validated_.count(key) != 0) return;  // the same list every launch: checked once
  validator_->validate(names);
  validated_.insert(std::move(key));
}

detail::CounterConfig& CuptiCollector::config_for(const std::vector<std::string>& cupti_names) {
  std::string key;
  for (const auto& n : cupti_names) key += n + ',';
  auto& slot = configs_[key];
  if (!slot) slot = detail::build_counter_config(chip_, counter_availability_, cupti_names);
  return *slot;
}

int CuptiCollector::passes_for(std::span<const std::string> names) {
  validate(names);
  if (!available_) return 0;
  std::vector<std::string> cupti{std::string(metric::duration)};
  for (const auto& n : names)
    if (!is_launch_metric(n) && std::find(cupti.begin(), cupti.end(), n) == cupti.end()) cupti.push_back(n);
  return config_for(cupti).passes;
}

CounterResult CuptiCollector::collect(KernelRunner& runner, std::span<const std::string> names, L2Flush& flush,
                                      CacheState cache, void* stream) {
  RunnerReplay replay(runner);
  const CounterJob job{&replay, cache};
  return collect(std::span<const CounterJob>(&job, 1), names, flush, stream).front();
}

namespace {

constexpr std::string_view kNoKernel =
    "counters not applicable: this launch runs no kernel (cudaMemcpyAsync), and CUPTI ranges cover kernels";

// gpu__time_duration.sum is always evaluated first: it weights multi-kernel ratios.
void split_names(std::span<const std::string> names, std::vector<std::string>& cupti,
                 std::vector<std::string>& launch_names) {
  cupti = {std::string(metric::duration)};
  for (const auto& n : names) {
    if (is_launch_metric(n))
      launch_names.push_back(n);
    else if (std::find(cupti.begin(), cupti.end(), n) == cupti.end())
      cupti.push_back(n);
  }
}

void put_in_requested_order(std::span<const std::string> names, const std::vector<MetricValue>& values,
                            CounterResult& result) {
  for (const auto& n : names) {
    const auto it = std::find_if(values.begin(), values.end(), [&](const MetricValue& v) { return v.name == n; });
    if (it != values.end() &&
        std::none_of(result.values.begin(), result.values.end(), [&](const MetricValue& v) { return v.name == n; }))
      result.values.push_back(*it);
  }
}

}  // namespace

namespace {

// The range capacity a collection is set up for: the next power of two (at least 16), so that
// batches of different sizes reuse one enabled profiler and counter image instead of paying for a
// new Enable and SetConfig each (tens of milliseconds).
int range_capacity(int ranges) {
  int capacity = 16;
  while (capacity < ranges) capacity *= 2;
  return capacity;
}

// What a pass runs before a job's launch, decided once for run_passes (which runs it) and collect
// (which counts its kernel launches among the ranges): a counted cold job's L2 flush, the SMs'
// code evicted too (ncu's replay fetches it again); a counted warm job's L2 flush and one earlier
// launch of its own, so that it finds what back-to-back launches of its own leave in L2 and
// nothing of the job before it (a large launch's dirty lines, which one earlier launch of a small
// kernel does not evict, would otherwise be written back during its counted launch); nothing
// before a job that is not counted.
struct LeadIn {
  bool flush = false, evict_code = false, own_launch = false;

  int kernel_launches(const L2Flush& l2, int own) const {
    return (flush ? l2.kernel_launches(evict_code) : 0) + (own_launch ? own : 0);
  }
};

LeadIn lead_in(const CounterJob& job) {
  if (!job.counted) return {};
  if (job.cache == CacheState::cold) return {.flush = true, .evict_code = true};
  return {.flush = true, .own_launch = true};
}

}  // namespace

void* CuptiCollector::enable_for(const detail::CounterConfig& config, int ranges) {
  // A range profiler object takes one SetConfig: seen on the H100, a second one with another
  // config (or range count) is accepted but the first config's passes run. So the object is
  // kept only while the (config, ranges) pair stays the same, and enabled afresh otherwise.
  const std::pair<const detail::CounterConfig*, int> key{&config, ranges};
  if (reenable_each_collect() || (object_ != nullptr && key != configured_)) disable_range_profiler();
  if (object_ == nullptr) {
    auto enable = ROOFLINE_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
    enable.ctx = static_cast<CUcontext>(context_);
    ROOFLINE_CUPTI_CHECK(cuptiRangeProfilerEnable(&enable));
    object_ = enable.pRangeProfilerObject;
  }
  return object_;
}

std::vector<std::uint8_t>& CuptiCollector::configure(detail::CounterConfig& config, int ranges) {
  auto* object = static_cast<CUpti_RangeProfiler_Object*>(object_);
  const std::pair<const detail::CounterConfig*, int> key{&config, ranges};
  // Sized for every range of one Start/Stop: too small an image silently drops ranges. The
  // image is kept per (config, ranges) and initialised again for every collection.
  CounterImage& image = counter_images_[key];
  if (image.data.empty()) {
    auto size = ROOFLINE_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
    size.pRangeProfilerObject = object;
    size.pMetricNames = config.c_names.data();
    size.numMetrics = config.c_names.size();
    size.maxNumOfRanges = static_cast<std::size_t>(ranges);
    size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(ranges);
    ROOFLINE_CUPTI_CHECK(cuptiRangeProfilerGetCounterDataSize(&size));
    image.data.resize(size.counterDataSize);
  }
  auto init = ROOFLINE_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
  init.pRangeProfilerObject = object;
  init.counterDataSize = image.data.size();
  init.pCounterData = image.data.data();
  ROOFLINE_CUPTI_CHECK(cuptiRangeProfilerCounterDataImageInitialize(&init));

  auto set = ROOFLINE_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
  set.pRangeProfilerObject = object;
  set.configSize = config.image.size();
  set.pConfig = config.image.data();
  set.counterDataImageSize = image.data.size();
  set.pCounterDataImage = image.data.data();
  set.range = CUPTI_AutoRange;
  set.replayMode = CUPTI_UserReplay;
  set.maxRangesPerPass = static_cast<std::size_t>(ranges);
  set.numNestingLevels = 1;
  set.minNestingLevel = 1;
  set.passIndex = 0;
  set.targetNestingLevel = 1;
  ROOFLINE_CUPTI_CHECK(cuptiRangeProfilerSetConfig(&set));
  configured_ = key;
  return image.data;
}

// Start and Stop cost milliseconds each whatever they cover, so one pass covers every job: its
// restore, then its lead-in (lead_in), then its launch.
int CuptiCollector::run_passes(std::span<const CounterJob> jobs, const detail::CounterConfig& config, L2Flush& flush,
                               void* stream, RangeProfilerGuard& guard, std::vector<detail::CapturedLaunch>& captured) {
  auto* object = static_cast<CUpti_RangeProfiler_Object*>(object_);
  auto s = static_cast<cudaStream_t>(stream);
  detail::TraceLaps laps("collect");
  const int max_passes = std::max(config.passes, 1) * 2 + 4;
  for (int passes = 0;;) {
    if (passes >= max_passes)
      throw Error(fmt::format("CUPTI did not finish after {} passes ({} expected)", passes, config.passes));
    if (passes == 0 && capture_ != nullptr) {
      capture_->start();
      guard.capturing = true;
    }
    auto start = ROOFLINE_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
    start.pRangeProfilerObject = object;
    ROOFLINE_CUPTI_CHECK(cuptiRangeProfilerStart(&start));
    laps.lap("start");
    for (const CounterJob& job : jobs) {
      // A counted job with no kernel has no counters; an uncounted one (a memset of the
      // program's) still changes the memory the next jobs read.
      if (job.job->kernel_launches() <= 0 && job.counted) continue;
      job.job->restore();
      const LeadIn before = lead_in(job);
      if (before.flush) flush.flush(s, before.evict_code);
      if (before.own_launch) job.job->launch(s);
      job.job->launch(s);
    }
    ROOFLINE_CUDA_CHECK(cudaStreamSynchronize(s));
    ROOFLINE_CUDA_CHECK(cudaGetLastError());
    laps.lap("launches");
    auto stop = ROOFLINE_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
    stop.pRangeProfilerObject = object;
    ROOFLINE_CUPTI_CHECK(cuptiRangeProfilerStop(&stop));
    laps.lap("stop");
    if (guard.capturing) {
      captured = capture_->stop();
      guard.capturing = false;
    }
    ++passes;
    if (stop.isAllPassSubmitted) return passes;
  }
}

std::vector<RangeValues> CuptiCollector::evaluate(detail::CounterConfig& config, int ranges,
                                                  std::vector<std::string>& notes) {
  std::vector<std::uint8_t>& data = counter_images_[configured_].data;
  auto decode = ROOFLINE_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
  decode.pRangeProfilerObject = static_cast<CUpti_RangeProfiler_Object*>(object_);
  ROOFLINE_CUPTI_CHECK(cuptiRangeProfilerDecodeData(&decode));
  if (decode.numOfRangeDropped > 0) notes.push_back(fmt::format("{} ranges dropped", decode.numOfRangeDropped));

  auto info = ROOFLINE_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
  info.pCounterDataImage = data.data();
  info.counterDataImageSize = data.size();
  ROOFLINE_CUPTI_CHECK(cuptiRangeProfilerGetCounterDataInfo(&info));
  if (info.numTotalRanges != static_cast<std::size_t>(ranges))
    throw Error(fmt::format("CUPTI recorded {} ranges for the {} kernel launches of a pass: the counters cannot be "
                            "attributed to launches",
                            info.numTotalRanges, ranges));
  std::vector<RangeValues> decoded;
  for (std::size_t r = 0; r < info.numTotalRanges; ++r) {
    RangeValues range;
    range.name = std::to_string(r);
    range.values.resize(config.c_names.size());
    auto eval = ROOFLINE_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    eval.pHostObject = config.host->get();
    eval.pCounterDataImage = data.data();
    eval.counterDataImageSize = data.size();
    eval.rangeIndex = r;
    eval.ppMetricNames = config.c_names.data();
    eval.numMetrics = config.c_names.size();
    eval.pMetricValues = range.values.data();
    ROOFLINE_CUPTI_CHECK(cuptiProfilerHostEvaluateToGpuValues(&eval));
    decoded.push_back(std::move(range));
  }
  return decoded;
}

std::vector<CounterResult> CuptiCollector::collect(std::span<const CounterJob> jobs, std::span<const std::string> names,
                                                   L2Flush& flush, void* stream) {
  std::vector<CounterResult> results(jobs.size());
  if (names.empty() || jobs.empty()) return results;
  validate(names);
  if (!available_) {
    for (auto& r : results) r = {CounterStatus::timing_only, note_, 0, {}};
    return results;
  }
  // AutoRange gives each kernel launch its range, in launch order, so a job's ranges are known
  // by position.
  std::vector<Slot> slots;
  int ranges = 0;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const int k = jobs[j].job->kernel_launches();
    if (k <= 0) {
      results[j] = {CounterStatus::timing_only, std::string(kNoKernel), 0, {}};
      continue;
    }
    ranges += lead_in(jobs[j]).kernel_launches(flush, k);
    if (jobs[j].counted) slots.push_back({j, ranges, k});
    ranges += k;
  }
  if (slots.empty()) return results;

  std::vector<std::string> cupti, launch_names, notes;
  split_names(names, cupti, launch_names);
  if (!launch_names.empty() && capture_ == nullptr && !capture_failed_) {
    try {
      capture_ = std::make_unique<detail::LaunchCapture>();
    } catch (const CuptiError& e) {
      capture_failed_ = true;
      notes.push_back(fmt::format("launch__* metrics unavailable ({})", detail::cupti_status_name(e.status())));
    }
  }
  std::vector<RangeValues> decoded;
  std::vector<detail::CapturedLaunch> captured;
  int passes = 0;
  try {
    detail::CounterConfig& config = config_for(cupti);
    // The range profiler stays enabled between collections (Enable/Disable cost more than the
    // passes); ROOFLINE_CUPTI_REENABLE=1 enables and disables it around every collection.
    RangeProfilerGuard guard;
    guard.capture = capture_.get();
    detail::TraceLaps laps("collector");
    enable_for(config, range_capacity(ranges));
    laps.lap("enabled");
    guard.owner = this;  // until success
    configure(config, range_capacity(ranges));
    laps.lap("configured");
    passes = run_passes(jobs, config, flush, stream, guard, captured);
    decoded = evaluate(config, ranges, notes);
    laps.lap("evaluated");
    if (!reenable_each_collect()) guard.owner = nullptr;  // success: stays enabled for the next collection
  } catch (const CuptiError& e) {
    if (!means_counters_unavailable(e.status())) throw;
    mark_unavailable(counters_unavailable_note(e.status(), e.what()));
    for (const Slot& slot : slots) results[slot.job] = {CounterStatus::timing_only, note_, 0, {}};
    return results;
  }
  assemble(slots, names, cupti, launch_names, decoded, captured, ranges, passes, notes, results);
  return results;
}

void CuptiCollector::assemble(std::span<const Slot> slots, std::span<const std::string> names,
                              const std::vector<std::string>& cupti, const std::vector<std::string>& launch_names,
                              const std::vector<RangeValues>& decoded,
                              const std::vector<detail::CapturedLaunch>& captured, int ranges, int passes,
                              const std::vector<std::string>& notes, std::vector<CounterResult>& results) const {
  const std::vector<std::string> cupti_wanted(names.begin(), names.end());
  const bool captured_all = captured.size() == static_cast<std::size_t>(ranges);
  std::vector<std::string> shared_notes = notes;
  if (!launch_names.empty() && capture_ != nullptr && !captured_all)
    shared_notes.push_back(fmt::format("{} kernel launches captured of {}", captured.size(), ranges));
  for (const Slot& slot : slots) {
    const auto first = decoded.begin() + slot.first;
    auto values = combine_range_values(cupti, std::span<const RangeValues>(first, first + slot.count), cupti_wanted);
    std::vector<std::string> job_notes = shared_notes;
    for (const auto& n : launch_names) {
      if (!captured_all) continue;
      double v = -1.0;
      for (int k = slot.first; k < slot.first + slot.count; ++k) v = std::max(v, launch_value(n, captured[k]));
      if (v < 0.0) {
        job_notes.push_back(fmt::format("{} unreadable (cuFuncGetAttribute failed)", n));
        continue;
      }
      values.push_back({n, v});
    }
    CounterResult& result = results[slot.job];
    put_in_requested_order(names, values, result);
    result.status = CounterStatus::collected;
    result.passes = passes;
    for (const auto& n : job_notes) result.note += (result.note.empty() ? "" : "; ") + n;
  }
}

}  // namespace roofline

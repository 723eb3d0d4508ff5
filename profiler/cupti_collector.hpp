#pragma once
// CUPTI counter collection for one launch or a batch of them: Range Profiler + Profiler Host
// API, AutoRange (one range per kernel) + UserReplay (every pass replays the batch). Before
// each launch in a pass its outputs are restored and the L2 is flushed, so the numbers match
// `ncu --clock-control none --cache-control all`. Clocks are left as found.
//
// Setup (profiler initialisation, chip name, counter availability, validation, config images,
// the enabled range profiler and its counter-data images) is done once per collector and per
// metric set; keep one collector per process. ROOFLINE_TRACE=1 prints the steps' times.
#include <map>
#include <memory>
#include <set>
#include <span>
#include <utility>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/kernel_runner.hpp"
#include "models/launch.hpp"
#include "models/measurement.hpp"
#include "profiler/l2_flush.hpp"
#include "profiler/metric_validator.hpp"
#include "profiler/range_results.hpp"
#include "profiler/replay_job.hpp"

namespace roofline {

namespace detail {
class LaunchCapture;
struct CapturedLaunch;
struct CounterConfig;
}  // namespace detail

// One launch of a batch: what to replay and the cache state its counters are taken in.
// counted = false: the launch is replayed in every pass (a later launch needs its results) but
// nothing is flushed before it and no counters are returned for it.
struct CounterJob {
  ReplayJob* job = nullptr;
  CacheState cache = CacheState::cold;
  bool counted = true;
};

struct CounterResult {
  CounterStatus status = CounterStatus::not_requested;
  std::string note;  // timing-only: why and how to fix; collected: warnings (dropped ranges, ...)
  int passes = 0;    // replay passes used
  std::vector<MetricValue> values;  // in the requested order
};

class CuptiCollector {
 public:
  // Sets up CUPTI on the current device (cudaSetDevice first). Never throws for "counters
  // unavailable": available() is false and unavailable_note() says why and how to fix it.
  // Throws Error only for real failures (no CUDA device at all).
  // context: the CUcontext to profile (nullptr: the current one).
  explicit CuptiCollector(void* context = nullptr);
  ~CuptiCollector();
  CuptiCollector(const CuptiCollector&) = delete;
  CuptiCollector& operator=(const CuptiCollector&) = delete;

  bool available() const { return available_; }
  const std::string& unavailable_note() const { return note_; }
  // Unavailable only because another process held the GPU's counters during setup
  // (CUPTI_ERROR_HARDWARE_BUSY): a collector made later may succeed.
  bool busy() const { return busy_; }
  const std::string& chip() const { return chip_; }

  // Throws InputError naming the first unknown metric and the closest valid names. Works
  // when counters are unavailable too, as long as the chip is known.
  void validate(std::span<const std::string> names);
  // Replay passes the CUPTI part of names needs (config built and cached). Throws like validate.
  int passes_for(std::span<const std::string> names);

  // Collects names for the prepared runner. Returns timing_only with a note when counters are
  // unavailable or the launch has no kernel (cudaMemcpyAsync). stream: a cudaStream_t.
  // cold: restore + L2 flush before every pass (= ncu --cache-control all). warm: restore + one
  // unprofiled launch before every pass, so the profiled launch finds L2 as back-to-back
  // launches leave it (= ncu --cache-control none after a warm-up).
  CounterResult collect(KernelRunner& runner, std::span<const std::string> names, L2Flush& flush,
                        CacheState cache = CacheState::cold, void* stream = nullptr);
  // The same for several jobs at once, one result per job in order: each replay pass launches
  // them all between one range-profiler Start and Stop, which cost milliseconds each (most of a
  // per-launch collection's time on the H100). Throws Error when CUPTI's ranges do not match the
  // launches made. launch__* names are answered from the launches' own attributes (CUPTI launch
  // callbacks); a caller that subscribes to CUPTI itself leaves them out and fills them in.
  std::vector<CounterResult> collect(std::span<const CounterJob> jobs, std::span<const std::string> names,
                                     L2Flush& flush, void* stream = nullptr);

  // Disables the range profiler that collect() keeps enabled between collections. Call before
  // timing launches with CUDA events: seen on the H100, ~5 us kernels read 0.15-0.2 us longer
  // while it is enabled (not started).
  void release_range_profiler() { disable_range_profiler(); }

 private:
  struct RangeProfilerGuard;
  struct CounterImage {
    std::vector<std::uint8_t> data;
  };
  struct Slot {  // a counted job's own ranges within a pass
    std::size_t job = 0;
    int first = 0, count = 0;
  };
  detail::CounterConfig& config_for(const std::vector<std::string>& cupti_names);
  void* enable_for(const detail::CounterConfig& config, int ranges);
  std::vector<std::uint8_t>& configure(detail::CounterConfig& config, int ranges);
  int run_passes(std::span<const CounterJob> jobs, const detail::CounterConfig& config, L2Flush& flush, void* stream,
                 RangeProfilerGuard& guard, std::vector<detail::CapturedLaunch>& captured);
  std::vector<RangeValues> evaluate(detail::CounterConfig& config, int ranges, std::vector<std::string>& notes);
  void assemble(std::span<const Slot> slots, std::span<const std::string> names, const std::vector<std::string>& cupti,
                const std::vector<std::string>& launch_names, const std::vector<RangeValues>& decoded,
                const std::vector<detail::CapturedLaunch>& captured, int ranges, int passes,
                const std::vector<std::string>& notes, std::vector<CounterResult>& results) const;
  void mark_unavailable(std::string note);
  void disable_range_profiler();

  bool available_ = false, initialized_ = false, busy_ = false;
  std::string note_, chip_;
  void* context_ = nullptr;  // CUcontext
  std::vector<std::uint8_t> counter_availability_;
  std::unique_ptr<MetricValidator> validator_;
  std::unique_ptr<detail::LaunchCapture> capture_;
  bool capture_failed_ = false;
  std::map<std::string, std::unique_ptr<detail::CounterConfig>> configs_;
  // The range profiler object (CUpti_RangeProfiler_Object*), enabled on the first collection
  // and kept until destruction or a failure, and counter-data images per (config, ranges).
  void* object_ = nullptr;
  std::set<std::string> validated_;  // name lists validate() accepted
  std::map<std::pair<const detail::CounterConfig*, int>, CounterImage> counter_images_;
  std::pair<const detail::CounterConfig*, int> configured_{nullptr, 0};  // what object_ was set up for
};

}  // namespace roofline

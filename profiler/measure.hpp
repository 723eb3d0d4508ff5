#pragma once
// measure: one launch configuration on the GPU -> Measurement.
// prepare with fresh random inputs -> launch once and verify against the reference (on the
// GPU; a failed check is reported and nothing is timed) -> time with CUDA events -> collect CUPTI
// counters -> bytes moved and bandwidth.
//
// MeasureSession owns what is set up once per process (device, L2 flush buffer, CUPTI
// collector with validated metric names and cached config images); measure many launches
// through one session.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "kernels/kernel_runner.hpp"
#include "models/launch.hpp"
#include "models/measurement.hpp"
#include "profiler/device_query.hpp"
#include "profiler/timing_stats.hpp"

namespace roofline {

class CuptiCollector;
class L2Flush;

struct MeasureOptions {
  bool counters = true;                     // false: timings only (counter_status not_requested)
  bool timing = true;                       // false: no event timing (counters only, or verify only)
  std::vector<std::string> extra_metrics;   // --metrics: added to the default set
  TimerOptions timer;
  std::uint64_t seed = 0;                   // input seed; 0 = a fresh random seed per launch
  int device = 0;                           // CUDA device ordinal
};

struct MeasureJob {
  // Made for launch.kernel. Jobs of one batch may share a runner when their launches differ in
  // the cache state alone: it is prepared and verified once, for the first of them.
  KernelRunner* runner = nullptr;
  Launch launch;
  double copy_bandwidth = 0.0;     // device-to-device copy B/s at this N and cache (0: pct_of_copy left 0)
};

class MeasureSession {
 public:
  // Selects the device, queries it, allocates the L2 flush buffer and (when counters are asked
  // for) sets up CUPTI and validates the metric names. Throws Error "no CUDA device: ..." without
  // a GPU and InputError for an unknown metric name. Counters being unavailable is not an
  // error: measurements come back timing-only with counters_note().
  explicit MeasureSession(MeasureOptions options = {});
  ~MeasureSession();
  MeasureSession(const MeasureSession&) = delete;
  MeasureSession& operator=(const MeasureSession&) = delete;

  const DeviceProperties& device() const { return device_; }
  const MeasureOptions& options() const { return options_; }
  // Default set + extra metrics, in order.
  const std::vector<std::string>& metrics() const { return metrics_; }
  bool counters_available() const;
  const std::string& counters_note() const;
  // CUPTI replay passes one launch takes for metrics() (0 when counters are off or unavailable).
  int passes() const { return passes_; }

  // Measures one launch configuration with runner (made for launch.kernel).
  Measurement measure(KernelRunner& runner, const Launch& launch);
  // Measures several, in order: each is prepared and verified (once per runner: MeasureJob) and
  // timed in turn (on_start(i) is called as job i begins), then the counters of all verified jobs
  // are collected together (CuptiCollector's batch: one replay sequence for all). Every job's
  // buffers stay allocated until the batch is done: size batches to the device's free memory.
  std::vector<Measurement> measure(std::span<const MeasureJob> jobs,
                                   const std::function<void(std::size_t)>& on_start = {});

 private:
  MeasureOptions options_;
  DeviceProperties device_;
  std::vector<std::string> metrics_;
  std::unique_ptr<L2Flush> flush_;
  std::unique_ptr<CuptiCollector> collector_;
  int passes_ = 0;
  std::string no_counters_note_;
};

// One-off convenience: a session for a single launch (set-up cost every call; prefer a session).
Measurement measure_launch(KernelRunner& runner, const Launch& launch, const MeasureOptions& options);

}  // namespace roofline

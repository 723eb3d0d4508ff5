#pragma once
// Prediction: the analytic model's answer for one launch.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/launch.hpp"
#include "models/metric.hpp"
#include "models/source.hpp"

namespace roofline {

// A unit at least this busy (fraction of its ceiling) limits the kernel (classify_limiter).
inline constexpr double kNearPeakFraction = 0.8;
// A launch that takes at most this many times the launch overhead (the overhead is at least
// half of it) is a launch-bound candidate (classify_limiter).
inline constexpr double kLaunchBoundFactor = 2.0;

// Which kind of thing limits a launch, by one rule for the predictor's binding bound and the
// analysis' measured limiter: the busiest unit when it is at least kNearPeakFraction busy over
// the duration (and, when the launch is a launch-bound candidate, busier than the overhead's
// share of it); else the launch overhead when the duration is at most kLaunchBoundFactor x it;
// else latency. busiest_fraction: the busiest unit's busy fraction (0 when none is known).
enum class LimiterClass { busiest_unit, launch, latency };
LimiterClass classify_limiter(double busiest_fraction, double duration_s, double launch_overhead_s);

enum class BoundKind { dram, l2, lsu, issue, compute, latency, launch };
inline constexpr BoundKind kAllBounds[] = {BoundKind::dram,    BoundKind::l2,      BoundKind::lsu,
                                           BoundKind::issue,   BoundKind::compute, BoundKind::latency,
                                           BoundKind::launch};
std::string_view to_string(BoundKind b);
// Throws InputError for a name that is no bound kind.
BoundKind bound_kind_from_string(std::string_view s);

struct BoundTime {
  BoundKind kind = BoundKind::dram;
  double seconds = 0.0;
  std::string detail;  // the numbers behind it, in words ("3.22 GB / 3.01 TB/s")
  bool known = true;   // false: the spec leaves this cost unknown (seconds is then 0, never a claim)
};

struct Occupancy {
  int block = 0;
  int registers_per_thread = 0;
  Source registers_source = Source::assumed;
  int blocks_per_sm = 0;
  int warps_per_sm = 0;
  double fraction = 0.0;  // resident warps / max warps
  std::string limiter;    // "warps", "blocks", "registers", "shared memory"
};

// One CUDA kernel of the launch (most kernels have one pass).
struct PassPrediction {
  std::string symbol;
  std::int64_t grid = 0;  // blocks
  Occupancy occupancy;
  std::vector<BoundTime> bounds;  // one per BoundKind, in kAllBounds order
  double duration_s = 0.0;
};

struct Prediction {
  std::string gpu;  // GpuSpec id
  Launch launch;
  std::vector<PassPrediction> passes;
  std::vector<BoundTime> bounds;  // summed over passes, in kAllBounds order
  BoundKind binding = BoundKind::dram;
  BoundKind runner_up = BoundKind::l2;
  double duration_s = 0.0;

  // Roofline coordinates
  double flops = 0.0;
  double dram_bytes = 0.0, l2_bytes = 0.0, l1_bytes = 0.0;
  double ai_dram = 0.0, ai_l2 = 0.0, ai_l1 = 0.0;  // FLOP per byte at each level
  double flops_per_s = 0.0;                         // at the predicted duration
  double l2_hit_fraction = 0.0;                     // warm-mode residency of the working set
  double working_set_bytes = 0.0;
  double buffer_bytes = 0.0;  // device memory the launch's buffers need

  std::vector<MetricValue> counters;  // under Nsight Compute names
  std::vector<std::string> notes;     // assumptions and sources worth reading
  // GPU parameters only some kernels rest on that this launch did not use (a caution about
  // assumed values leaves them out); not stored.
  std::vector<std::string_view> unused_params;
};

const BoundTime& bound(const Prediction& p, BoundKind k);
// nullptr when the prediction has no such counter.
const MetricValue* counter(const Prediction& p, std::string_view name);

}  // namespace roofline

#pragma once
// Comparison: predicted against measured for one launch.
// Built by analysis/compare.hpp; stored by reports/; CUDA-free.
#include <string>
#include <string_view>
#include <vector>

#include "models/launch.hpp"
#include "models/prediction.hpp"

namespace roofline {

enum class Verdict { ok, over /* predicted > measured */, under, missing };
std::string_view to_string(Verdict v);
// Throws InputError for a name that is no verdict.
Verdict verdict_from_string(std::string_view s);

struct ComparedQuantity {
  std::string metric;  // Nsight Compute name; gpu__time_duration.sum (ns) for time
  double predicted = 0.0;
  double measured = 0.0;
  double ratio = 0.0;  // predicted / measured (0 when measured is 0)
  // (predicted - measured) / reference. reference = |measured|, except for a count (sectors,
  // bytes, requests, instructions) that is negligible next to the launch's largest measured
  // count of the same unit: then reference = 1 % of that largest count, so that 0 predicted
  // against 184 measured DRAM read sectors beside 1.4M written sectors is a 0.01 % error, not
  // a 100 % one. 0 when both sides are 0. See compare.hpp.
  double rel_error = 0.0;
  Verdict verdict = Verdict::missing;
};

// Stable diagnostic codes (stored, queried and tested by these strings).
namespace diag {
inline constexpr std::string_view partial_sector_writes = "partial-sector-writes";
inline constexpr std::string_view l2_resident = "l2-resident";
inline constexpr std::string_view latency_bound = "latency-bound";
inline constexpr std::string_view launch_bound = "launch-bound";
inline constexpr std::string_view wave_tail = "wave-tail";
inline constexpr std::string_view dirty_lines_in_l2 = "dirty-lines-in-l2";
inline constexpr std::string_view low_occupancy = "low-occupancy";
inline constexpr std::string_view counters_unavailable = "counters-unavailable";
inline constexpr std::string_view bound_mismatch = "bound-mismatch";
inline constexpr std::string_view timing_sources_disagree = "timing-sources-disagree";
inline constexpr std::string_view noisy_timing = "noisy-timing";
inline constexpr std::string_view output_not_verified = "output-not-verified";
}  // namespace diag

struct Diagnostic {
  std::string code;     // one of diag::* above
  std::string message;  // words a kernel author can act on
};

// How busy one unit was, as a percentage of the ceiling the model uses for it.
struct UnitLoad {
  std::string unit;          // BoundKind name: "dram", "l2", "lsu", "issue", "compute", "launch"
  double pct_of_peak = 0.0;  // 100 = at the model's ceiling (may exceed 100)
  std::string basis;         // how it was computed, e.g. "dram__sectors_*.sum x 32 / duration / 3.01 TB/s"
};

struct Comparison {
  Launch launch;
  std::vector<ComparedQuantity> rows;  // duration first, then counters in metric-table order
  BoundKind predicted_bound = BoundKind::dram;
  std::string measured_limiter;  // BoundKind name of the unit closest to its peak ("dram", "l2", "issue", "launch", "latency", ...)
  bool bound_agrees = false;     // measured_limiter == to_string(predicted_bound)
  std::vector<Diagnostic> diagnostics;

  // Added by analysis/compare: where the evidence came from.
  // "events" (median of CUDA events); "counter" (gpu__time_duration.sum) in runs stored before
  // the time row became the event median.
  std::string duration_source;
  bool limiter_inferred = false;    // true when timing-only: limiter from the model's traffic over measured time
  std::vector<UnitLoad> unit_loads; // every unit's load, highest first
};

}  // namespace roofline

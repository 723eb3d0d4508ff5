#pragma once
// The model's accuracy against its targets (docs/accuracy.md), computed from a run's summary: one record per
// target. `roofline accuracy` (docs/accuracy.md) and the run reports render the same records,
// so both always show the same numbers for the same comparisons.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/run_summary.hpp"
#include "models/metric.hpp"

namespace roofline {

// The goals. The tolerances are RunSummary's bands: time within 10 %, counters within 5 %.
struct AccuracyTargets {
  double duration_share = 0.90;   // launches with the duration within ±10 % of the measured median
  double duration_median = 0.05;  // median |duration error| at most this
  double bound_agreement = 0.95;  // launches whose predicted bound = measured limiter
  double counter_share = 0.90;    // launches with a key counter within ±5 %, for each key counter
};

// The counters the targets judge: DRAM and L2 traffic, instructions.
inline constexpr std::array<std::string_view, 5> kKeyCounters = {
    metric::dram_sectors_read, metric::dram_sectors_write, metric::lts_tex_read, metric::lts_tex_write,
    metric::inst_executed};

struct TargetResult {
  std::string target;     // "duration within ±10 % of the measured median"
  std::string goal;       // "≥ 90 % of launches"
  double achieved = 0.0;  // fraction: the share of `launches` on target, or the median |error|
  bool share = true;      // achieved is a share of `launches` (false: a median |error|)
  int launches = 0;       // launches judged
  bool met = false;
};

struct AccuracySummary {
  int launches = 0;                   // in the run
  int compared = 0;                   // with a comparison
  std::vector<TargetResult> targets;  // duration share, median duration error, bound, key counters
};

// Targets with nothing to judge (no compared launch, a counter nobody collected) are left out.
AccuracySummary accuracy_summary(const RunSummary& s, const AccuracyTargets& t = {});

}  // namespace roofline

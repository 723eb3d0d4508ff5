#pragma once
// Differences between two runs, launch by launch (`roofline compare RUN_A RUN_B`). A time
// change counts only when it is larger than the two runs' own measured noise.
#include <optional>
#include <string>
#include <vector>

#include "models/launch.hpp"
#include "models/measurement.hpp"
#include "models/prediction.hpp"

namespace roofline {

enum class Change { faster, slower, same, only_predicted };
std::string_view to_string(Change c);

struct CounterDiff {
  std::string metric;
  double a = 0.0, b = 0.0;
  double ratio = 0.0;  // b / a (0 when a is 0)
};

struct LaunchDiff {
  Launch launch;
  double time_a = 0.0, time_b = 0.0;  // measured medians; predicted durations when not measured
  double relative_change = 0.0;        // (b - a) / a
  double noise = 0.0;                  // the larger of the two relative spreads
  Change change = Change::same;
  std::vector<CounterDiff> counters;   // measured counters present in both
};

// One side of a launch: what a run holds for it.
struct LaunchSide {
  Prediction prediction;
  std::optional<Measurement> measurement;
};

// Launches are matched on kernel, N, dtype, block and cache state; unmatched ones are left out.
std::vector<LaunchDiff> diff_launches(const std::vector<LaunchSide>& a, const std::vector<LaunchSide>& b);

}  // namespace roofline

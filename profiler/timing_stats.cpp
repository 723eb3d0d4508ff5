#include "profiler/timing_stats.hpp"

#include <algorithm>
#include <vector>

#include "models/percentile.hpp"

namespace roofline {

TimingStats summarize_times(std::span<const double> seconds) {
  TimingStats s;
  if (seconds.empty()) return s;
  std::vector<double> sorted(seconds.begin(), seconds.end());
  std::sort(sorted.begin(), sorted.end());
  s.count = static_cast<int>(sorted.size());
  s.min_s = sorted.front();
  s.max_s = sorted.back();
  s.median_s = percentile_of_sorted(sorted, 50);
  s.spread = relative_spread_of_sorted(sorted);
  return s;
}

bool timing_done(const TimingStats& stats, const TimerOptions& options, double elapsed_s) {
  if (stats.count >= options.max_repetitions) return true;
  if (elapsed_s >= options.budget_s && stats.count >= 1) return true;
  return stats.count >= options.min_repetitions && stats.spread < options.target_spread;
}

}  // namespace roofline

#include "profiler/timing_stats.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace roofline {

double percentile_sorted(std::span<const double> sorted, double p) {
  if (sorted.empty()) return 0.0;
  p = std::clamp(p, 0.0, 1.0);
  const double rank = p * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(rank));
  const auto hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = rank - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

TimingStats summarize_times(std::span<const double> seconds) {
  TimingStats s;
  if (seconds.empty()) return s;
  std::vector<double> sorted(seconds.begin(), seconds.end());
  std::sort(sorted.begin(), sorted.end());
  s.count = static_cast<int>(sorted.size());
  s.min_s = sorted.front();
  s.max_s = sorted.back();
  s.median_s = percentile_sorted(sorted, 0.5);
  const double p10 = percentile_sorted(sorted, 0.1), p90 = percentile_sorted(sorted, 0.9);
  s.spread = s.median_s > 0.0 ? (p90 - p10) / s.median_s : 0.0;
  return s;
}

bool timing_done(const TimingStats& stats, const TimerOptions& options, double elapsed_s) {
  if (stats.count >= options.max_repetitions) return true;
  if (elapsed_s >= options.budget_s && stats.count >= 1) return true;
  return stats.count >= options.min_repetitions && stats.spread < options.target_spread;
}

}  // namespace roofline

#include "models/percentile.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace roofline {

double percentile_of_sorted(std::span<const double> sorted, double p) {
  if (sorted.empty()) return 0.0;
  const double rank = std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(rank));
  const auto hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = rank - static_cast<double>(lo);
  return sorted[lo] + frac * (sorted[hi] - sorted[lo]);
}

double percentile(std::span<const double> values, double p) {
  std::vector<double> v;
  v.reserve(values.size());
  for (double x : values)
    if (!std::isnan(x)) v.push_back(x);
  std::sort(v.begin(), v.end());
  return percentile_of_sorted(v, p);
}

double relative_spread_of_sorted(std::span<const double> sorted) {
  const double mid = percentile_of_sorted(sorted, 50);
  return mid > 0.0 ? (percentile_of_sorted(sorted, 90) - percentile_of_sorted(sorted, 10)) / mid : 0.0;
}

}  // namespace roofline

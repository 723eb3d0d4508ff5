#include "analysis/error_stats.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace roofline {

double percentile(std::span<const double> values, double q) {
  std::vector<double> v;
  v.reserve(values.size());
  for (double x : values)
    if (!std::isnan(x)) v.push_back(x);
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const double rank = std::clamp(q, 0.0, 100.0) / 100.0 * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(rank));
  const auto hi = std::min(lo + 1, v.size() - 1);
  const double frac = rank - static_cast<double>(lo);
  return v[lo] + frac * (v[hi] - v[lo]);
}

double fraction_within(std::span<const double> values, double limit) {
  if (values.empty()) return 0.0;
  std::size_t n = 0;
  for (double x : values)
    if (std::abs(x) <= limit * (1.0 + 1e-12)) ++n;
  return static_cast<double>(n) / static_cast<double>(values.size());
}

}  // namespace roofline

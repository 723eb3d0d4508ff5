#include "analysis/error_stats.hpp"

#include <cmath>

namespace roofline {

double fraction_within(std::span<const double> values, double limit) {
  if (values.empty()) return 0.0;
  std::size_t n = 0;
  for (double x : values)
    if (std::abs(x) <= limit * (1.0 + 1e-12)) ++n;
  return static_cast<double>(n) / static_cast<double>(values.size());
}

}  // namespace roofline

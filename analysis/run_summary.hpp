#pragma once
// Summary statistics of a run's comparisons (the accuracy targets of docs/accuracy.md).
#include <string>
#include <vector>

#include "analysis/comparison.hpp"

namespace roofline {

struct QuantitySummary {
  std::string metric;
  int count = 0;                  // launches with both sides
  double median_abs_error = 0.0;  // |rel_error|, fraction
  double p90_abs_error = 0.0;
  double within_5pct = 0.0;   // fraction of launches with |rel_error| <= 5 %
  double within_10pct = 0.0;  // fraction with |rel_error| <= 10 %
};

struct RunSummary {
  int launches = 0;
  int compared = 0;
  int judged = 0;                // compared launches with a measured limiter
  double bound_agreement = 0.0;  // fraction of the judged launches whose bounds agree
  std::vector<QuantitySummary> quantities;  // duration first, then counters in metric-table order
};

RunSummary summarize_run(const std::vector<Comparison>& comparisons, int launches);

}  // namespace roofline

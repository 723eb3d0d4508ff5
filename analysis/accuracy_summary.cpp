#include "analysis/accuracy_summary.hpp"

#include <fmt/format.h>

namespace roofline {
namespace {

const QuantitySummary* quantity(const RunSummary& s, std::string_view metric) {
  for (const auto& q : s.quantities)
    if (q.metric == metric) return &q;
  return nullptr;
}

TargetResult share(std::string target, double goal, double achieved, int launches) {
  return {std::move(target), fmt::format("≥ {:.0f} % of launches", 100 * goal), achieved, true, launches,
          achieved >= goal};
}

}  // namespace

AccuracySummary accuracy_summary(const RunSummary& s, const AccuracyTargets& t) {
  AccuracySummary a{s.launches, s.compared, {}};
  if (const auto* d = quantity(s, metric::duration)) {
    a.targets.push_back(
        share("duration within ±10 % of the measured median", t.duration_share, d->within_10pct, d->count));
    a.targets.push_back({"median |duration error|", fmt::format("≤ {:.0f} %", 100 * t.duration_median),
                         d->median_abs_error, false, d->count, d->median_abs_error <= t.duration_median});
  }
  if (s.judged > 0)
    a.targets.push_back(share("predicted bound = measured limiter", t.bound_agreement, s.bound_agreement, s.judged));
  for (auto name : kKeyCounters)
    if (const auto* q = quantity(s, name))
      a.targets.push_back(share(fmt::format("{} within ±5 %", name), t.counter_share, q->within_5pct, q->count));
  return a;
}

}  // namespace roofline

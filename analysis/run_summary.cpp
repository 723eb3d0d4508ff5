#include "analysis/run_summary.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/error_stats.hpp"
#include "models/metric.hpp"
#include "models/percentile.hpp"

namespace roofline {

RunSummary summarize_run(const std::vector<Comparison>& comparisons, int launches) {
  RunSummary s;
  s.launches = launches;
  s.compared = static_cast<int>(comparisons.size());

  // |rel_error| per metric, in first-seen order for names outside the metric table.
  std::map<std::string, std::vector<double>, std::less<>> errors;
  std::vector<std::string> extra;
  int agree = 0;
  for (const auto& c : comparisons) {
    if (!c.measured_limiter.empty()) {
      ++s.judged;
      if (c.bound_agrees) ++agree;
    }
    for (const auto& r : c.rows) {
      if (r.verdict == Verdict::missing || std::isnan(r.rel_error)) continue;
      auto [it, inserted] = errors.try_emplace(r.metric);
      if (inserted && !find_metric(r.metric)) extra.push_back(r.metric);
      it->second.push_back(std::abs(r.rel_error));
    }
  }
  s.bound_agreement = s.judged > 0 ? static_cast<double>(agree) / s.judged : 0.0;

  auto add = [&](std::string_view name) {
    auto it = errors.find(name);
    if (it == errors.end() || it->second.empty()) return;
    const auto& e = it->second;
    QuantitySummary q;
    q.metric = std::string(name);
    q.count = static_cast<int>(e.size());
    q.median_abs_error = median(e);
    q.p90_abs_error = percentile(e, 90.0);
    q.within_5pct = fraction_within(e, 0.05);
    q.within_10pct = fraction_within(e, 0.10);
    s.quantities.push_back(std::move(q));
  };
  add(metric::duration);
  for (const auto& info : metric_table())
    if (info.name != metric::duration) add(info.name);
  for (const auto& name : extra) add(name);
  return s;
}

}  // namespace roofline

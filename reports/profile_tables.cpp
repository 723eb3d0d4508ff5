#include "reports/profile_tables.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "analysis/profile_summary.hpp"
#include "models/metric.hpp"
#include "reports/detail/report_cells.hpp"
#include "reports/format.hpp"

namespace roofline {
namespace {

using detail::kNone;
using detail::num;
using detail::text;

std::vector<ProfiledLaunchView> views(const RunRecord& r) {
  std::vector<ProfiledLaunchView> v;
  for (const auto& l : r.profiled) v.push_back({&l.launch, &l.analysis});
  return v;
}

// "dram 96.8 %, l2 40.1 %, issue 12.0 %": the busiest units first.
std::string top_loads(const CounterAnalysis& a, std::size_t n = 3) {
  std::string s;
  for (std::size_t i = 0; i < a.loads.size() && i < n; ++i)
    s += fmt::format("{}{} {}", i ? ", " : "", a.loads[i].unit, format_percent(a.loads[i].pct_of_peak / 100));
  return s.empty() ? std::string(kNone) : s;
}

// A counter's values over one kernel's launches, in the order the launches ran.
struct CounterValues {
  std::string metric;
  std::vector<double> values;
};

// Counters whose name ends in `.sum` (ncu's rollup of a count) add up over launches; averages,
// maxima, percentages and rates do not.
bool adds_up(std::string_view metric) { return metric.ends_with(".sum"); }

}  // namespace

std::map<std::string, std::string> kernel_display_names(const RunRecord& r) {
  std::vector<std::string> demangled;
  for (const auto& l : r.profiled) demangled.push_back(l.launch.id.demangled);
  return distinct_display_names(demangled);
}

ReportTable profile_kernels_table(const RunRecord& r) {
  ReportTable t{"kernels", "Kernels, by time lost against speed of light",
                "Speed of light (SOL): what a launch would take with its busiest unit at its ceiling (never less than "
                "the launch floor); time lost = duration − SOL, summed over the kernel's launches. Share: of the "
                "program's GPU time (the launches' durations summed).",
                {"kernel", "launches", "total", "share", "limiter", "SOL", "lost"},
                {},
                "no kernel launches were recorded"};
  const auto names = kernel_display_names(r);
  for (const auto& k : summarise_by_kernel(views(r))) {
    const bool counted = !k.limiter.empty();
    ReportCell name = text(names.at(k.kernel));
    name.title = k.kernel;
    t.rows.push_back({name, num(std::to_string(k.launches)), num(format_duration(k.total_s)),
                      num(format_percent(k.share)), text(counted ? k.limiter : std::string(kNone)),
                      num(counted ? format_duration(k.sol_s) : std::string(kNone)),
                      num(counted ? format_duration(k.lost_s) : std::string(kNone),
                          k.lost_s > 0.5 * k.total_s ? Emphasis::warn : Emphasis::none)});
  }
  return t;
}

ReportTable profile_launches_table(const RunRecord& r) {
  ReportTable t{"profiled-launches", "Launches",
                "Every launch in the order it ran: the percentage of each unit's ceiling it reached over its duration "
                "(the busiest three), the limiter by the same rule as the model's binding bound, and its counters' "
                "status.",
                {"#", "pid", "kernel", "grid", "block", "regs", "duration", "limiter", "busiest units", "SOL",
                 "counters"},
                {},
                "no kernel launches were recorded"};
  const auto names = kernel_display_names(r);
  std::size_t i = 0;
  for (const auto& rec : r.profiled) {
    const ProfiledLaunch& l = rec.launch;
    const CounterAnalysis& a = rec.analysis;
    const bool counted = l.counter_status == CounterStatus::collected;
    ReportCell name = text(names.at(l.id.demangled));
    name.title = l.id.demangled;
    const std::string status = counted ? fmt::format("{} passes", l.passes)
                                       : std::string(to_string(l.counter_status)) +
                                             (l.counter_note.empty() ? "" : ": " + l.counter_note);
    t.rows.push_back({num(std::to_string(++i)), num(std::to_string(l.id.pid)), name, text(grid_text(l.id)),
                      text(dim3_text(l.id.block)), num(std::to_string(l.id.registers_per_thread)),
                      num(l.duration_s ? format_duration(*l.duration_s) : std::string(kNone)),
                      text(a.limiter.empty() ? std::string(kNone) : a.limiter), text(top_loads(a)),
                      num(counted ? format_duration(a.sol_s) : std::string(kNone)),
                      text(status, counted ? Emphasis::none : Emphasis::warn)});
  }
  return t;
}

ReportTable profile_counters_table(const RunRecord& r) {
  ReportTable t{"profiled-counters", "Counters, by kernel",
                "Each kernel's counters under their Nsight Compute names, over its launches with counters, kernels in "
                "the order of the first table: the mean per launch, the smallest and largest, and the total where the "
                "counter is a count (its name ends in .sum). Every launch's own values stay in the database (table "
                "profiled_values, which roofline query reads).",
                {"kernel", "metric", "launches", "per launch", "min", "max", "total", "unit"}, {},
                "no counters were collected"};
  const auto names = kernel_display_names(r);
  std::map<std::string, std::vector<CounterValues>> by_kernel;
  for (const auto& rec : r.profiled) {
    auto& counters = by_kernel[rec.launch.id.demangled];
    for (const auto& c : rec.launch.counters) {
      auto it = std::find_if(counters.begin(), counters.end(), [&](const auto& v) { return v.metric == c.name; });
      if (it == counters.end()) it = counters.insert(counters.end(), {c.name, {}});
      it->values.push_back(c.value);
    }
  }
  for (const auto& k : summarise_by_kernel(views(r))) {
    for (const auto& [metric, values] : by_kernel[k.kernel]) {
      const MetricInfo* m = find_metric(metric);
      const double sum = std::accumulate(values.begin(), values.end(), 0.0);
      const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
      ReportCell name = text(names.at(k.kernel));
      name.title = k.kernel;
      t.rows.push_back({name, text(metric), num(std::to_string(values.size())),
                        num(format_number(sum / static_cast<double>(values.size()), 6)), num(format_number(*lo, 6)),
                        num(format_number(*hi, 6)), num(adds_up(metric) ? format_number(sum, 6) : std::string(kNone)),
                        text(m ? std::string(m->unit) : "")});
    }
  }
  return t;
}

std::vector<ReportTable> profile_tables(const RunRecord& r) {
  return {profile_kernels_table(r), profile_launches_table(r), profile_counters_table(r)};
}

}  // namespace roofline

#include "reports/report_tables.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "reports/detail/report_cells.hpp"
#include "reports/format.hpp"
#include "reports/profile_tables.hpp"

namespace roofline {
namespace {

using detail::kNone;
using detail::num;
using detail::text;

std::vector<ReportCell> launch_cells(std::size_t index, const Launch& l) {
  return {num(std::to_string(index + 1)), text(l.kernel), num(std::to_string(l.n)),
          text(std::string(to_string(l.dtype))), text(std::string(to_string(l.cache)))};
}
std::vector<std::string> launch_header() { return {"#", "kernel", "n", "dtype", "cache"}; }

std::string unit_of(std::string_view metric_name) {
  const MetricInfo* m = find_metric(metric_name);
  return m ? std::string(m->unit) : std::string();
}

ReportCell error_cell(double rel_error) {
  return num(format_percent(rel_error, true), error_emphasis(rel_error));
}

ReportCell fraction_cell(double fraction, double target) {
  return num(format_percent(fraction), fraction >= target ? Emphasis::good : Emphasis::bad);
}

}  // namespace

std::string launch_label(const Launch& l) {
  return fmt::format("{} n={} {} block {} {}", l.kernel, l.n, to_string(l.dtype), l.block, to_string(l.cache));
}

double fp32_peak_flops(const GpuSpec& g) {
  return g.sm_count.value * g.sm_clock_hz.value * g.fp32_fma_per_clock_per_sm.value * 2.0;
}

bool run_has_measurements(const RunRecord& r) {
  return std::any_of(r.launches.begin(), r.launches.end(), [](const LaunchRecord& l) { return l.measurement.has_value(); });
}

RunSummary run_summary(const RunRecord& r) {
  std::vector<Comparison> comparisons;
  for (const auto& l : r.launches)
    if (l.comparison) comparisons.push_back(*l.comparison);
  return summarize_run(comparisons, static_cast<int>(r.launches.size()));
}

std::vector<ValuePair> value_pairs(const LaunchRecord& l) {
  std::vector<ValuePair> out;
  const Measurement* m = l.measurement ? &*l.measurement : nullptr;
  for (const auto& v : l.prediction.counters) {
    ValuePair pair{v.name, v.value, std::nullopt};
    if (m) {
      if (const MetricValue* mv = counter(*m, v.name))
        pair.measured = mv->value;
      else if (v.name == metric::duration && m->time.median_s > 0)
        pair.measured = m->time.median_s * 1e9;  // ns, the unit of gpu__time_duration.sum
    }
    out.push_back(std::move(pair));
  }
  if (m)
    for (const auto& v : m->counters)
      if (!counter(l.prediction, v.name)) out.push_back({v.name, std::nullopt, v.value});
  return out;
}

Emphasis error_emphasis(double rel_error) {
  const double a = std::fabs(rel_error);
  if (!std::isfinite(a) || a >= kLargeError) return Emphasis::bad;
  if (a >= kNotableError) return Emphasis::warn;
  return Emphasis::none;
}

ReportTable run_facts_table(const RunRecord& r) {
  const Run& run = r.run;
  ReportTable t{"run", "Run", "", {"", ""}, {}, ""};
  const auto row = [&](std::string_view k, std::string v, Emphasis e = Emphasis::none) {
    t.rows.push_back({text(std::string(k)), text(std::move(v), e)});
  };
  row("run", std::to_string(run.id));
  const bool complete = run.status == RunStatus::complete;
  row("status", std::string(to_string(run.status)), complete ? Emphasis::none : Emphasis::bad);
  row("started", run.started_at);
  row("finished", run.finished_at.empty() ? std::string(kNone) : run.finished_at);
  row("command", run.command_line);
  // The version already names its revision ("0.1.0 (git b5d74c5)") when it was built from git.
  const bool named = run.git_revision.empty() || run.toolkit_version.find(run.git_revision) != std::string::npos;
  row("toolkit", run.toolkit_version + (named ? "" : " (" + run.git_revision + ")"));
  row(run.kind == RunKind::suite ? "predicted for" : "ceilings of", r.gpu.id + (r.gpu.name.empty() ? "" : " — " + r.gpu.name));
  row("measured on", run.device ? run.device->name : "nothing was measured (no GPU used)",
      run.device ? Emphasis::none : Emphasis::warn);
  row("cache", run.cache_setting);
  row("clocks", run.clock_setting);
  if (run.kind == RunKind::suite) {
    row("timing", fmt::format("{}: {} (median)", to_string(run.timing), measured_as(run.timing)));
    std::size_t measured = 0;
    for (const auto& l : r.launches) measured += l.measurement ? 1 : 0;
    row("launches", fmt::format("{} ({} measured)", r.launches.size(), measured));
  } else {
    std::size_t counted = 0;
    for (const auto& l : r.profiled) counted += l.launch.counter_status == CounterStatus::collected ? 1 : 0;
    row("kind", std::string(to_string(run.kind)));
    row("working directory", run.working_directory);
    if (run.exit_code) row("exit code", std::to_string(*run.exit_code), *run.exit_code == 0 ? Emphasis::none : Emphasis::bad);
    row("launches", fmt::format("{} ({} with counters)", r.profiled.size(), counted));
  }
  if (!run.note.empty()) row("note", run.note);
  return t;
}

ReportTable device_table(const RunRecord& r) {
  ReportTable t{"device", "Device", "", {"", "GPU model (predictions)", "device (measurements)"}, {}, ""};
  const GpuSpec& g = r.gpu;
  const DeviceInfo* d = r.run.device ? &*r.run.device : nullptr;
  const auto row = [&](std::string_view k, std::string model, std::string device) {
    t.rows.push_back({text(std::string(k)), text(std::move(model)), text(d ? std::move(device) : std::string(kNone))});
  };
  row("name", g.name, d ? d->name : "");
  row("id / UUID", g.id, d ? d->uuid : "");
  row("architecture", fmt::format("{} (cc {}.{})", g.arch, g.cc_major, g.cc_minor),
      d ? fmt::format("cc {}.{}", d->cc_major, d->cc_minor) : "");
  row("SMs", format_number(g.sm_count.value), d ? std::to_string(d->sm_count) : "");
  row("SM clock", format_quantity(g.sm_clock_hz.value, "Hz"), d ? format_quantity(d->sm_clock_hz, "Hz") : "");
  row("memory", format_quantity(g.memory_bytes.value, "B"),
      d ? fmt::format("{}, {}-bit, {}", format_quantity(d->memory_bytes, "B"), d->memory_bus_bits,
                      format_quantity(d->memory_clock_hz, "Hz"))
        : "");
  row("L2", format_quantity(g.l2_bytes.value, "B"), d ? format_quantity(d->l2_bytes, "B") : "");
  row("software", g.notes,
      d ? fmt::format("driver {}, runtime {}, CUPTI {}, ECC {}", d->driver_version, d->runtime_version,
                      d->cupti_version, d->ecc ? "on" : "off")
        : "");
  return t;
}

ReportTable ceilings_table(const RunRecord& r) {
  ReportTable t{"ceilings", "Ceilings and where they came from",
                "Every GPU parameter the predictions used. calibrated = measured on this device by "
                "`roofline calibrate`; datasheet = vendor figure; assumed = an engineering estimate.",
                {"parameter", "value", "source", "note", "meaning"}, {}, ""};
  for (const auto& p : gpu_params()) {
    const Quantity& q = r.gpu.*(p.member);
    ReportCell src = text(std::string(to_string(q.source)));
    if (q.source == Source::calibrated) src.emphasis = Emphasis::good;
    if (q.source == Source::assumed) src.emphasis = Emphasis::warn;
    t.rows.push_back({text(std::string(p.key)), num(format_quantity(q.value, p.unit)), std::move(src), text(q.note),
                      text(std::string(p.description))});
  }
  return t;
}

std::string summary_line(const RunSummary& s) {
  if (s.compared == 0)
    return fmt::format("{} launches; none compared (nothing was measured, or no counters).", s.launches);
  return fmt::format("{} launches, {} compared; predicted bound = measured limiter for {}.", s.launches, s.compared,
                     format_percent(s.bound_agreement));
}

ReportTable summary_table(const RunRecord& r, const RunSummary& s) {
  (void)r;
  ReportTable t{"summary", "Accuracy summary", summary_line(s),
                {"quantity", "launches", "median |error|", "p90 |error|", "within 5 %", "within 10 %"}, {},
                "Nothing to summarize: no launch has both a prediction and a measurement."};
  // Marked against the targets: time within 10 % for 90 % of launches, counters within 5 % for 90 %.
  const AccuracyTargets goal;
  for (const auto& q : s.quantities) {
    const bool time = q.metric == metric::duration;
    t.rows.push_back({text(q.metric), num(std::to_string(q.count)),
                      num(format_percent(q.median_abs_error), time && q.median_abs_error > goal.duration_median
                                                                   ? Emphasis::bad
                                                                   : Emphasis::none),
                      num(format_percent(q.p90_abs_error)),
                      time ? num(format_percent(q.within_5pct)) : fraction_cell(q.within_5pct, goal.counter_share),
                      time ? fraction_cell(q.within_10pct, goal.duration_share) : num(format_percent(q.within_10pct))});
  }
  return t;
}

ReportTable accuracy_table(const AccuracySummary& a) {
  ReportTable t{"accuracy", "Accuracy against the targets",
                fmt::format("{} launches, {} compared.", a.launches, a.compared),
                {"target", "goal", "achieved", "verdict"}, {},
                "Nothing to judge: no launch has both a prediction and a verified measurement."};
  for (const auto& r : a.targets) {
    const std::string achieved =
        r.share ? fmt::format("{} of {}", format_percent(r.achieved), r.launches) : format_percent(r.achieved);
    t.rows.push_back({text(r.target), text(r.goal), num(achieved),
                      text(r.met ? "met" : "MISSED", r.met ? Emphasis::good : Emphasis::bad)});
  }
  return t;
}

ReportTable launches_table(const RunRecord& r) {
  ReportTable t{"launches", "Predicted vs measured: time and bound", "", launch_header(), {}, "No launches."};
  for (const char* h : {"block", "predicted bound", "runner-up", "predicted", "measured", "spread", "error",
                        "measured limiter", "verified"})
    t.header.emplace_back(h);
  for (std::size_t i = 0; i < r.launches.size(); ++i) {
    const LaunchRecord& l = r.launches[i];
    const Prediction& p = l.prediction;
    auto row = launch_cells(i, p.launch);
    row.push_back(num(std::to_string(p.launch.block)));
    row.push_back(text(std::string(to_string(p.binding))));
    row.push_back(text(std::string(to_string(p.runner_up))));
    row.push_back(num(format_duration(p.duration_s)));
    if (l.measurement && l.measurement->time.median_s > 0) {
      const TimingStats& tm = l.measurement->time;
      row.push_back(num(format_duration(tm.median_s)));
      row.push_back(num(format_percent(tm.spread)));
      row.push_back(error_cell(p.duration_s / tm.median_s - 1.0));
    } else {
      for (int k = 0; k < 3; ++k) row.push_back(num(std::string(kNone)));
    }
    if (l.comparison) {
      ReportCell lim = text(l.comparison->measured_limiter);
      lim.emphasis = l.comparison->bound_agrees ? Emphasis::good : Emphasis::bad;
      row.push_back(std::move(lim));
    } else {
      row.push_back(text(std::string(kNone)));
    }
    if (l.measurement) {
      ReportCell v = text(l.measurement->verified ? "yes" : "NO: " + l.measurement->verification);
      v.emphasis = l.measurement->verified ? Emphasis::none : Emphasis::bad;
      row.push_back(std::move(v));
    } else {
      row.push_back(text(std::string(kNone)));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

ReportTable bounds_table(const RunRecord& r) {
  ReportTable t{"bounds", "Bound breakdown",
                "Every bound's predicted time per launch; the bar is the time relative to the longest bound, "
                "the binding bound is marked.",
                launch_header(), {}, "No launches."};
  for (BoundKind k : kAllBounds) t.header.emplace_back(to_string(k));
  t.header.emplace_back("binding");
  for (std::size_t i = 0; i < r.launches.size(); ++i) {
    const Prediction& p = r.launches[i].prediction;
    auto row = launch_cells(i, p.launch);
    double longest = 0;
    for (const auto& b : p.bounds) longest = std::max(longest, b.seconds);
    for (BoundKind k : kAllBounds) {
      const auto it = std::find_if(p.bounds.begin(), p.bounds.end(), [&](const BoundTime& b) { return b.kind == k; });
      if (it == p.bounds.end()) {
        row.push_back(num(std::string(kNone)));
        continue;
      }
      ReportCell c = num(format_duration(it->seconds));
      c.bar = longest > 0 ? it->seconds / longest : 0.0;
      c.highlight = k == p.binding;
      c.title = it->detail;
      row.push_back(std::move(c));
    }
    row.push_back(text(std::string(to_string(p.binding))));
    t.rows.push_back(std::move(row));
  }
  return t;
}

ReportTable counters_table(const RunRecord& r) {
  ReportTable t{"counters", "Predicted vs measured: counters",
                fmt::format("Errors of {} or more are marked bad, {} or more notable.", format_percent(kLargeError),
                            format_percent(kNotableError)),
                launch_header(), {}, "No counters."};
  for (const char* h : {"metric", "unit", "predicted", "measured", "ratio", "error", "verdict"}) t.header.emplace_back(h);
  for (std::size_t i = 0; i < r.launches.size(); ++i) {
    const LaunchRecord& l = r.launches[i];
    if (l.comparison && !l.comparison->rows.empty()) {
      for (const auto& q : l.comparison->rows) {
        auto row = launch_cells(i, l.prediction.launch);
        row.push_back(text(q.metric));
        row.push_back(text(unit_of(q.metric)));
        row.push_back(num(format_number(q.predicted)));
        const bool both = q.verdict != Verdict::missing;
        row.push_back(num(both ? format_number(q.measured) : std::string(kNone)));
        row.push_back(num(both ? format_number(q.ratio) : std::string(kNone)));
        row.push_back(both ? error_cell(q.rel_error) : num(std::string(kNone)));
        row.push_back(text(std::string(to_string(q.verdict))));
        t.rows.push_back(std::move(row));
      }
      continue;
    }
    // No comparison: each side's counters, paired by name.
    for (const auto& v : value_pairs(l)) {
      auto row = launch_cells(i, l.prediction.launch);
      row.push_back(text(v.metric));
      row.push_back(text(unit_of(v.metric)));
      row.push_back(num(v.predicted ? format_number(*v.predicted) : std::string(kNone)));
      row.push_back(num(v.measured ? format_number(*v.measured) : std::string(kNone)));
      if (v.predicted && v.measured && *v.measured != 0) {
        row.push_back(num(format_number(*v.predicted / *v.measured)));
        row.push_back(error_cell(*v.predicted / *v.measured - 1.0));
      } else {
        row.push_back(num(std::string(kNone)));
        row.push_back(num(std::string(kNone)));
      }
      row.push_back(text(!v.measured ? "predicted only" : !v.predicted ? "measured only" : ""));
      t.rows.push_back(std::move(row));
    }
  }
  return t;
}

ReportTable diagnostics_table(const RunRecord& r) {
  ReportTable t{"diagnostics", "Diagnostics",
                "What the comparison found, in words; identical findings are listed once with the launches they "
                "apply to.",
                {"code", "message", "launches"}, {}, "No diagnostics."};
  // (code, message) -> launch numbers, in first-seen order.
  std::vector<std::pair<std::pair<std::string, std::string>, std::vector<std::size_t>>> found;
  std::map<std::pair<std::string, std::string>, std::size_t> where;
  const auto add = [&](std::string code, std::string message, std::size_t launch) {
    auto key = std::make_pair(std::move(code), std::move(message));
    auto [it, inserted] = where.try_emplace(key, found.size());
    if (inserted) found.push_back({std::move(key), {}});
    found[it->second].second.push_back(launch + 1);
  };
  for (std::size_t i = 0; i < r.launches.size(); ++i) {
    const LaunchRecord& l = r.launches[i];
    if (l.measurement) {
      if (!l.measurement->verified) add("verification-failed", l.measurement->verification, i);
      if (l.measurement->counter_status == CounterStatus::timing_only)
        add("timing-only", l.measurement->counter_note, i);
    }
    if (l.comparison)
      for (const auto& d : l.comparison->diagnostics) add(d.code, d.message, i);
    for (const auto& n : l.prediction.notes) add("model-note", n, i);
  }
  for (const auto& [key, launches] : found) {
    std::string list;
    const std::size_t shown = std::min<std::size_t>(launches.size(), 12);
    for (std::size_t k = 0; k < shown; ++k) list += (k ? ", " : "") + std::to_string(launches[k]);
    if (launches.size() > shown) list += fmt::format(" and {} more", launches.size() - shown);
    ReportCell code = text(key.first);
    if (key.first == "verification-failed") code.emphasis = Emphasis::bad;
    if (key.first == "timing-only") code.emphasis = Emphasis::warn;
    t.rows.push_back({std::move(code), text(key.second), text(std::move(list))});
  }
  return t;
}

std::string report_title(const RunRecord& r) {
  return fmt::format("roofline run {} — {}", r.run.id, r.gpu.name.empty() ? r.gpu.id : r.gpu.name);
}

std::vector<std::string> report_banners(const RunRecord& r) {
  std::vector<std::string> out;
  const bool profile = r.run.kind != RunKind::suite;
  if (!profile && !run_has_measurements(r))
    out.push_back(fmt::format("Nothing was measured in this run: every number below is a prediction for {}.", r.gpu.id));
  // Runs stored before the time row became the event median: say why `roofline accuracy` differs.
  if (std::any_of(r.launches.begin(), r.launches.end(),
                  [](const LaunchRecord& l) { return l.comparison && l.comparison->duration_source == "counter"; }))
    out.push_back("Stored by an older roofline: this run's comparisons take the time from CUPTI's "
                  "gpu__time_duration.sum, not the median CUDA-event time the accuracy targets judge; "
                  "`roofline accuracy` judges it against the event median.");
  if (r.run.status != RunStatus::complete && profile)
    out.push_back(fmt::format("This run is {}: the program {}; the run holds the {} launches recorded until then.",
                              to_string(r.run.status),
                              r.run.exit_code ? fmt::format("exited with {}", *r.run.exit_code) : std::string("was interrupted"),
                              r.profiled.size()));
  else if (r.run.status != RunStatus::complete)
    out.push_back(fmt::format("This run is {}: it holds the {} launches that finished.", to_string(r.run.status),
                              r.launches.size()));
  return out;
}

std::string_view chart_caption(const RunRecord& r) {
  return r.run.kind == RunKind::suite ? kChartCaption : kProfileChartCaption;
}

std::vector<ReportTable> report_tables(const RunRecord& r) {
  std::vector<ReportTable> tables;
  tables.push_back(run_facts_table(r));
  if (r.run.kind != RunKind::suite) {
    for (auto& t : profile_tables(r)) tables.push_back(std::move(t));
    tables.push_back(device_table(r));
    tables.push_back(ceilings_table(r));
    return tables;
  }
  tables.push_back(device_table(r));
  const RunSummary summary = run_summary(r);
  tables.push_back(summary_table(r, summary));
  if (run_has_measurements(r)) tables.push_back(accuracy_table(accuracy_summary(summary)));
  tables.push_back(launches_table(r));
  tables.push_back(bounds_table(r));
  tables.push_back(counters_table(r));
  tables.push_back(diagnostics_table(r));
  tables.push_back(ceilings_table(r));  // reference material: last
  return tables;
}

std::string_view chart_anchor(const std::vector<ReportTable>& tables) {
  const bool accuracy =
      std::any_of(tables.begin(), tables.end(), [](const ReportTable& t) { return t.id == "accuracy"; });
  const bool profile =
      std::any_of(tables.begin(), tables.end(), [](const ReportTable& t) { return t.id == "kernels"; });
  return accuracy ? "accuracy" : profile ? "kernels" : "summary";
}

}  // namespace roofline

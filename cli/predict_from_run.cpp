#include "cli/predict_from_run.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <ostream>
#include <regex>

#include "cli/stored_calibration.hpp"
#include "models/error.hpp"
#include "models/gpu_catalog.hpp"
#include "models/launch_cost.hpp"
#include "reports/format.hpp"
#include "reports/prediction_output.hpp"
#include "reports/profile_tables.hpp"
#include "reports/record_json.hpp"
#include "reports/sqlite_store.hpp"
#include "reports/text_table.hpp"

namespace roofline {
namespace {

std::regex kernel_filter(const std::string& re) {
  try {
    return std::regex(re.empty() ? "." : re, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw InputError(fmt::format("--kernel-name '{}' is not a regular expression: {}", re, e.what()));
  }
}

// One launch to predict: its counters and duration, the limiter they gave it, how it was timed.
struct MeasuredLaunch {
  std::string label;
  ProfiledLaunch launch;
  std::string limiter;
  TimeBase base;
};

// A profile's launches (their own times by the Activity API), an import's (ncu's
// gpu__time_duration) or a suite run's measured launches (timed as the run stored: by an event
// pair each, or as a loop of back-to-back launches).
std::vector<MeasuredLaunch> measured_launches(const RunRecord& run) {
  std::vector<MeasuredLaunch> out;
  if (run.run.kind == RunKind::suite) {
    for (const auto& rec : run.launches) {
      if (!rec.measurement) continue;
      const Measurement& m = *rec.measurement;
      ProfiledLaunch l;
      l.id.demangled = m.launch.kernel;
      l.duration_s = m.time.median_s;
      l.counter_status = m.counter_status;
      l.counters = m.counters;
      // The launch's blocks, its kernels' one after another where they share a block and registers,
      // and where shared memory did not limit their residency (a suite launch stores no
      // shared-memory size).
      const auto& passes = rec.prediction.passes;
      const auto alike = [&](const PassPrediction& p) {
        return p.occupancy.limiter != "shared memory" && p.occupancy.block == passes[0].occupancy.block &&
               p.occupancy.registers_per_thread == passes[0].occupancy.registers_per_thread;
      };
      if (!passes.empty() && std::all_of(passes.begin(), passes.end(), alike)) {
        l.id.grid.x = 0;
        for (const PassPrediction& pass : passes) l.id.grid.x += pass.grid;
        l.id.block.x = passes[0].occupancy.block;
        l.id.registers_per_thread = passes[0].occupancy.registers_per_thread;
      }
      out.push_back({fmt::format("{} n={} {}", m.launch.kernel, m.launch.n, to_string(m.launch.cache)), l,
                     rec.comparison ? rec.comparison->measured_limiter : "", {m.launch.timing, m.launch.cache}});
    }
    return out;
  }
  const auto names = kernel_display_names(run);
  for (const auto& rec : run.profiled) {
    ProfiledLaunch l = rec.launch;
    l.duration_s = rec.analysis.duration_s;
    out.push_back({names.at(l.id.demangled), l, rec.analysis.limiter, {run.run.timing, CacheState::warm}});
  }
  return out;
}

std::string_view time_base_words(Timing t) {
  switch (t) {
    case Timing::event: return "the grid's launch an event pair holds";
    case Timing::ncu: return "an empty kernel's own time as ncu gives it";
    case Timing::loop: return "an empty kernel's period in a loop of back-to-back launches";
    default: return "an empty kernel's own time as the Activity API records it";
  }
}

// One selected launch: its place in the run, what was measured, and its prediction on the target
// (none where it has no counters: `why` says so).
struct FromRunRow {
  std::size_t index = 0;
  const MeasuredLaunch* launch = nullptr;
  double measured_s = 0;
  std::optional<CostPrediction> prediction;
  std::string why;
};

void print_json(const RunRecord& run, const CalibratedGpu& target, const std::vector<FromRunRow>& rows,
                std::ostream& out) {
  nlohmann::ordered_json launches = nlohmann::ordered_json::array();
  for (const auto& r : rows) {
    nlohmann::ordered_json j{{"index", r.index},
                             {"kernel", r.launch->label},
                             {"measured_s", r.measured_s},
                             {"limiter", r.launch->limiter},
                             {"time_base", to_string(r.launch->base.timing)}};
    if (r.prediction) {
      j["predicted_s"] = r.prediction->duration_s;
      j["ratio"] = r.prediction->duration_s / r.measured_s;
      j["bound"] = to_string(r.prediction->bound);
      j["bounds"] = bounds_json(r.prediction->bounds);
    } else {
      j["predicted_s"] = nullptr;
      j["why"] = r.why;
    }
    launches.push_back(std::move(j));
  }
  out << nlohmann::ordered_json{{"run", run.run.id},
                                {"measured_on", run.gpu.id},
                                {"device", run.run.device ? run.run.device->name : ""},
                                {"predicted_on", target.gpu.id},
                                {"ceilings", target.summary},
                                {"launches", std::move(launches)}}
             .dump(2)
      << '\n';
}

}  // namespace

std::int64_t profile_run_id(const SqliteStore& store, const std::string& run) {
  if (run != "latest") return store.resolve_run(run);
  const auto runs = store.list_runs();
  for (auto it = runs.rbegin(); it != runs.rend(); ++it)
    if (it->kind != RunKind::suite) return it->id;
  throw InputError("no profile or import run in " + store.path().string() + ": run `roofline profile -- PROGRAM` first");
}

void predict_from_run(const FromRunOptions& o, OutputFormat format, bool details, std::ostream& out) {
  const SqliteStore store(o.db, OpenMode::read_only);
  const RunRecord run = store.load_run(profile_run_id(store, o.run));
  const CalibratedGpu target = with_stored_calibration(find_gpu(o.gpu), store, "");
  const std::regex filter = kernel_filter(o.kernel_regex);
  const std::vector<MeasuredLaunch> launches = measured_launches(run);
  if (launches.empty()) throw InputError(fmt::format("run {} has no measured launch to predict", run.run.id));
  std::vector<FromRunRow> rows;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const MeasuredLaunch& m = launches[i];
    if (!std::regex_search(m.launch.id.demangled, filter)) continue;
    FromRunRow& r = rows.emplace_back(FromRunRow{i + 1, &m, m.launch.duration_s.value_or(0.0), std::nullopt, ""});
    if (m.launch.counter_status != CounterStatus::collected || r.measured_s <= 0)
      r.why = "no counters: " + std::string(to_string(m.launch.counter_status));
    else
      r.prediction = predict_cost(cost_of(m.launch, run.gpu), r.measured_s, m.limiter, m.base, run.gpu, target.gpu);
  }
  if (rows.empty())
    throw InputError(fmt::format("--kernel-name '{}' matches no launch of run {}", o.kernel_regex, run.run.id));
  if (format == OutputFormat::json) return print_json(run, target, rows, out);

  TextTable t;
  for (const auto* h :
       {"#", "kernel", "measured on", "measured", "limiter", "predicted on", "predicted", "ratio", "bound"})
    t.add_column(h, std::string_view(h) == "kernel" || std::string_view(h) == "limiter" ? Align::left : Align::right);
  for (const auto& r : rows) {
    const std::string limiter = r.launch->limiter.empty() || !r.prediction ? "-" : r.launch->limiter;
    t.add_row({std::to_string(r.index), r.launch->label, run.gpu.id, format_duration(r.measured_s), limiter,
               target.gpu.id, r.prediction ? format_duration(r.prediction->duration_s) : "-",
               r.prediction ? format_number(r.prediction->duration_s / r.measured_s, 3) : "-",
               r.prediction ? std::string(to_string(r.prediction->bound)) : r.why});
  }
  if (format != OutputFormat::csv)
    out << fmt::format("Run {} measured on {} ({}), predicted on {}: same binary and work; each launch {} and its "
                       "work, scaled by the ceiling that bound it (a latency- or launch-limited one by its rounds of "
                       "loads at {}'s loaded latency), and no shorter than its grid's waves, each a round of "
                       "its loads and stores.\nceilings: {}\n",
                       run.run.id, run.run.device ? run.run.device->name : run.gpu.id, run.gpu.id, target.gpu.id,
                       time_base_words(launches.front().base.timing), target.gpu.id, target.summary);
  t.print(out, format);
  if (!details || format != OutputFormat::table) return;
  for (const auto& r : rows) {
    if (!r.prediction) continue;
    out << fmt::format("\n#{} {}: {} measured on {}, {} predicted on {} ({}-bound); each bound on {}:\n", r.index,
                       r.launch->label, format_duration(r.measured_s), run.gpu.id,
                       format_duration(r.prediction->duration_s), target.gpu.id, to_string(r.prediction->bound),
                       target.gpu.id);
    bounds_table(r.prediction->bounds).print_text(out);
  }
}

}  // namespace roofline

#include "cli/predict_from_run.hpp"

#include <fmt/format.h>

#include <ostream>
#include <regex>

#include "cli/stored_calibration.hpp"
#include "models/error.hpp"
#include "models/gpu_catalog.hpp"
#include "models/launch_cost.hpp"
#include "reports/format.hpp"
#include "reports/profile_tables.hpp"
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

}  // namespace

std::int64_t profile_run_id(const SqliteStore& store, const std::string& run) {
  if (run != "latest") return store.resolve_run(run);
  const auto runs = store.list_runs();
  for (auto it = runs.rbegin(); it != runs.rend(); ++it)
    if (it->kind != RunKind::suite) return it->id;
  throw InputError("no profile or import run in " + store.path().string() + ": run `roofline profile -- PROGRAM` first");
}

void predict_from_run(const FromRunOptions& o, OutputFormat format, std::ostream& out) {
  const SqliteStore store(o.db, OpenMode::read_only);
  const RunRecord run = store.load_run(profile_run_id(store, o.run));
  if (run.run.kind == RunKind::suite)
    throw InputError(fmt::format("run {} is a suite run: --from-run takes a profile or import run", run.run.id));
  const CalibratedGpu target = with_stored_calibration(find_gpu(o.gpu), store, "");
  const std::regex filter = kernel_filter(o.kernel_regex);
  // A profile's durations are the Activity API's, an ncu report's gpu__time_duration.
  const Timing timing = run.run.kind == RunKind::import ? Timing::ncu : Timing::kernel;
  TextTable t;
  for (const auto* h : {"#", "kernel", "measured on", "measured", "limiter", "predicted on", "predicted", "ratio", "bound"})
    t.add_column(h, std::string_view(h) == "kernel" || std::string_view(h) == "limiter" ? Align::left : Align::right);
  const auto names = kernel_display_names(run);
  std::size_t shown = 0, index = 0;
  for (const auto& rec : run.profiled) {
    ++index;
    const ProfiledLaunch& l = rec.launch;
    if (!std::regex_search(l.id.demangled, filter)) continue;
    ++shown;
    const double measured = rec.analysis.duration_s;
    if (l.counter_status != CounterStatus::collected || measured <= 0) {
      t.add_row({std::to_string(index), names.at(l.id.demangled), run.gpu.id, format_duration(measured), "-",
                 target.gpu.id, "-", "-",
                 "no counters: " + std::string(to_string(l.counter_status))});
      continue;
    }
    const LaunchCost cost = cost_of(l, run.gpu);
    const CostPrediction p = predict_cost(cost, measured, rec.analysis.limiter, timing, run.gpu, target.gpu);
    t.add_row({std::to_string(index), names.at(l.id.demangled), run.gpu.id, format_duration(measured),
               rec.analysis.limiter.empty() ? "-" : rec.analysis.limiter, target.gpu.id, format_duration(p.duration_s),
               format_number(p.duration_s / measured, 3), std::string(to_string(p.bound))});
  }
  if (shown == 0)
    throw InputError(fmt::format("--kernel-name '{}' matches no launch of run {}", o.kernel_regex, run.run.id));
  if (format != OutputFormat::csv)
    out << fmt::format("Run {} measured on {} ({}), predicted on {}: same binary and work; each launch an empty "
                       "kernel's own time ({}) and its work, scaled by the ceiling that bound it (a latency- or "
                       "launch-limited one by its rounds of loads at {}'s loaded latency).\nceilings: {}\n",
                       run.run.id, run.run.device ? run.run.device->name : run.gpu.id, run.gpu.id, target.gpu.id,
                       timing == Timing::ncu ? "as ncu times it" : "as the Activity API records it", target.gpu.id,
                       target.summary);
  t.print(out, format);
}

}  // namespace roofline

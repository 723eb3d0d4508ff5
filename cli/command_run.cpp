// `roofline run`: the main job. Predict, measure (when a GPU is present), compare, store every
// launch in its own transaction, and write the reports.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <optional>

#include "analysis/compare.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/invocation.hpp"
#include "cli/launch_options.hpp"
#include "cli/output_paths.hpp"
#include "cli/report_files.hpp"
#include "cli/session_support.hpp"
#include "cli/stored_calibration.hpp"
#include "models/error.hpp"
#include "models/gpu_catalog.hpp"
#include "models/predict.hpp"
#include "reports/sqlite_store.hpp"

namespace roofline {
namespace {

struct RunOptions {
  LaunchOptions launches;
  SessionOptions session;
  std::string gpu = "h100-sxm";
  std::string db = "roofline.db";
  ReportPaths reports{"roofline-report.html", "roofline-report.md", "", ""};
  bool predict_only = false;
  bool no_calibration = false;
};

// The latest calibration of the measured device (or, when nothing is measured, of the GPU model)
// in the database the run goes to; a database that does not exist yet holds none.
CalibratedGpu calibrated_model(const RunOptions& o, const GpuSession* session, const GpuSpec& model) {
  if (o.no_calibration) return uncalibrated(model, "--no-calibration");
  if (!std::filesystem::exists(o.db)) return uncalibrated(model, o.db + " is new");
  const SqliteStore store(o.db);  // read-write: upgrades an older schema, as storing the run will anyway
  return with_stored_calibration(model, store, session ? session->device().uuid : "");
}

Run new_run(const RunOptions& o, const CalibratedGpu& calibrated, const GpuSession* session,
            const std::string& why_not_measured) {
  Run run = new_run_of(RunKind::suite, o.launches.timing, calibrated);
  run.cache_setting = o.launches.cache;
  run.clock_setting = "as found (roofline never changes clocks)";
  if (session) run.device = session->device();
  else run.note = "nothing was measured: " + why_not_measured;
  if (session && !session->counters_available()) run.note = "timing only: " + session->counters_note();
  return run;
}

struct Recorded {
  std::size_t launches = 0;
  int failed_checks = 0;
};

// Measures (with a session) and stores every launch, each in its own transaction, until the
// last one or an interrupt, which lets the launch in flight finish.
Recorded record_launches(SqliteStore& store, std::int64_t run_id, GpuSession* session,
                         const std::vector<std::pair<KernelSpec, Launch>>& launches,
                         const std::vector<Prediction>& predictions, const GpuSpec& gpu) {
  Recorded done;
  auto record = [&](std::size_t i, std::optional<Measurement> m) {
    const KernelSpec& spec = launches[i].first;
    LaunchRecord r;
    r.kernel_category = spec.category;
    r.prediction = predictions[i];
    r.measurement = std::move(m);
    if (r.measurement && r.measurement->verified) r.comparison = compare(predictions[i], *r.measurement, gpu, spec);
    if (r.measurement && !r.measurement->verified) ++done.failed_checks;
    store.record_launch(run_id, spec, r);
    ++done.launches;
  };
  if (session)
    measure_in_batches(*session, launches, gpu, [&](std::size_t i, Measurement&& m) { record(i, std::move(m)); });
  else
    for (std::size_t i = 0; i < launches.size() && !interrupted(); ++i) record(i, std::nullopt);
  return done;
}

void execute(const RunOptions& o) {
  const InterruptScope stop_cleanly;
  // Every path is checked before anything runs: a run must not fail, or overwrite one of its
  // own files, after minutes of measuring.
  std::vector<OutputFile> outputs = report_outputs(o.reports);
  outputs.push_back({"--db", o.db});
  check_output_files(outputs, {{"--spec", o.launches.spec_file}});

  std::string why_not_measured = "--predict-only was given";
  std::unique_ptr<GpuSession> session;
  if (!o.predict_only) session = GpuSession::open(o.session, &why_not_measured);
  const GpuSpec& model = session ? session_gpu_or(*session, o.gpu) : find_gpu(o.gpu);
  const auto launches = session ? runnable_launches(*session, expand_launches(o.launches, model.arch))
                                : expand_launches(o.launches, model.arch);
  const CalibratedGpu calibrated = calibrated_model(o, session.get(), model);
  const GpuSpec& gpu = calibrated.gpu;
  if (session) check_fits(launches, gpu, session->free_memory_bytes());
  // Every prediction first: bad input fails before the database is touched.
  std::vector<Prediction> predictions;
  for (const auto& [spec, launch] : launches) {
    throw_if_interrupted("nothing was stored");
    predictions.push_back(predict_bounds(gpu, spec, launch));
  }

  SqliteStore store(o.db);
  const std::int64_t run_id = store.begin_run(new_run(o, calibrated, session.get(), why_not_measured), gpu);
  Recorded recorded;
  try {
    recorded = record_launches(store, run_id, session.get(), launches, predictions, gpu);
  } catch (...) {
    store.finish_run(run_id, RunStatus::failed);
    throw;
  }
  const RunStatus status = recorded.launches < launches.size() ? RunStatus::partial : RunStatus::complete;
  store.finish_run(run_id, status);
  throw_if_interrupted(fmt::format("run {} is stored as {} with {} of {} launches in {}; `roofline report --run {} "
                                   "--db {}` writes its reports",
                                   run_id, to_string(status), recorded.launches, launches.size(), o.db, run_id, o.db));

  const RunRecord stored = store.load_run(run_id);
  print_launch_summary(stored, std::cout);
  const std::string written = write_reports(stored, o.reports);
  std::cout << fmt::format("\nrun {} ({}) stored in {}\nceilings: {}\n{}", run_id, to_string(status), o.db,
                           calibrated.summary, written);
  if (!session)
    std::cout << fmt::format("nothing was measured ({}): these are predictions for {} only\n", why_not_measured, gpu.id);
  if (recorded.failed_checks)
    throw Error(fmt::format("{} launch(es) failed verification (see the report)", recorded.failed_checks));
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("run", "The main job: predict, measure, compare, store and report a suite");
  auto o = std::make_shared<RunOptions>();
  o->launches.cache = "both";
  add_launch_options(*cmd, o->launches);
  add_session_options(*cmd, o->session);
  cmd->add_option("--gpu", o->gpu, "GPU model to predict for when no GPU is present (see `roofline gpus`)")
      ->capture_default_str();
  cmd->add_option("--db", o->db, "SQLite database to store the run in")->capture_default_str();
  cmd->add_option("--html", o->reports.html, "HTML report to write (\"\" for none)")->capture_default_str();
  cmd->add_option("--md", o->reports.md, "markdown report to write, with its chart as .svg beside it (\"\" for none)")
      ->capture_default_str();
  cmd->add_option("--json", o->reports.json, "also export the run as JSON");
  cmd->add_option("--csv", o->reports.csv, "also export the run's values as CSV (launch x metric)");
  auto timing = std::make_shared<std::string>("event");
  add_measured_timing_option(*cmd, *timing,
                             "predicted, measured and stored the same way, and `accuracy` re-predicts the run so");
  cmd->add_flag("--predict-only", o->predict_only, "do not measure even when a GPU is present");
  cmd->add_flag("--no-calibration", o->no_calibration,
                "predict with the GPU model's own ceilings, not the latest calibration stored in --db");
  cmd->footer(
      "Without a GPU the run predicts for --gpu, stores and reports, and says that nothing was measured.\n"
      "Predictions use the latest `roofline calibrate` of the measured device stored in --db (without a\n"
      "GPU: of any device of the --gpu model), and the run records which. Every output path is checked\n"
      "before anything runs. Ctrl-C (or SIGTERM) lets the batch in flight finish, stores the run as\n"
      "partial, writes no report and exits 130 (143); `roofline report --run ID` renders it later.\n"
      "A kernel that cannot take a size given with -n (a square or cube kernel) is skipped at it, with a note.\n"
      "Examples:\n"
      "  roofline run                                   # whole suite, 2^20/2^24/2^28, cold and warm\n"
      "  roofline run --suite elementwise --n 16M --cache warm --db results.db\n"
      "  roofline run --kernel 'hadamard3_*' --html hadamard.html --md \"\"\n"
      "  roofline run --suite elementwise --timing loop --db loop.db   # a benchmark loop's time per launch");
  cmd->callback([o, cmd, timing] {
    RunOptions run = *o;
    apply_measured_timing(*cmd, *timing, run.launches, run.session);
    execute(run);
  });
}

}  // namespace roofline

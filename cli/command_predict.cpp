// `roofline predict`: the analytic model for chosen kernels, sizes and cache states, no GPU needed.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/kernel_selection.hpp"
#include "cli/launch_options.hpp"
#include "cli/predict_from_run.hpp"
#include "cli/stored_calibration.hpp"
#include "models/error.hpp"
#include "models/gpu_catalog.hpp"
#include "models/predict.hpp"
#include "reports/prediction_output.hpp"
#include "reports/sqlite_store.hpp"

namespace roofline {
namespace {
// One line naming the parameters the predictions rest on that nobody measured on this GPU
// model (those no prediction used left out); empty when there are none. On stderr, so that
// every stdout format stays as it was.
std::string assumed_caution(const GpuSpec& g, const std::vector<Prediction>& predictions) {
  std::vector<std::string_view> keys;
  for (std::string_view key : assumed_params(g))
    if (!std::all_of(predictions.begin(), predictions.end(), [&](const Prediction& p) {
          return std::find(p.unused_params.begin(), p.unused_params.end(), key) != p.unused_params.end();
        }))
      keys.push_back(key);
  if (keys.empty()) return {};
  return fmt::format("caution: {}: {} {} assumed, not measured on this GPU; run `roofline calibrate` on one to "
                     "measure what it can (models/gpus/{}.toml says what each assumption derives from)\n",
                     g.id, fmt::join(keys, ", "), keys.size() == 1 ? "is" : "are", g.id);
}

// Every launch predicted before anything is printed: a bad launch leaves no partial output. A
// sweep of several kernels skips (and names, in `skipped`) a launch too large for the GPU's
// memory, as `run` does; asked of one kernel, that is an error.
std::vector<Prediction> predict_launches(const GpuSpec& g, const std::vector<std::pair<KernelSpec, Launch>>& launches,
                                         std::vector<std::string>& skipped) {
  const bool several_kernels = std::any_of(launches.begin(), launches.end(), [&](const auto& l) {
    return l.second.kernel != launches.front().second.kernel;
  });
  std::vector<Prediction> predictions;
  for (const auto& [spec, launch] : launches) try {
      predictions.push_back(predict_bounds(g, spec, launch));
    } catch (const ExceedsDeviceMemory& e) {
      if (!several_kernels) throw;
      if (std::find(skipped.begin(), skipped.end(), e.what()) == skipped.end()) skipped.emplace_back(e.what());
    }
  if (predictions.empty() && !skipped.empty()) throw InputError("no launch fits the GPU's memory: " + skipped.front());
  return predictions;
}

// What the durations of a table time, where not an event pair around the launch.
std::string_view durations_line(Timing t) {
  switch (t) {
    case Timing::event: return "";
    case Timing::kernel:
      return "durations: the kernel's own time on the GPU (--timing kernel), as roofline profile and nsys record it\n";
    case Timing::ncu:
      return "durations: the kernel's own time on the GPU (--timing ncu), as ncu's gpu__time_duration gives it\n";
    case Timing::loop:
      return "durations: one launch of a loop of back-to-back launches (--timing loop), the loop's time over its "
             "launches\n";
  }
  return "";
}
}  // namespace

void add_predict_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("predict", "Predict every bound, the binding one, the duration and the counters (no GPU needed)");
  auto opts = std::make_shared<LaunchOptions>();
  auto gpu = std::make_shared<std::string>("h100-sxm");
  auto format = std::make_shared<std::string>("table");
  auto details = std::make_shared<bool>(false);
  auto db = std::make_shared<std::string>();
  auto from_run = std::make_shared<std::string>();
  auto kernel_name = std::make_shared<std::string>();
  auto timing = std::make_shared<std::string>("event");
  cmd->add_option("--gpu", *gpu, "GPU model id (see `roofline gpus`)")->capture_default_str();
  cmd->add_option("--db", *db, "apply the latest calibration of a --gpu device stored in this database (opened read-only)");
  add_launch_options(*cmd, *opts);
  cmd->add_option("--from-run", *from_run,
                  "predict the measured launches of a stored run on --gpu, from their own counters: no spec needed "
                  "(a profile or import run, latest the last of them, or a suite run by its id; --db: the "
                  "database holding it, default roofline.db)");
  cmd->add_option("--kernel-name", *kernel_name, "with --from-run: only launches whose demangled name matches this regex");
  cmd->add_option("--timing", *timing,
                  "what the duration times: event (a CUDA event pair around the launch, as `measure` times it), "
                  "kernel (the kernel's own time on the GPU as `roofline profile` and nsys record it), ncu (its own "
                  "time as ncu's gpu__time_duration gives it, about a microsecond more on a short kernel) or loop "
                  "(one launch of a loop of back-to-back launches timed together, as nvbench's batch time and "
                  "`measure --timing loop`: warm, each launch's overhead overlapping the one before)")
      ->capture_default_str();
  cmd->add_option("--format", *format, "table, json (full precision) or csv")->capture_default_str();
  cmd->add_flag("--details", *details,
                "table format: also print each launch's bound explanations, counters and notes, and every ceiling "
                "with its source (with --from-run: each launch's bounds on --gpu)");
  cmd->footer(
      "Examples:\n"
      "  roofline predict --kernel add_f32x4 --n 2^28\n"
      "  roofline predict --gpu rtx-4090 --kernel 'add_*' --n 1M,16M,256M --cache warm\n"
      "  roofline predict --spec my_kernel.toml --n 2^24 --format json\n"
      "  roofline predict --spec my_kernel.toml --n 2^22 --cache warm --timing kernel   # beside a profile's times\n"
      "  roofline predict --spec my_kernel.toml --n 2^22 --timing ncu   # beside an ncu report's gpu__time_duration\n"
      "  roofline predict --kernel add_f32x4 --n 1M --timing loop   # a benchmark loop's time per call (warm)\n"
      "  roofline predict --kernel add_f32 --n 2^28 --db roofline.db --details   # with calibrated ceilings\n"
      "  roofline predict --from-run latest --gpu h200 --kernel-name 'gemm|softmax'  # a profiled program elsewhere");
  cmd->callback([=] {
    const OutputFormat f = output_format_from_string(*format);
    if (!from_run->empty()) {
      // A run's launches are predicted as the run made and timed them (a profile's own times, an
      // import's ncu times): what describes a launch of a spec does not apply.
      for (const char* name : {"--timing", "--kernel", "--suite", "--spec", "--n", "--dtype", "--block", "--cache"})
        if (cmd->get_option(name)->count() > 0)
          throw InputError(fmt::format("{} does not apply to --from-run: its launches are predicted as the run made "
                                       "and timed them (choose them with --kernel-name)",
                                       name));
      predict_from_run({*from_run, db->empty() ? "roofline.db" : *db, *kernel_name, *gpu}, f, *details, std::cout);
      return;
    }
    if (!kernel_name->empty())
      throw InputError(
          "--kernel-name selects launches of --from-run; to choose kernels of the suite or a spec use --kernel");
    std::optional<CalibratedGpu> calibrated;
    if (!db->empty()) calibrated = with_stored_calibration(find_gpu(*gpu), SqliteStore(*db, OpenMode::read_only), "");
    const GpuSpec& g = calibrated ? calibrated->gpu : find_gpu(*gpu);
    LaunchOptions o = *opts;
    set_timing(o, timing_from_string(*timing), cmd->get_option("--cache")->count() > 0);
    auto launches = expand_launches(o, g.arch);
    std::vector<std::string> skipped;
    const std::vector<Prediction> predictions = predict_launches(g, launches, skipped);
    // JSON carries it in every ceiling's source and note; CSV has no place for it.
    if (calibrated && f != OutputFormat::json)
      (f == OutputFormat::csv ? std::cerr : std::cout) << "ceilings: " << calibrated->summary << '\n';
    if (f == OutputFormat::table) std::cout << durations_line(o.timing);
    print_predictions(predictions, g, f, *details, std::cout);
    for (const auto& why : skipped) fmt::print(stderr, "roofline: skipped: {}\n", why);
    std::cerr << assumed_caution(g, predictions);
  });
}

}  // namespace roofline

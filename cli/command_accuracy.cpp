// `roofline accuracy`: re-predict a stored run's launches with the current model and judge the
// predictions against its measurements (docs/accuracy.md).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/invocation.hpp"
#include "cli/kernel_selection.hpp"
#include "cli/output_paths.hpp"
#include "cli/report_files.hpp"
#include "cli/stored_calibration.hpp"
#include "kernels/builtin_kernels.hpp"
#include "kernels/resource_usage.hpp"
#include "models/error.hpp"
#include "models/gpu_catalog.hpp"
#include "models/predict.hpp"
#include "reports/accuracy_report.hpp"
#include "reports/sqlite_store.hpp"

namespace roofline {
namespace {

// Keeps the launches of the chosen kernels (names or globs) only; an empty choice keeps all.
void keep_kernels(RunRecord& record, const std::vector<std::string>& kernels, const std::string& run,
                  const std::string& db) {
  if (kernels.empty()) return;
  std::set<std::string> chosen;
  for (const KernelSpec& k : select_kernels({kernels, "", ""})) chosen.insert(k.name);
  std::erase_if(record.launches, [&](const auto& l) { return !chosen.contains(l.prediction.launch.kernel); });
  if (record.launches.empty())
    throw InputError(fmt::format("run {} of {} has no launch of {}", run, db, fmt::join(kernels, ", ")));
}

// The measured launches' comparisons, all of them and by the set their kernel belongs to.
struct Judged {
  std::vector<Comparison> all, elementwise, development, held_out;
};

// Re-predicts every launch of the run with the current model on `gpu` and compares the verified
// ones with their measurements.
Judged repredict(RunRecord& record, const GpuSpec& gpu) {
  Judged j;
  const CompareOptions options;
  for (auto& l : record.launches) {
    const KernelSpec* builtin = find_builtin_kernel(l.prediction.launch.kernel);
    if (!builtin)
      throw InputError(fmt::format("run has kernel '{}' that the suite no longer has", l.prediction.launch.kernel));
    const KernelSpec spec = with_compiled_registers(*builtin, gpu.arch);
    l.prediction = predict_bounds(gpu, spec, l.prediction.launch);
    l.comparison.reset();
    if (!l.measurement || !l.measurement->verified) continue;
    l.comparison = compare(l.prediction, *l.measurement, gpu, spec, options);
    j.all.push_back(*l.comparison);
    if (spec.held_out) j.held_out.push_back(*l.comparison);
    else if (spec.category == "patterns") j.development.push_back(*l.comparison);
    else j.elementwise.push_back(*l.comparison);
  }
  return j;
}

// The patterns suite is judged in its two sets; the held-out one never shaped the model, and its
// bound target is 90 % (docs/accuracy.md).
std::vector<AccuracyGroup> accuracy_groups(const Judged& j) {
  auto summary = [](const std::vector<Comparison>& c) { return summarize_run(c, static_cast<int>(c.size())); };
  std::vector<AccuracyGroup> groups;
  AccuracyTargets patterns_targets;
  patterns_targets.bound_agreement = 0.90;
  if (!j.elementwise.empty() && (!j.development.empty() || !j.held_out.empty()))
    groups.push_back({"The suite the model was developed on",
                      "Every kernel outside the patterns suite (elementwise adds, techniques, probes, Hadamard "
                      "products, references).",
                      summary(j.elementwise), AccuracyTargets{}});
  if (!j.development.empty())
    groups.push_back({"Development kernels of the patterns suite",
                      "Kernels of the patterns suite that were looked at while shaping the model's terms beyond "
                      "elementwise.",
                      summary(j.development), patterns_targets});
  if (!j.held_out.empty())
    groups.push_back({"Held-out kernels of the patterns suite",
                      "Kernels whose spec says held_out = true: no parameter is fitted to them; judged apart "
                      "from the kernels the model was shaped on.",
                      summary(j.held_out), patterns_targets});
  return groups;
}

}  // namespace


void add_accuracy_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("accuracy", "Re-predict a stored, measured run with the current model and judge it");
  auto run = std::make_shared<std::string>("latest");
  auto db = std::make_shared<std::string>("roofline.db");
  auto out = std::make_shared<std::string>();
  auto no_calibration = std::make_shared<bool>(false);
  auto kernels = std::make_shared<std::vector<std::string>>();
  cmd->add_option("--run", *run, "run id or 'latest'")->capture_default_str();
  cmd->add_option("-k,--kernel", *kernels,
                  "judge only the launches of these kernels: names or globs, comma-separated (default: every launch)")
      ->delimiter(',');
  cmd->add_option("--db", *db, "SQLite database")->capture_default_str();
  cmd->add_option("-o,--output", *out, "write the markdown here instead of stdout");
  cmd->add_flag("--no-calibration", *no_calibration,
                "re-predict with the GPU model's own ceilings, not the latest calibration of the run's device in --db");
  cmd->footer("Time is compared against the median CUDA-event time (a run made with --timing loop: its chunks' time\n"
              "per launch, and its launches are re-predicted so); counters against CUPTI's. The latest\n"
              "calibration of the run's device stored in --db is applied, and the markdown names it.\n"
              "Examples:\n"
              "  roofline accuracy --db docs/results/h100/suite.db --run 1 -o docs/accuracy.md\n"
              "  roofline accuracy --db docs/results/h100/whole-suite/suite.db --run 1 --kernel 'histogram_*'");
  cmd->callback([=] {
    const InterruptScope stop_cleanly;  // before the -o file is renamed into place
    if (!out->empty()) check_output_files({{"-o", *out}}, {{"--db", *db}});
    const SqliteStore store(*db, OpenMode::read_only);
    RunRecord record = store.load_run(store.resolve_run(*run));
    keep_kernels(record, *kernels, *run, *db);
    const GpuSpec& model = find_gpu(record.gpu.id);
    const CalibratedGpu calibrated =
        *no_calibration ? uncalibrated(model, "--no-calibration")
                        : with_stored_calibration(model, store, record.run.device ? record.run.device->uuid : "");
    const GpuSpec& gpu = calibrated.gpu;
    record.gpu = gpu;
    record.run.calibration_id = calibrated.calibration ? std::optional(calibrated.calibration->run_id) : std::nullopt;
    const Judged judged = repredict(record, gpu);
    const RunSummary summary = summarize_run(judged.all, static_cast<int>(record.launches.size()));
    const std::string command =
        fmt::format("roofline accuracy --db {} --run {}{}{}{}", *db, *run,
                    kernels->empty() ? "" : fmt::format(" --kernel '{}'", fmt::join(*kernels, ",")),
                    *no_calibration ? " --no-calibration" : "", out->empty() ? "" : " -o " + *out);
    auto render = [&](std::ostream& markdown) {
      render_accuracy_markdown(record, summary, command, markdown, {}, accuracy_groups(judged));
      markdown << "\nCeilings: " << calibrated.summary << ".\n";
    };
    if (out->empty()) render(std::cout);
    else write_whole_file(*out, render);
  });
}

}  // namespace roofline

// `roofline calibrate`: measures this device's ceilings (DRAM, L2, latencies, launch floor,
// clock, FMA peaks, L2 fabric factor), stores them per device and prints each beside the value
// of the device's GPU model.
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/output_paths.hpp"
#include "cli/invocation.hpp"
#include "cli/progress.hpp"
#include "models/calibration.hpp"
#include "models/error.hpp"
#include "profiler/calibrate.hpp"
#include "profiler/device_query.hpp"
#include "reports/format.hpp"
#include "reports/output_format.hpp"
#include "reports/record_json.hpp"
#include "reports/sqlite_store.hpp"
#include "reports/text_table.hpp"

namespace roofline {
namespace {

std::string show(double v, const std::string& unit) {
  if (unit == "ns") return format_quantity(v * 1e-9, "s");
  if (unit == "FMA/s") return fmt::format("{:.4g} TFMA/s", v * 1e-12);
  if (unit == "cycles" || unit == "FMA/clk") return format_number(v, 4) + (unit == "cycles" ? " cycles" : "");
  return format_quantity(v, unit);
}

// The calibration as JSON: every value with its unit, beside the GPU model's value and source.
void print_calibration_json(const Calibration& cal, const std::optional<GpuSpec>& model, double seconds,
                            const std::string& db) {
  nlohmann::json j = to_json(cal);
  j["seconds"] = seconds;
  j["db"] = db;
  for (auto& v : j["values"]) {
    const GpuParam* p = find_gpu_param(v["key"].get<std::string>());
    v["unit"] = calibrated_unit(v["key"].get<std::string>());
    if (p == nullptr || !model) continue;
    const Quantity& q = (*model).*(p->member);
    v["model_value"] = q.value;
    v["model_source"] = std::string(to_string(q.source));
  }
  std::cout << j.dump(2) << '\n';
}

// The calibration as a table beside the GPU model's values, then how each value was measured.
void print_calibration_table(const Calibration& cal, const std::optional<GpuSpec>& model, double seconds) {
  std::cout << fmt::format("{} (UUID {}), GPU model {}; calibrated {} in {:.1f} s\n\n", cal.device_name,
                           cal.device_uuid, model ? model->id : "unknown (no catalog model matches)", cal.date,
                           seconds);
  TextTable t;
  t.add_column("parameter");
  t.add_column("calibrated", Align::right);
  t.add_column("spread", Align::right);
  t.add_column(model ? "model (" + model->id + ")" : "model", Align::right);
  t.add_column("model source");
  t.add_column("ratio", Align::right);
  for (const auto& v : cal.values) {
    const std::string unit = calibrated_unit(v.key);
    std::string mv = "-", src = is_extra_key(v.key) ? "(not used by the model)" : "-", ratio = "-";
    if (const GpuParam* p = find_gpu_param(v.key); p != nullptr && model) {
      const Quantity& q = (*model).*(p->member);
      mv = show(q.value, unit);
      src = std::string(to_string(q.source));
      if (q.value != 0) ratio = format_number(v.value / q.value, 3);
    }
    t.add_row({v.key, show(v.value, unit), format_percent(v.spread), mv, src, ratio});
  }
  t.print_text(std::cout);
  std::cout << "\nHow each value the model uses was measured:\n";
  for (const auto& v : cal.values)
    if (!is_extra_key(v.key)) std::cout << fmt::format("  {}: {}\n", v.key, v.method);
  for (const auto& v : cal.values)
    if (v.key == "extra.counters_unavailable") std::cout << fmt::format("\nnote: {}\n", v.method);
}

}  // namespace

void add_calibrate_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "calibrate",
      "Measure this device's ceilings (DRAM read/write/copy bandwidth, L2 bandwidth against working set, launch "
      "floor, block turnover and the part of it under the launch, loaded and unloaded latency, the DRAM round "
      "against utilization and a store's round, SM clock, FMA peaks, barrier steps, block reductions, global "
      "atomics, random DRAM loads and the sectors each fetches, merged column stores, split stores, the dirty lines "
      "a cold launch leaves in L2, L2 fabric factor and residency) and store them for the model");
  auto device = std::make_shared<int>(0);
  auto db = std::make_shared<std::string>("roofline.db");
  auto format = std::make_shared<std::string>("table");
  auto reps = std::make_shared<int>(15);
  auto no_counters = std::make_shared<bool>(false);
  cmd->add_option("--device", *device, "CUDA device ordinal")->capture_default_str();
  cmd->add_option("--db", *db, "SQLite database to store the calibration in (created when missing)")->capture_default_str();
  cmd->add_option("--format", *format, "table or json")->capture_default_str();
  cmd->add_option("--repetitions", *reps, "timed launches per measurement")->capture_default_str();
  cmd->add_flag("--no-counters", *no_counters,
                "skip the CUPTI part (L2 fabric factor, random loads' DRAM sectors, split stores, dirty lines, L2 "
                "residency)");
  cmd->footer(
      "The ceilings are stored for this device in --db; `run`, `predict --db` and `accuracy` use the latest.\n"
      "Examples:\n"
      "  roofline calibrate --db roofline.db\n"
      "  roofline calibrate --device 1 --repetitions 30 --no-counters --format json");
  cmd->callback([=] {
    const InterruptScope stop_cleanly;
    const OutputFormat f = output_format_from_string(*format);
    if (f != OutputFormat::table && f != OutputFormat::json)
      throw InputError(fmt::format("calibrate: --format {} is not supported (table or json)", *format));
    if (*reps < 3) throw InputError("calibrate: --repetitions must be at least 3");
    std::string why;
    const int count = cuda_device_count(&why);
    if (count == 0) throw Error("calibrate: no CUDA device to measure (" + why + ")");
    if (*device < 0 || *device >= count)
      throw InputError(fmt::format("calibrate: --device {} does not exist ({} device{} present)", *device, count,
                                   count == 1 ? "" : "s"));

    check_output_files({{"--db", *db}});
    SqliteStore store(*db);  // before measuring: a database that cannot be written fails in seconds, not minutes
    DeviceProperties props = query_device(*device);
    const std::optional<GpuSpec> model = device_gpu_spec(props);

    CalibrateOptions options;
    options.device = *device;
    options.repetitions = *reps;
    options.counters = !*no_counters;
    options.roofline_version = toolkit_version();
    std::unique_ptr<Progress> progress;
    const auto started = std::chrono::steady_clock::now();
    Calibration cal = calibrate_device(options, [&](std::string_view step, int, int n) {
      throw_if_interrupted("nothing was stored");  // between steps: the calibration is stored only whole
      if (!progress) progress = std::make_unique<Progress>(n);
      progress->step(std::string(step));
    });
    if (progress) progress->done();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    cal.model_id = model ? model->id : "";
    store.save_calibration(cal);

    if (f == OutputFormat::json) {
      print_calibration_json(cal, model, seconds, *db);
      return;
    }
    print_calibration_table(cal, model, seconds);
    std::cout << fmt::format("\nStored in {} as calibration run {} of device {}: `roofline run --db {}` predicts this "
                             "device with it.\n",
                             *db, cal.run_id, cal.device_uuid, *db);
  });
}

}  // namespace roofline

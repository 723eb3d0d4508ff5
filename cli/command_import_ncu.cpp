// `roofline import-ncu FILE`: an Nsight Compute CSV export stored as a run of kind import, each
// launch with the counters roofline knows and what they say about it (the counter-only
// analysis), next to roofline's own runs.
#include <fmt/format.h>

#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/counter_analysis.hpp"
#include "cli/commands.hpp"
#include "cli/invocation.hpp"
#include "cli/stored_calibration.hpp"
#include "models/error.hpp"
#include "models/gpu_catalog.hpp"
#include "models/gpu_match.hpp"
#include "reports/ncu_csv.hpp"
#include "reports/sqlite_store.hpp"

namespace roofline {
namespace {

struct ImportOptions {
  std::string file;
  std::string db = "roofline.db";
  std::string gpu;  // empty: the model the export's device is
  std::string kernel_name_base = "demangled";
};

// The model an export that names no device is judged with, unless --gpu says otherwise.
constexpr std::string_view kUnnamedDeviceGpu = "h100-sxm";

// The GPU model whose ceilings judge the export's launches, and the warning lines about it. With
// --gpu, that model: another architecture than the export's device is refused, another SM count or
// another model of the same architecture is a warning. Without, the catalog model the export's
// device is (its name, compute capability and SM count; an H100 and an H200 differ only by name).
struct JudgingGpu {
  const GpuSpec& gpu;
  std::vector<std::string> warnings;
};
JudgingGpu judging_gpu(const NcuImport& import, const std::string& requested) {
  const DeviceInfo* named = import.device && !import.device->name.empty() ? &*import.device : nullptr;
  const GpuSpec* matched = named != nullptr ? match_gpu(*named, builtin_gpus()) : nullptr;
  std::vector<std::string> warnings;
  std::string_view id = requested;
  if (id.empty()) {
    if (matched != nullptr) return {*matched, {}};
    if (named != nullptr)
      throw InputError(fmt::format("{} (compute capability {}.{}, {} SMs) is no GPU model roofline knows: pass "
                                   "--gpu, e.g. --gpu {}, the nearest (see `roofline gpus`)",
                                   named->name, named->cc_major, named->cc_minor, named->sm_count,
                                   nearest_gpu(*named, builtin_gpus())->id));
    id = kUnnamedDeviceGpu;
    warnings.push_back(fmt::format("the export names no device: judged as GPU model {} (pass --gpu to say which)", id));
  }
  const GpuSpec& gpu = find_gpu(id);
  if (!import.device) return {gpu, warnings};
  const DeviceInfo& device = *import.device;
  const std::string name = device.name.empty() ? "the export's device" : device.name;
  if (device.cc_major != 0 && (device.cc_major != gpu.cc_major || device.cc_minor != gpu.cc_minor))
    throw InputError(fmt::format("{} is compute capability {}.{}, GPU model {} is {}.{}: pass the --gpu it ran on "
                                 "(see `roofline gpus`)",
                                 name, device.cc_major, device.cc_minor, gpu.id, gpu.cc_major, gpu.cc_minor));
  if (device.sm_count != 0 && device.sm_count != sms(gpu))
    warnings.push_back(fmt::format("{} has {} SMs, GPU model {} has {}: its ceilings may not be that device's", name,
                                   device.sm_count, gpu.id, sms(gpu)));
  else if (matched != nullptr && matched->id != gpu.id)
    warnings.push_back(
        fmt::format("{} is GPU model {}: judged with {}'s ceilings, as --gpu asks", name, matched->id, gpu.id));
  return {gpu, warnings};
}

Run import_run(const NcuImport& import, const ImportOptions& o, const CalibratedGpu& gpu,
               const std::vector<std::string>& warnings) {
  Run run = new_run_of(RunKind::import, Timing::ncu, gpu);
  run.device = import.device;
  if (run.device) run.device->model_id = gpu.gpu.id;
  // The export does not say how ncu ran; these are its defaults.
  run.cache_setting = "as ncu ran (by default it flushes the caches before each launch)";
  run.clock_setting = "as ncu ran (by default it locks the clocks to base)";
  run.note = import_note(import, o.file);
  for (const std::string& w : warnings) run.note += "; " + w;
  return run;
}

void import_ncu(const ImportOptions& o) {
  // Everything that can be wrong with the input fails before the database is touched.
  const NcuImport import = read_ncu_csv(o.file, kernel_name_base_from_string(o.kernel_name_base));
  const auto [judging, device_warnings] = judging_gpu(import, o.gpu);

  SqliteStore store(o.db);
  const CalibratedGpu gpu = with_stored_calibration(judging, store, "");
  std::vector<ProfiledLaunchRecord> records;
  for (const ProfiledLaunch& launch : import.launches) records.push_back({launch, analyse_counters(launch, gpu.gpu)});

  for (const std::string& line : import_warnings(import)) std::cerr << line << '\n';
  for (const std::string& line : device_warnings) std::cerr << "warning: " << line << '\n';
  const std::int64_t run_id = store.begin_run(import_run(import, o, gpu, device_warnings), gpu.gpu);
  try {
    for (const ProfiledLaunchRecord& r : records) store.record_profiled_launch(run_id, r);
  } catch (...) {
    store.finish_run(run_id, RunStatus::failed);
    throw;
  }
  store.finish_run(run_id, RunStatus::complete);
  std::cout << fmt::format("run {}: {} launch{} of {} (Nsight Compute {}) stored in {}\nceilings: {}\n", run_id,
                           records.size(), records.size() == 1 ? "" : "es", o.file, to_string(import.page), o.db,
                           gpu.summary);
}

}  // namespace

void add_import_ncu_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("import-ncu", "Store an Nsight Compute CSV export as a run, with what its counters say");
  auto o = std::make_shared<ImportOptions>();
  cmd->add_option("file", o->file, "the CSV ncu wrote: `ncu --csv --page raw` (one row per launch) or `ncu --csv`")
      ->required();
  cmd->add_option("--db", o->db, "SQLite database")->capture_default_str();
  cmd->add_option("--gpu", o->gpu,
                  "GPU model whose ceilings judge the launches (see `roofline gpus`); by default the model the "
                  "export's device is (its name, compute capability and SM count), h100-sxm where it names none");
  cmd->add_option("--kernel-name-base", o->kernel_name_base,
                  "what the export's Kernel Name column holds, as ncu's --print-kernel-base said: demangled "
                  "(ncu's default), mangled or function")
      ->capture_default_str();
  cmd->footer(
      "Each launch of the export is stored with its identity (kernel, grid, block, registers, shared memory),\n"
      "the counters of `roofline metrics` (in their units) and the counter-only analysis. Metrics roofline\n"
      "does not know and launches without a duration are listed on stderr and in the run's note.\n"
      "Lines that are not ncu's CSV (==PROF== lines, the program's output) are skipped.\n\n"
      "Examples:\n"
      "  ncu --csv --page raw --metrics \"$(roofline metrics --names)\" --log-file app.csv ./app\n"
      "  roofline import-ncu app.csv\n"
      "  ncu --import app.ncu-rep --csv --page raw > app.csv && roofline import-ncu app.csv --gpu h100-pcie\n"
      "  ncu --csv --print-kernel-base mangled ./app > app.csv && roofline import-ncu app.csv --kernel-name-base mangled");
  cmd->callback([o] { import_ncu(*o); });
}

}  // namespace roofline

// `roofline profile -- COMMAND [ARGS...]`: every kernel launch of any CUDA program, measured
// without changing the program. The program runs with the injection library loaded
// (CUDA_INJECTION64_PATH); the library writes what it sees to a spool folder that this process
// reads (progress while the program runs, the launches once it has ended), then the launches
// are analysed from their own counters and stored as a run of kind `profile`.
#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <regex>
#include <thread>

#include "analysis/counter_analysis.hpp"
#include "cli/commands.hpp"
#include "cli/device_probe.hpp"
#include "cli/invocation.hpp"
#include "cli/output_paths.hpp"
#include "cli/profile_spool.hpp"
#include "cli/program_search.hpp"
#include "cli/report_files.hpp"
#include "cli/stored_calibration.hpp"
#include "models/error.hpp"
#include "models/gpu_catalog.hpp"
#include "models/metric.hpp"
#include "reports/profile_tables.hpp"
#include "reports/sqlite_store.hpp"

namespace fs = std::filesystem;

namespace roofline {
namespace {

struct ProfileOptions {
  std::vector<std::string> command;
  std::string db = "roofline.db";
  std::string kernel_regex, no_replay, name_base = "function";
  std::int64_t launch_skip = 0, launch_count = -1;
  int device = -1, batch = 64;
  std::vector<std::string> extra_metrics;
  bool counters = true;
  ReportPaths reports;
};

std::atomic<int> g_forward_signal{0};
extern "C" void on_stop_signal(int sig) { g_forward_signal = sig; }

// The library sits in ../lib beside the binary, in the build tree and when installed alike.
fs::path injection_library() {
  if (const char* v = std::getenv("ROOFLINE_INJECT_LIBRARY"); v != nullptr && *v != '\0') return v;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const fs::path lib = exe.parent_path().parent_path() / "lib" / "libroofline_inject.so";
  if (!fs::exists(lib))
    throw Error(fmt::format("the injection library {} is missing: this roofline was built without CUDA, or installed "
                            "without its lib/ folder (cmake --install build --prefix P installs both)",
                            lib.string()));
  return lib;
}

// execvp's search, done first so that a missing command is one line and nothing is stored.
fs::path resolve_command(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    if (!fs::exists(name)) throw InputError(fmt::format("{}: no such file", name));
    if (!is_runnable(name)) throw InputError(fmt::format("{}: not executable", name));
    return name;
  }
  if (auto found = find_on_path(name)) return *found;
  throw InputError(fmt::format("{}: command not found (searched PATH)", name));
}

std::vector<std::string> metrics_for(const ProfileOptions& o) {
  if (!o.counters) return {};
  std::vector<std::string> names;
  for (const auto& m : metric_table())
    if (m.default_measured) names.emplace_back(m.name);
  for (const auto& m : o.extra_metrics)
    if (std::find(names.begin(), names.end(), m) == names.end()) names.push_back(m);
  return names;
}

void set_injection_environment(const ProfileOptions& o, const fs::path& spool, const fs::path& library) {
  std::string metrics;
  for (const auto& m : metrics_for(o)) metrics += (metrics.empty() ? "" : ",") + m;
  ::setenv("CUDA_INJECTION64_PATH", library.c_str(), 1);
  ::setenv("ROOFLINE_INJECT_SPOOL", spool.c_str(), 1);
  ::setenv("ROOFLINE_INJECT_METRICS", metrics.c_str(), 1);
  ::setenv("ROOFLINE_INJECT_KERNEL_REGEX", o.kernel_regex.c_str(), 1);
  ::setenv("ROOFLINE_INJECT_NO_REPLAY", o.no_replay.c_str(), 1);
  ::setenv("ROOFLINE_INJECT_NAME_BASE", o.name_base.c_str(), 1);
  ::setenv("ROOFLINE_INJECT_LAUNCH_SKIP", std::to_string(o.launch_skip).c_str(), 1);
  ::setenv("ROOFLINE_INJECT_LAUNCH_COUNT", std::to_string(o.launch_count).c_str(), 1);
  ::setenv("ROOFLINE_INJECT_DEVICE", std::to_string(o.device).c_str(), 1);
  ::setenv("ROOFLINE_INJECT_BATCH", std::to_string(o.batch).c_str(), 1);
}

void print_progress(const std::vector<ProfiledLaunch>& arrived, std::int64_t& profiled) {
  for (const auto& l : arrived) {
    const std::string what = l.counter_status == CounterStatus::collected
                                 ? fmt::format("counters in {} passes", l.passes)
                                 : l.counter_note;
    if (l.id.demangled.empty())  // a whole graph's launch, none of whose kernels was replayed
      fmt::print(stderr, "roofline: [{}] a CUDA graph's launch: {}\n", ++profiled, what);
    else
      // The grid alone: the cluster shape comes with the launch's Activity record, after its counters.
      fmt::print(stderr, "roofline: [{}] {} ({} blocks of {}): {}\n", ++profiled, kernel_display_name(l.id.demangled),
                 dim3_text(l.id.grid), l.id.block.count(), what);
  }
}

// Runs the program to its end, printing a line per profiled launch; returns its exit status
// (128 + the signal when a signal ended it).
int run_program(const ProfileOptions& o, const fs::path& program, SpoolReader& spool) {
  const pid_t child = ::fork();
  if (child < 0) throw Error("fork failed: cannot start the program");
  if (child == 0) {
    std::vector<char*> argv;
    for (const auto& a : o.command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(program.c_str(), argv.data());
    std::fprintf(stderr, "roofline: error: cannot run %s\n", program.c_str());
    ::_exit(127);
  }
  // Ctrl-C reaches the program too (same process group); SIGTERM is passed on. Either way the
  // launches recorded so far are stored.
  struct sigaction act {};
  act.sa_handler = on_stop_signal;
  struct sigaction old_int {}, old_term {};
  ::sigaction(SIGINT, &act, &old_int);
  ::sigaction(SIGTERM, &act, &old_term);
  std::int64_t profiled = 0;
  int status = 0;
  while (::waitpid(child, &status, WNOHANG) == 0) {
    if (const int sig = g_forward_signal.exchange(0); sig == SIGTERM) ::kill(child, SIGTERM);
    print_progress(spool.poll(), profiled);
    // Short: the wait after the program's end is part of what the user sees as profiling overhead.
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGTERM, &old_term, nullptr);
  print_progress(spool.poll(), profiled);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Removes the spool folder on every way out, except when the launches could not be stored.
struct SpoolFolder {
  fs::path path;
  bool keep = false;
  SpoolFolder() {
    std::string tmpl = (fs::temp_directory_path() / "roofline-profile-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw Error("cannot create a spool folder in " + fs::temp_directory_path().string());
    path = tmpl;
  }
  ~SpoolFolder() {
    std::error_code ec;
    if (!keep) fs::remove_all(path, ec);
  }
};

// launch__registers_per_thread: the registers the launch was given (Activity API), as ncu reports it.
void add_launch_metrics(const ProfileOptions& o, std::vector<ProfiledLaunch>& launches) {
  const auto names = metrics_for(o);
  const bool registers = std::find(names.begin(), names.end(), metric::registers) != names.end();
  for (auto& l : launches)
    if (registers && l.counter_status == CounterStatus::collected && l.id.registers_per_thread > 0)
      l.counters.push_back({std::string(metric::registers), static_cast<double>(l.id.registers_per_thread)});
}

struct ProfiledDevice {
  DeviceInfo info;
  GpuSpec model;  // with the device's own values; for a GPU the catalog does not know, the nearest model's
};

ProfiledDevice profiled_device(const ProfileOptions& o) {
  DeviceProbe probe = probe_devices();
  if (probe.devices.empty()) throw Error("no GPU: " + probe.why_none);
  const int index = o.device >= 0 ? o.device : 0;
  if (index >= static_cast<int>(probe.devices.size()))
    throw InputError(fmt::format("--device {}: this machine has {} GPU(s)", index, probe.devices.size()));
  const auto i = static_cast<std::size_t>(index);
  if (probe.devices[i].model_id.empty()) fmt::print(stderr, "roofline: warning: {}\n", probe.models[i].notes);
  return {std::move(probe.devices[i]), std::move(probe.models[i])};
}

int profile(const ProfileOptions& o) {
  std::vector<OutputFile> outputs = report_outputs(o.reports);
  outputs.push_back({"--db", o.db});
  check_output_files(outputs);
  const fs::path program = resolve_command(o.command.front());
  const fs::path library = injection_library();
  const ProfiledDevice device = profiled_device(o);
  SpoolFolder folder;
  set_injection_environment(o, folder.path, library);
  SpoolReader spool(folder.path);
  const int exit_code = run_program(o, program, spool);
  spool.poll();
  if (o.counters) spool.note_missing_counters();  // --no-counters: none were missed
  std::vector<ProfiledLaunch> launches = spool.launches();
  add_launch_metrics(o, launches);
  for (const auto& p : spool.processes())
    for (const auto& e : p.errors) fmt::print(stderr, "roofline: warning: process {}: {}\n", p.pid, e);

  folder.keep = true;  // until stored
  SqliteStore store(o.db);
  const CalibratedGpu calibrated = with_stored_calibration(device.model, store, device.info.uuid);
  Run run = new_run_of(RunKind::profile, Timing::kernel, calibrated);
  run.device = device.info;
  run.cache_setting = "cold";
  run.clock_setting = "as found (roofline never changes clocks)";
  run.working_directory = fs::current_path().string();
  run.exit_code = exit_code;
  std::int64_t run_id = 0;
  try {
    run_id = store.begin_run(run, calibrated.gpu);
    for (auto& l : launches) store.record_profiled_launch(run_id, {l, analyse_counters(l, calibrated.gpu)});
    store.finish_run(run_id, exit_code == 0 ? RunStatus::complete : RunStatus::partial, exit_code);
  } catch (const std::exception& e) {
    throw Error(fmt::format("{} (the recorded launches are kept in {})", e.what(), folder.path.string()));
  }
  folder.keep = false;

  std::int64_t with_counters = 0;
  for (const auto& l : launches) with_counters += l.counter_status == CounterStatus::collected;
  const RunRecord stored = store.load_run(run_id);
  print_report_table(profile_kernels_table(stored), std::cout);
  const std::string written = write_reports(stored, o.reports);
  if (!written.empty()) fmt::print("{}", written);
  fmt::print("roofline: run {} in {}: {} kernel launches recorded, {} with counters, {} process(es); the program "
             "exited with {}\n",
             run_id, o.db, launches.size(), with_counters, spool.processes().size(), exit_code);
  for (const auto& l : launches)
    if (l.counter_status == CounterStatus::timing_only && l.counter_note.find("fix:") != std::string::npos) {
      fmt::print(stderr, "roofline: timing only: {}\n", l.counter_note);  // no permission, another profiler, ...
      break;
    }
  if (!o.kernel_regex.empty() && spool.selected() == 0)
    fmt::print(stderr, "roofline: --kernel-name '{}' matched no launch ({} kernel names)\n", o.kernel_regex, o.name_base);
  return exit_code;
}

// A CLI11 validator: "" for a valid ECMAScript regular expression, else why not.
std::string is_regex(const std::string& s) {
  try {
    std::regex(s, std::regex::ECMAScript);
    return {};
  } catch (const std::regex_error& e) {
    return fmt::format("not a regular expression ({})", e.what());
  }
}

}  // namespace

void add_profile_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("profile", "Run any CUDA program and measure every kernel it launches");
  auto o = std::make_shared<ProfileOptions>();
  cmd->add_option("command", o->command, "the program and its arguments, after --")->required()->expected(-1);
  cmd->add_option("--db", o->db, "the database the run is stored in")->capture_default_str();
  cmd->add_option("--kernel-name", o->kernel_regex,
                  "collect counters only for launches whose name matches this regular expression (ECMAScript, "
                  "searched anywhere in the name given by --kernel-name-base)")
      ->check(is_regex);
  cmd->add_option("--no-replay", o->no_replay,
                  "never replay launches whose name matches this regular expression (as --kernel-name): their "
                  "durations are recorded without counters. For kernels that wait for other GPUs or processes, "
                  "which a replay would leave waiting for ever (NCCL's are never replayed)")
      ->check(is_regex);
  cmd->add_option("--kernel-name-base", o->name_base,
                  "which name --kernel-name matches: function (no return type, namespaces, templates or "
                  "parameters, as ncu's default), demangled or mangled")
      ->check(CLI::IsMember({"function", "demangled", "mangled"}))
      ->capture_default_str();
  cmd->add_option("--launch-skip", o->launch_skip, "matching launches to skip before collecting counters (per process)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--launch-count", o->launch_count, "matching launches to collect counters for (per process; default all)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--device", o->device, "collect counters only for launches on this CUDA device");
  cmd->add_option("--metrics", o->extra_metrics, "extra metrics to collect, by Nsight Compute name, comma-separated")
      ->delimiter(',');
  cmd->add_flag("--no-counters", [o](std::int64_t) { o->counters = false; },
                "trace only: every launch with its duration, no counters (no replay, little overhead)");
  cmd->add_option("--html", o->reports.html, "also write the run's HTML report here");
  cmd->add_option("--md", o->reports.md, "also write the run's markdown report here (its chart beside it)");
  cmd->add_option("--batch", o->batch, "launches replayed together (each replay pass covers them all)")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  cmd->footer(
      "Every kernel launch of every process the command starts is recorded (name, grid, block,\n"
      "registers, shared memory, stream, context, device) with its duration from the CUPTI Activity\n"
      "API. Counters are collected as `ncu --cache-control all --clock-control none` does: device\n"
      "memory saved before the launch and restored before each replay pass, L2 flushed before each\n"
      "pass. The program's output is untouched; its exit status becomes roofline's. A program that\n"
      "crashes or is stopped leaves a `partial` run with every launch recorded so far.\n"
      "Examples:\n"
      "  roofline profile -- ./my_app --size 4096\n"
      "  roofline profile --kernel-name 'gemm|softmax' --launch-count 5 -- python3 train.py\n"
      "  roofline profile --no-counters -- ./my_app        # durations only\n"
      "  roofline profile --no-replay 'allreduce' -- ./app  # a kernel of its own that waits for other GPUs\n"
      "  roofline profile --html app.html -- ./my_app     # and its report\n"
      "  roofline query \"SELECT * FROM v_profile_kernels WHERE run_id = (SELECT max(id) FROM runs)\"");
  cmd->callback([o] {
    const int code = profile(*o);
    std::cout.flush();
    std::exit(code);
  });
}

}  // namespace roofline

#pragma once
// Run: one invocation of the toolkit whose results are stored together.
#include <cstdint>
#include <optional>
#include <string>

#include "models/launch.hpp"

namespace roofline {

struct DeviceInfo {
  std::string name;
  std::string uuid;
  std::string model_id;  // matched GpuSpec id, empty when unknown
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  double sm_clock_hz = 0.0, memory_clock_hz = 0.0;
  int memory_bus_bits = 0;
  double memory_bytes = 0.0, l2_bytes = 0.0;
  std::string driver_version, runtime_version, cupti_version;
  bool ecc = false;
};

enum class RunStatus { running, complete, partial, failed };
std::string_view to_string(RunStatus s);
RunStatus run_status_from_string(std::string_view s);  // throws InputError for an unknown name

// suite: predicted (and measured) launches of kernels with specs (`run`); profile: every launch
// of a user's program (`profile`); import: an Nsight Compute measurement (`import-ncu`).
enum class RunKind { suite, profile, import };
std::string_view to_string(RunKind k);
RunKind run_kind_from_string(std::string_view s);  // throws InputError for an unknown name

struct Run {
  std::int64_t id = 0;
  RunStatus status = RunStatus::running;
  std::string started_at, finished_at;  // ISO 8601 UTC
  std::string command_line;
  std::string toolkit_version, git_revision;
  std::string gpu_id;  // GPU model predicted for
  std::optional<std::int64_t> calibration_id;  // the calibration run applied to that model, if any
  std::optional<DeviceInfo> device;  // empty when nothing was measured
  std::string cache_setting;   // "cold", "warm", "both"
  // How its durations were timed: a suite run's event (each launch) or loop (chunks of back-to-back
  // launches), a profile's kernel (the Activity API), an import's ncu.
  Timing timing = Timing::event;
  std::string clock_setting;   // "as found" (the toolkit never changes clocks)
  std::string note;

  // Profile and import runs.
  RunKind kind = RunKind::suite;
  std::string working_directory;  // where the profiled command ran
  std::optional<int> exit_code;   // the profiled command's exit status (128 + signal when killed)
};

}  // namespace roofline

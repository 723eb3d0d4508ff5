#include "cli/invocation.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <chrono>

namespace roofline {
namespace {
std::string& stored_command_line() {
  static std::string line;
  return line;
}

std::string shell_quote(std::string_view arg) {
  if (!arg.empty() && arg.find_first_of(" \t'\"*?$&|;<>()\\") == std::string_view::npos) return std::string(arg);
  std::string q = "'";
  for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}
}  // namespace

void set_command_line(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) {
    if (i) line += ' ';
    line += shell_quote(argv[i]);
  }
  stored_command_line() = line;
}

const std::string& command_line() { return stored_command_line(); }

std::string toolkit_version() { return fmt::format("{} (git {})", ROOFLINE_VERSION, ROOFLINE_GIT_REVISION); }

Run new_run_of(RunKind kind, Timing timing, const CalibratedGpu& gpu) {
  Run run;
  run.kind = kind;
  run.timing = timing;
  run.command_line = command_line();
  run.toolkit_version = toolkit_version();
  run.git_revision = ROOFLINE_GIT_REVISION;
  run.gpu_id = gpu.gpu.id;
  if (gpu.calibration) run.calibration_id = gpu.calibration->run_id;
  return run;
}

std::string utc_now_iso8601() {
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::chrono::system_clock::to_time_t(std::chrono::system_clock::now())));
}

}  // namespace roofline

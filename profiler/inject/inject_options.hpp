#pragma once
// What `roofline profile` asks of the injection library, passed through the environment of the
// profiled program (the library has no other way in). See cli/command_profile.cpp.
#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace roofline::inject {

// Which form of a kernel's name --kernel-name matches, as ncu's --kernel-name-base.
enum class NameBase { function, demangled, mangled };

struct InjectOptions {
  std::string spool_dir;             // ROOFLINE_INJECT_SPOOL: one <pid>.jsonl per process
  std::vector<std::string> metrics;  // ROOFLINE_INJECT_METRICS (comma-separated); empty: trace only
  std::optional<std::regex> kernel_regex;  // ROOFLINE_INJECT_KERNEL_REGEX
  std::optional<std::regex> no_replay;     // ROOFLINE_INJECT_NO_REPLAY: launches never replayed
  NameBase name_base = NameBase::function;  // ROOFLINE_INJECT_NAME_BASE
  std::int64_t launch_skip = 0;             // ROOFLINE_INJECT_LAUNCH_SKIP: matching launches skipped first
  std::int64_t launch_count = -1;           // ROOFLINE_INJECT_LAUNCH_COUNT: matching launches profiled (-1: all)
  int device = -1;                          // ROOFLINE_INJECT_DEVICE: only this CUDA ordinal (-1: all)
  int batch = 64;                           // ROOFLINE_INJECT_BATCH: profiled launches replayed together
};

// Reads the environment; throws std::runtime_error with the variable's name on a bad value.
InjectOptions options_from_environment();

// The name --kernel-name is matched against: the function name alone (no return type,
// namespaces, template arguments or parameters), the demangled or the mangled name.
std::string name_for_matching(const std::string& mangled, const std::string& demangled, NameBase base);

}  // namespace roofline::inject

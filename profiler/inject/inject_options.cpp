#include "profiler/inject/inject_options.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "models/profiled_launch.hpp"

namespace roofline::inject {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

std::int64_t env_int(const char* name, std::int64_t fallback) {
  const std::string v = env(name);
  if (v.empty()) return fallback;
  try {
    return std::stoll(v);
  } catch (const std::exception&) {
    throw std::runtime_error(std::string(name) + " is not an integer: '" + v + "'");
  }
}

}  // namespace

InjectOptions options_from_environment() {
  InjectOptions o;
  o.spool_dir = env("ROOFLINE_INJECT_SPOOL");
  const std::string metrics = env("ROOFLINE_INJECT_METRICS");
  for (std::size_t pos = 0; pos < metrics.size();) {
    const std::size_t comma = metrics.find(',', pos);
    const std::string name = metrics.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (!name.empty()) o.metrics.push_back(name);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  const std::string regex = env("ROOFLINE_INJECT_KERNEL_REGEX");
  if (!regex.empty()) o.kernel_regex.emplace(regex, std::regex::ECMAScript | std::regex::optimize);
  const std::string no_replay = env("ROOFLINE_INJECT_NO_REPLAY");
  if (!no_replay.empty()) o.no_replay.emplace(no_replay, std::regex::ECMAScript | std::regex::optimize);
  const std::string base = env("ROOFLINE_INJECT_NAME_BASE");
  if (base == "demangled") o.name_base = NameBase::demangled;
  else if (base == "mangled") o.name_base = NameBase::mangled;
  else if (!base.empty() && base != "function")
    throw std::runtime_error("ROOFLINE_INJECT_NAME_BASE must be function, demangled or mangled, not '" + base + "'");
  o.launch_skip = env_int("ROOFLINE_INJECT_LAUNCH_SKIP", 0);
  o.launch_count = env_int("ROOFLINE_INJECT_LAUNCH_COUNT", -1);
  o.device = static_cast<int>(env_int("ROOFLINE_INJECT_DEVICE", -1));
  o.batch = static_cast<int>(std::max<std::int64_t>(1, env_int("ROOFLINE_INJECT_BATCH", 64)));
  return o;
}

std::string name_for_matching(const std::string& mangled, const std::string& demangled, NameBase base) {
  if (base == NameBase::mangled) return mangled;
  if (base == NameBase::demangled) return demangled;
  return kernel_function_name(demangled);
}

}  // namespace roofline::inject

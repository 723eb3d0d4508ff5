#include "cli/program_search.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace roofline {

bool is_runnable(const std::filesystem::path& p) {
  return ::access(p.c_str(), X_OK) == 0 && !std::filesystem::is_directory(p);
}

std::optional<std::filesystem::path> find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  const std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  for (std::size_t pos = 0; pos <= dirs.size();) {
    const std::size_t colon = std::min(dirs.find(':', pos), dirs.size());
    const std::filesystem::path candidate = std::filesystem::path(dirs.substr(pos, colon - pos)) / name;
    if (is_runnable(candidate)) return candidate;
    pos = colon + 1;
  }
  return std::nullopt;
}

}  // namespace roofline

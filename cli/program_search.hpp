#pragma once
// Finding a program the way execvp does: through the directories of PATH.
#include <filesystem>
#include <optional>
#include <string>

namespace roofline {

// The first executable `name` in PATH's directories (/usr/bin:/bin when PATH is unset).
std::optional<std::filesystem::path> find_on_path(const std::string& name);
bool is_runnable(const std::filesystem::path& p);

}  // namespace roofline

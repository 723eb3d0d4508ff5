#include "cli/output_paths.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>

#include "models/error.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;

fs::file_type type_of(const fs::path& p) {
  std::error_code ec;
  return fs::status(p, ec).type();
}

void check_one(const OutputFile& f) {
  if (f.path.empty()) throw InputError(fmt::format("{}: the path is empty", f.what));
  const fs::path path(f.path);
  const fs::file_type type = type_of(path);
  if (type == fs::file_type::directory)
    throw InputError(fmt::format("{} '{}' is a directory, not a file", f.what, f.path));
  if (type != fs::file_type::not_found && type != fs::file_type::regular)
    throw InputError(fmt::format("{} '{}' is not a regular file", f.what, f.path));
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (type_of(folder) != fs::file_type::directory)
    throw InputError(fmt::format("{} '{}': folder '{}' does not exist", f.what, f.path, folder.string()));
  if (access(folder.c_str(), W_OK | X_OK) != 0)
    throw InputError(fmt::format("{} '{}': folder '{}' cannot be written", f.what, f.path, folder.string()));
  if (type == fs::file_type::regular && access(path.c_str(), W_OK) != 0)
    throw InputError(fmt::format("{} '{}' cannot be written", f.what, f.path));
}

// The file a path names, symbolic links and "dir/../" resolved, for comparing two paths.
fs::path identity(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path), ec);
  return ec ? fs::absolute(path).lexically_normal() : p;
}

}  // namespace

void check_output_files(const std::vector<OutputFile>& written, const std::vector<OutputFile>& read) {
  for (const auto& f : written) check_one(f);
  std::vector<OutputFile> all = written;
  for (const auto& f : read)
    if (!f.path.empty()) all.push_back(f);
  for (std::size_t i = 0; i < written.size(); ++i)
    for (std::size_t j = i + 1; j < all.size(); ++j)  // a handful of files: pairs are fine
      if (identity(all[i].path) == identity(all[j].path))
        throw InputError(fmt::format("{} and {} name the same file '{}'", all[i].what, all[j].what, all[j].path));
}

std::string database_path_problem(const std::string& path) {
  if (path.empty() || path == ":memory:" || path.starts_with("file:"))
    return fmt::format("'{}' is an in-memory database that keeps nothing; give a file path", path);
  const fs::file_type type = type_of(path);
  if (type == fs::file_type::directory) return fmt::format("'{}' is a directory, not a database", path);
  if (type != fs::file_type::not_found && type != fs::file_type::regular)
    return fmt::format("'{}' is not a regular file", path);
  return "";
}

}  // namespace roofline

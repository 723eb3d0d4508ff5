#include "cli/cuobjdump.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <vector>

#include "cli/program_search.hpp"
#include "models/error.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;

std::optional<fs::path> find_cuobjdump() {
  std::vector<fs::path> candidates;
  if (auto nvcc = find_on_path("nvcc")) candidates.push_back(fs::weakly_canonical(*nvcc).parent_path() / "cuobjdump");
  if (auto on_path = find_on_path("cuobjdump")) candidates.push_back(*on_path);
  if (const char* home = std::getenv("CUDA_HOME")) candidates.push_back(fs::path(home) / "bin" / "cuobjdump");
  candidates.emplace_back("/usr/local/cuda/bin/cuobjdump");
  for (const fs::path& c : candidates)
    if (is_runnable(c)) return c;
  return std::nullopt;
}

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The program's standard output; stderr goes to the user's terminal.
std::string output_of(const fs::path& cuobjdump, const std::string& option, const fs::path& binary) {
  const std::string command = shell_quoted(cuobjdump.string()) + " " + option + " " + shell_quoted(binary.string());
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) throw Error(fmt::format("cannot run {}", command));
  std::string text;
  char buffer[1 << 16];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) text.append(buffer, n);
  const int status = ::pclose(pipe);
  if (status != 0)
    throw InputError(
        fmt::format("`cuobjdump {} {}` failed (exit status {}): is it a CUDA program or object with "
                    "device code?",
                    option, binary.string(), WIFEXITED(status) ? WEXITSTATUS(status) : status));
  return text;
}

}  // namespace

std::string cuobjdump_listing(const fs::path& binary) {
  if (!fs::is_regular_file(binary)) throw InputError(fmt::format("{}: no such file", binary.string()));
  const std::optional<fs::path> cuobjdump = find_cuobjdump();
  if (!cuobjdump)
    throw InputError(fmt::format(
        "cuobjdump not found (looked next to nvcc, on PATH, in $CUDA_HOME/bin and /usr/local/cuda/bin; a minimal "
        "toolkit has none): on a machine with the full CUDA toolkit run `cuobjdump -sass {0} > k.sass; cuobjdump "
        "-res-usage {0} >> k.sass` and use `roofline spec --from-sass k.sass`",
        binary.filename().string()));
  return output_of(*cuobjdump, "-sass", binary) + output_of(*cuobjdump, "-res-usage", binary);
}

}  // namespace roofline

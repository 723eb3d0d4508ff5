#pragma once
// The roofline executable run as a user runs it, for the CLI tests: its exit code, stdout and
// stderr, and the check that a refusal is one clear line.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace roofline::test {

struct Result {
  int exit_code = -1;
  std::string out, err;
};

// Runs roofline with arguments (already shell-quoted) in a fresh directory and captures stdout
// and stderr.
inline Result run(const std::string& args) {
  // ctest runs tests in parallel: each run gets its own directory.
  std::string pattern = (std::filesystem::temp_directory_path() / "roofline-cli-XXXXXX").string();
  const std::filesystem::path dir = mkdtemp(pattern.data());
  const auto out_path = dir / "out.txt", err_path = dir / "err.txt";
  const std::string cmd = std::string("cd ") + dir.string() + " && " ROOFLINE_BINARY_DIR "/cli/roofline " + args +
                          " >" + out_path.string() + " 2>" + err_path.string();
  const int status = std::system(cmd.c_str());
  auto slurp = [](const std::filesystem::path& p) {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  Result r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out_path), slurp(err_path)};
  std::filesystem::remove_all(dir);
  return r;
}

inline int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

// A non-zero exit, no stdout, and one stderr line "roofline: error: …" holding needle.
inline void expect_clear_error(const Result& r, const std::string& needle) {
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(r.out.empty()) << "partial output: " << r.out;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("roofline: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

}  // namespace roofline::test

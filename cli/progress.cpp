#include "cli/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace roofline {

Progress::Progress(int total)
    : total_(total), enabled_(isatty(STDERR_FILENO) != 0), start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() { done(); }

void Progress::step(const std::string& label) {
  ++current_;
  if (!enabled_) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const int width = static_cast<int>(std::to_string(total_).size());
  fmt::print(stderr, "\r\033[K[{:>{}}/{}] {:.0f} s  {}", current_, width, total_, elapsed, label);
  std::fflush(stderr);
}

void Progress::done() {
  if (!enabled_ || current_ == 0) return;
  fmt::print(stderr, "\r\033[K");
  std::fflush(stderr);
  current_ = 0;
}

}  // namespace roofline

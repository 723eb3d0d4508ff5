#pragma once
// ROOFLINE_TRACE=1: wall-clock laps of the measurement's steps on stderr, to see where the time
// of `roofline measure` goes, and, in a program under `roofline profile`, where its batches'
// saves and replays go (or stop). Costs one getenv per process when off.
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace roofline::detail {

inline bool trace_enabled() {
  static const bool on = [] {
    const char* v = std::getenv("ROOFLINE_TRACE");
    return v != nullptr && *v != '\0' && *v != '0';
  }();
  return on;
}

// Prints "[trace] <scope> <step> <ms>" per lap() when tracing is on.
class TraceLaps {
 public:
  explicit TraceLaps(const char* scope) : scope_(scope), last_(std::chrono::steady_clock::now()), first_(last_) {}
  void lap(const char* step) {
    if (!trace_enabled()) return;
    const auto now = std::chrono::steady_clock::now();
    std::fprintf(stderr, "[trace] %s %s %.3f ms\n", scope_, step,
                 std::chrono::duration<double, std::milli>(now - last_).count());
    last_ = now;
  }
  void total(const char* step = "total") {
    if (!trace_enabled()) return;
    std::fprintf(stderr, "[trace] %s %s %.3f ms\n", scope_, step,
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - first_).count());
  }

 private:
  const char* scope_;
  std::chrono::steady_clock::time_point last_, first_;
};

}  // namespace roofline::detail

#pragma once
// Statistics over repeated launch times (pure; no CUDA).
#include <span>

#include "models/measurement.hpp"

namespace roofline {

struct TimerOptions {
  int warmup = 3;                // untimed launches first (and after a failed convergence check)
  int min_repetitions = 10;      // timed launches before the spread is looked at
  int max_repetitions = 2000;    // hard stop
  double target_spread = 0.02;   // stop once (p90 - p10) / median is below this
  double budget_s = 0.5;         // wall-clock budget per launch configuration (timing only)
  bool back_to_back = false;     // time chunks of back-to-back launches (a loop's time per launch), warm only
};

// Median, min, max, (p90 - p10) / median and count of the times (seconds).
TimingStats summarize_times(std::span<const double> seconds);

// True when enough repetitions were taken: spread below target after min_repetitions, or the
// count or the budget ran out.
bool timing_done(const TimingStats& stats, const TimerOptions& options, double elapsed_s);

}  // namespace roofline

#pragma once
// A profiled program's kernels, one row per kernel name: how often it ran, how much of the
// program's GPU time it took, what limited it, and how much time it lost against its speed of
// light. Sorted by time lost: the first row is where the program's GPU time goes to waste.
#include <string>
#include <vector>

#include "analysis/counter_analysis.hpp"
#include "models/profiled_launch.hpp"

namespace roofline {

struct KernelProfileSummary {
  std::string kernel;  // demangled name
  int launches = 0;
  double total_s = 0.0;  // sum of the launches' durations
  double share = 0.0;    // total_s over every launch's duration in the run
  std::string limiter;   // the limiter of most of the kernel's time ("" when no launch had counters)
  double sol_s = 0.0, lost_s = 0.0;  // summed over the launches that had counters
};

struct ProfiledLaunchView {
  const ProfiledLaunch* launch;
  const CounterAnalysis* analysis;
};

std::vector<KernelProfileSummary> summarise_by_kernel(const std::vector<ProfiledLaunchView>& launches);

}  // namespace roofline

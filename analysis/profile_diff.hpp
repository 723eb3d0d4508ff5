#pragma once
// Two runs of a profiled program, kernel by kernel (`roofline compare A B` on profile or import
// runs): a regression check for an application. Kernels are matched by demangled name; the
// change is the mean duration's, and counts only when it is larger than the spread of the
// kernel's own launches in either run (at least kMinNoise).
#include <string>
#include <vector>

#include "analysis/profile_summary.hpp"
#include "analysis/run_diff.hpp"

namespace roofline {

inline constexpr double kMinNoise = 0.02;

struct KernelDiff {
  std::string kernel;
  int launches_a = 0, launches_b = 0;
  double mean_a = 0.0, mean_b = 0.0;  // seconds per launch
  double relative_change = 0.0;        // (b - a) / a
  double noise = 0.0;                  // the larger relative spread (p90 - p10) / median of the two
  Change change = Change::same;
  std::string limiter_a, limiter_b;
};

// Kernels present in both runs, in run A's order of first appearance.
std::vector<KernelDiff> diff_profiled(const std::vector<ProfiledLaunchView>& a, const std::vector<ProfiledLaunchView>& b);

// A kernel one run launched and the other did not (a library that chose another kernel, code
// that changed), with its launches and their total time.
struct KernelPresence {
  std::string kernel;
  int launches = 0;
  double total_s = 0.0;
};

// Kernels of `a` that `b` never launched, in a's order of first appearance.
std::vector<KernelPresence> kernels_missing_from(const std::vector<ProfiledLaunchView>& a,
                                                 const std::vector<ProfiledLaunchView>& b);

}  // namespace roofline

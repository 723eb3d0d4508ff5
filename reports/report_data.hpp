#pragma once
// The plain records a report is rendered from: one run, the ceilings it used, its launches.
#include <optional>
#include <string>
#include <vector>

#include "analysis/comparison.hpp"
#include "analysis/counter_analysis.hpp"
#include "models/gpu_spec.hpp"
#include "models/measurement.hpp"
#include "models/prediction.hpp"
#include "models/profiled_launch.hpp"
#include "models/run.hpp"

namespace roofline {

struct LaunchRecord {
  std::string kernel_category;  // suite the kernel belongs to
  Prediction prediction;
  std::optional<Measurement> measurement;  // empty when nothing was measured
  std::optional<Comparison> comparison;    // present when both sides exist
};

// One launch of a profiled program (`profile`, `import-ncu`) and what its counters say.
struct ProfiledLaunchRecord {
  ProfiledLaunch launch;
  CounterAnalysis analysis;
};

struct RunRecord {
  Run run;
  GpuSpec gpu;  // the ceilings the predictions used (profile runs: the device's), each with its source
  std::vector<LaunchRecord> launches;           // suite runs
  std::vector<ProfiledLaunchRecord> profiled;   // profile and import runs, in launch order
};

}  // namespace roofline

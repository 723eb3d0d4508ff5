#pragma once
// The plain records a report is rendered from: one run, the ceilings it used, its launches.
#include <optional>
#include <string>
#include <vector>

#include "analysis/comparison.hpp"
#include "models/gpu_spec.hpp"
#include "models/measurement.hpp"
#include "models/prediction.hpp"
#include "models/run.hpp"

namespace roofline {

struct LaunchRecord {
  std::string kernel_category;  // suite the kernel belongs to
  Prediction prediction;
  std::optional<Measurement> measurement;  // empty when nothing was measured
  std::optional<Comparison> comparison;    // present when both sides exist
};

struct RunRecord {
  Run run;
  GpuSpec gpu;  // the ceilings the predictions used, each with its source
  std::vector<LaunchRecord> launches;
};

}  // namespace roofline

#pragma once
// Every parameter of a GPU model with its value, unit, source and note: `roofline gpus ID` and the
// ceilings that `roofline predict --details` used.
#include "models/gpu_spec.hpp"
#include "reports/text_table.hpp"

namespace roofline {

// One row per gpu_params() entry: parameter, value, unit, source, note (the parameter's
// description when the value has no note).
TextTable gpu_params_table(const GpuSpec& g);

}  // namespace roofline

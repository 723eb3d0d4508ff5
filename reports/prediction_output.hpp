#pragma once
// Printing predictions: `roofline predict`'s table, CSV and JSON.
#include <ostream>
#include <vector>

#include "models/gpu_spec.hpp"
#include "models/prediction.hpp"
#include "reports/output_format.hpp"
#include "reports/text_table.hpp"

namespace roofline {

// gpu: the model the predictions used. table: one line per launch with every bound's time; with
// `details`, each launch's bound explanations, predicted counters and notes follow, then every
// ceiling of gpu with its value, source and note. csv: one row per launch, every bound and counter
// a column. json: {"gpu": the model with every ceiling, unit, source and note, "predictions":
// full-precision prediction objects}.
void print_predictions(const std::vector<Prediction>& predictions, const GpuSpec& gpu, OutputFormat format,
                       bool details, std::ostream& out);

// Each bound's time ("unknown" where the spec leaves it so) and how it was worked out: the table
// `--details` prints for a launch.
TextTable bounds_table(const std::vector<BoundTime>& bounds);

}  // namespace roofline

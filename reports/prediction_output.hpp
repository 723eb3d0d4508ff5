#pragma once
// Printing predictions: `roofline predict`'s table, CSV and JSON.
#include <ostream>
#include <vector>

#include "models/prediction.hpp"
#include "reports/output_format.hpp"

namespace roofline {

// table: one line per launch with every bound's time; with `details`, each launch's bound
// explanations, predicted counters and notes follow. csv: one row per launch, every bound and
// counter a column. json: an array of full-precision prediction objects.
void print_predictions(const std::vector<Prediction>& predictions, OutputFormat format, bool details,
                       std::ostream& out);

}  // namespace roofline

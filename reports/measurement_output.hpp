#pragma once
// Printing measurements: `roofline measure`'s table, CSV and JSON.
#include <ostream>
#include <vector>

#include "models/measurement.hpp"
#include "reports/output_format.hpp"

namespace roofline {

// table: one line per launch (time, spread, bandwidth, % of copy, verification); with
// `details`, each launch's counters follow. csv: every counter a column. json: full records.
void print_measurements(const std::vector<Measurement>& measurements, OutputFormat format, bool details,
                        std::ostream& out);

}  // namespace roofline

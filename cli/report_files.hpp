#pragma once
// Writing a stored run's reports to files (`run` and `report` both do), and printing its
// launch table on the terminal.
#include <ostream>
#include <string>

#include "reports/report_data.hpp"

namespace roofline {

struct ReportPaths {
  std::string html;  // empty: none
  std::string md;    // empty: none; the chart goes beside it as <md without .md>.svg
  std::string json;
  std::string csv;
};

// Writes each requested file completely or not at all (temporary file, then rename); returns
// the paths written, one per line, for the user.
std::string write_reports(const RunRecord& run, const ReportPaths& paths);

// The per-launch table (time predicted vs measured, bound vs limiter) as aligned text.
void print_launch_summary(const RunRecord& run, std::ostream& out);

}  // namespace roofline

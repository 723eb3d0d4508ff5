#pragma once
// Writing a stored run's reports to files (`run` and `report` both do), and printing its
// launch table on the terminal.
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/output_paths.hpp"
#include "reports/report_data.hpp"
#include "reports/report_tables.hpp"

namespace roofline {

struct ReportPaths {
  std::string html;  // empty: none
  std::string md;    // empty: none; the chart goes beside it as <md without .md>.svg
  std::string json;
  std::string csv;
};

// Every file write_reports would write, the markdown's chart included, named for messages;
// check_output_files(report_outputs(paths)) before any work starts.
std::vector<OutputFile> report_outputs(const ReportPaths& paths);

// Writes `path` completely or not at all: render() fills a temporary file of this process
// beside it, renamed onto `path` at the end; on any way out before (an error, an interrupt)
// the temporary file is removed and `path` is left as it was.
void write_whole_file(const std::string& path, const std::function<void(std::ostream&)>& render);

// Writes each requested file completely or not at all (a temporary file of this process,
// then rename; the temporary file is removed on every way out, an interrupt included);
// returns the paths written, one per line, for the user.
std::string write_reports(const RunRecord& run, const ReportPaths& paths);

// A report table as aligned text.
void print_report_table(const ReportTable& table, std::ostream& out);
// A run as aligned text: a suite run's per-launch table (time predicted vs measured, bound vs
// limiter) and its summary line; a profile or import run's kernels by time lost.
void print_launch_summary(const RunRecord& run, std::ostream& out);

}  // namespace roofline

#pragma once
// The tables of a profile (or import) run's report: the program's kernels sorted by the time
// they lost against their speed of light (first), every launch with its limiter and how busy
// each unit was, and each kernel's counters over its launches. HTML and markdown render the same tables.
#include <map>
#include <string>
#include <vector>

#include "reports/report_data.hpp"
#include "reports/report_tables.hpp"

namespace roofline {

// Every kernel of the run (by demangled name) under a short name of its own
// (distinct_display_names), the same in every table of the run.
std::map<std::string, std::string> kernel_display_names(const RunRecord& r);

ReportTable profile_kernels_table(const RunRecord& r);   // one row per kernel name, by time lost
ReportTable profile_launches_table(const RunRecord& r);  // one row per launch
ReportTable profile_counters_table(const RunRecord& r);  // one row per kernel x counter
std::vector<ReportTable> profile_tables(const RunRecord& r);

}  // namespace roofline

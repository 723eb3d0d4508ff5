#pragma once
// CSV and JSON exports of one run, for scripts.
#include <iosfwd>

#include "reports/report_data.hpp"

namespace roofline {

// Long format, one row per launch x metric (the shape of v_compare):
// run,launch,kernel,category,n,dtype,block,cache,bound,limiter,metric,unit,predicted,measured,ratio,rel_error
// Empty fields where a side has no value. Numbers round-trip exactly.
void write_run_csv(const RunRecord& run, std::ostream& out);
// The whole run (facts, every ceiling with its source, every launch's prediction with all
// bounds and passes, measurement, comparison and diagnostics), pretty-printed.
void write_run_json(const RunRecord& run, std::ostream& out);

}  // namespace roofline

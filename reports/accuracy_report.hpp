#pragma once
// docs/accuracy.md: every launch's predicted against measured time and counters, and the
// accuracy against the targets (docs/accuracy.md), in GitHub markdown.
#include <ostream>
#include <string_view>

#include "analysis/accuracy_summary.hpp"
#include "analysis/run_summary.hpp"
#include "reports/report_data.hpp"

namespace roofline {

// `command` is printed at the top as the one that regenerates the file. The targets table is
// the one the run reports show (reports/report_tables.hpp accuracy_table).
void render_accuracy_markdown(const RunRecord& run, const RunSummary& summary, std::string_view command,
                              std::ostream& out, const AccuracyTargets& targets = {});

}  // namespace roofline

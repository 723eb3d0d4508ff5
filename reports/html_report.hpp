#pragma once
// The HTML report of one run: a single self-contained file (inline CSS and SVG, no script,
// nothing fetched from the network) with the run and device facts, the ceilings and their
// sources, the accuracy summary and, when something was measured, the accuracy against the
// targets, the hierarchical roofline, the bound breakdown, the
// predicted-vs-measured tables with large errors highlighted, and the diagnostics.
#include <iosfwd>

#include "reports/report_data.hpp"

namespace roofline {

void render_html_report(const RunRecord& run, std::ostream& out);

}  // namespace roofline

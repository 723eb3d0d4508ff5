#pragma once
// One ReportTable as GitHub markdown: "## title", the caption, then the table (or the table's
// empty text). Shared by the run's markdown report and docs/accuracy.md.
#include <iosfwd>

#include "reports/report_tables.hpp"

namespace roofline {

void render_markdown_table(const ReportTable& t, std::ostream& out);

}  // namespace roofline

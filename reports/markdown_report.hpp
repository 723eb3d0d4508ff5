#pragma once
// The markdown (GitHub-flavoured) report of one run: the same tables as the HTML report, with
// the roofline chart referenced as an image. Write the chart beside it with
// render_roofline_svg; chart_path is the link the markdown uses (relative to the .md file),
// empty for no chart.
#include <iosfwd>
#include <string_view>

#include "reports/report_data.hpp"

namespace roofline {

void render_markdown_report(const RunRecord& run, std::ostream& out, std::string_view chart_path);

}  // namespace roofline

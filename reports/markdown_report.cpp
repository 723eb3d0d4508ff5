#include "reports/markdown_report.hpp"

#include <ostream>

#include "reports/format.hpp"
#include "reports/markdown_table.hpp"
#include "reports/report_tables.hpp"

namespace roofline {

void render_markdown_report(const RunRecord& run, std::ostream& out, std::string_view chart_path) {
  out << "# " << markdown_escape(report_title(run)) << "\n\n";
  for (const auto& banner : report_banners(run)) out << "> " << markdown_escape(banner) << "\n\n";
  const auto tables = report_tables(run);
  const std::string_view anchor = chart_anchor(tables);
  for (const auto& t : tables) {
    render_markdown_table(t, out);
    if (t.id == anchor && !chart_path.empty()) {
      out << "## Roofline\n\n"
          << markdown_escape(chart_caption(run))
          << "\n\n![Hierarchical roofline](" << chart_path << ")\n\n";
    }
  }
}

}  // namespace roofline

#include "cli/report_files.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "models/error.hpp"
#include "reports/html_report.hpp"
#include "reports/markdown_report.hpp"
#include "reports/report_tables.hpp"
#include "reports/roofline_svg.hpp"
#include "reports/run_export.hpp"
#include "reports/text_table.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;

// Renders into a temporary file beside the target and renames it: no half-written report.
void write_file(const fs::path& path, const std::function<void(std::ostream&)>& render) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw Error(fmt::format("cannot write '{}'", path.string()));
    render(out);
    out.flush();
    if (!out) throw Error(fmt::format("writing '{}' failed", path.string()));
  }
  fs::rename(tmp, path);
}

}  // namespace

std::string write_reports(const RunRecord& run, const ReportPaths& paths) {
  std::string written;
  if (!paths.html.empty()) {
    write_file(paths.html, [&](std::ostream& o) { render_html_report(run, o); });
    written += fmt::format("  HTML report:     {}\n", paths.html);
  }
  if (!paths.md.empty()) {
    fs::path svg = paths.md;
    svg.replace_extension(".svg");
    write_file(svg, [&](std::ostream& o) { render_roofline_svg(run, o); });
    write_file(paths.md, [&](std::ostream& o) { render_markdown_report(run, o, svg.filename().string()); });
    written += fmt::format("  markdown report: {} (chart {})\n", paths.md, svg.string());
  }
  if (!paths.json.empty()) {
    write_file(paths.json, [&](std::ostream& o) { write_run_json(run, o); });
    written += fmt::format("  JSON:            {}\n", paths.json);
  }
  if (!paths.csv.empty()) {
    write_file(paths.csv, [&](std::ostream& o) { write_run_csv(run, o); });
    written += fmt::format("  CSV:             {}\n", paths.csv);
  }
  return written;
}

void print_launch_summary(const RunRecord& run, std::ostream& out) {
  const ReportTable table = launches_table(run);
  TextTable t;
  for (std::size_t c = 0; c < table.header.size(); ++c)
    t.add_column(table.header[c], !table.rows.empty() && table.rows[0][c].numeric ? Align::right : Align::left);
  for (const auto& row : table.rows) {
    std::vector<std::string> cells;
    for (const auto& cell : row) cells.push_back(cell.text);
    t.add_row(std::move(cells));
  }
  t.print_text(out);
  out << summary_line(run_summary(run)) << '\n';
}

}  // namespace roofline

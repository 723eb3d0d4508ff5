#include "reports/markdown_table.hpp"

#include <ostream>

#include "reports/format.hpp"

namespace roofline {
namespace {

std::string md_cell(const ReportCell& c) {
  const std::string s = markdown_escape(c.text);
  if (s.empty()) return s;
  if (c.emphasis == Emphasis::bad || c.highlight) return "**" + s + "**";
  if (c.emphasis == Emphasis::warn) return "*" + s + "*";
  return s;
}

}  // namespace

void render_markdown_table(const ReportTable& t, std::ostream& out) {
  out << "## " << markdown_escape(t.title) << "\n\n";
  if (!t.caption.empty()) out << markdown_escape(t.caption) << "\n\n";
  if (t.rows.empty()) {
    out << markdown_escape(t.empty_text) << "\n\n";
    return;
  }
  out << '|';
  for (const auto& h : t.header) out << ' ' << markdown_escape(h) << " |";
  out << "\n|";
  // Alignment from the first row: numbers to the right.
  for (std::size_t i = 0; i < t.header.size(); ++i)
    out << (i < t.rows.front().size() && t.rows.front()[i].numeric ? " ---: |" : " --- |");
  out << '\n';
  for (const auto& row : t.rows) {
    out << '|';
    for (const auto& c : row) out << ' ' << md_cell(c) << " |";
    out << '\n';
  }
  out << '\n';
}

}  // namespace roofline

#include "reports/text_table.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "models/error.hpp"
#include "reports/format.hpp"

namespace roofline {
namespace {
// Display width: count UTF-8 code points, not bytes, so "µs" aligns.
std::size_t display_width(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}
}  // namespace

void TextTable::add_column(std::string title, Align align) { columns_.push_back({std::move(title), align}); }

void TextTable::add_row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size()) throw Error("internal: table row has the wrong number of cells");
  rows_.push_back(std::move(cells));
}

void TextTable::print_text(std::ostream& out) const {
  // The terminal sees control characters escaped: names may come from a spec file or a database.
  std::vector<std::string> titles;
  for (const auto& col : columns_) titles.push_back(escape_control_characters(col.title));
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : rows_) {
    rows.emplace_back();
    for (const auto& cell : r) rows.back().push_back(escape_control_characters(cell));
  }
  std::vector<std::size_t> width(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    width[c] = display_width(titles[c]);
    for (const auto& r : rows) width[c] = std::max(width[c], display_width(r[c]));
  }
  auto line = [&](auto cell_of) {
    std::string s;
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      const std::string cell = cell_of(c);
      const std::string pad(width[c] - display_width(cell), ' ');
      if (c) s += "  ";
      s += columns_[c].align == Align::right ? pad + cell : cell + pad;
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    out << s << '\n';
  };
  line([&](std::size_t c) { return titles[c]; });
  line([&](std::size_t c) { return std::string(width[c], '-'); });
  for (const auto& r : rows) line([&](std::size_t c) { return r[c]; });
}

void TextTable::print(std::ostream& out, OutputFormat format) const {
  switch (format) {
    case OutputFormat::csv: return print_csv(out);
    case OutputFormat::markdown: return print_markdown(out);
    case OutputFormat::table: return print_text(out);
    case OutputFormat::json: return print_json(out);
  }
}

void TextTable::print_json(std::ostream& out) const {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& r : rows_) {
    nlohmann::ordered_json row = nlohmann::ordered_json::object();
    for (std::size_t c = 0; c < columns_.size(); ++c) row[columns_[c].title] = r[c];
    rows.push_back(std::move(row));
  }
  out << rows.dump(2) << '\n';
}

void TextTable::print_csv(std::ostream& out) const {
  auto line = [&](auto cell_of) {
    for (std::size_t c = 0; c < columns_.size(); ++c) out << (c ? "," : "") << csv_field(cell_of(c));
    out << '\n';
  };
  line([&](std::size_t c) { return columns_[c].title; });
  for (const auto& r : rows_) line([&](std::size_t c) { return r[c]; });
}

void TextTable::print_markdown(std::ostream& out) const {
  auto line = [&](auto cell_of) {
    out << '|';
    for (std::size_t c = 0; c < columns_.size(); ++c) out << ' ' << markdown_escape(cell_of(c)) << " |";
    out << '\n';
  };
  line([&](std::size_t c) { return columns_[c].title; });
  out << '|';
  for (const auto& col : columns_) out << (col.align == Align::right ? "---:|" : "---|");
  out << '\n';
  for (const auto& r : rows_) line([&](std::size_t c) { return r[c]; });
}

}  // namespace roofline

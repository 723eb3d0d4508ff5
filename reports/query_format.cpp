#include "reports/query_format.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "reports/format.hpp"
#include "reports/text_table.hpp"

namespace roofline {
namespace {

bool is_number(const QueryValue& v) {
  return std::holds_alternative<std::int64_t>(v) || std::holds_alternative<double>(v);
}

// Cell text: exact for csv, short for a terminal; one line.
std::string cell_text(const QueryValue& v, bool exact) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) return exact ? format_exact(*d) : format_number(*d, 6);
  if (const auto* s = std::get_if<std::string>(&v)) {
    if (exact) return *s;
    std::string one_line = *s;
    std::replace(one_line.begin(), one_line.end(), '\n', ' ');
    return one_line;
  }
  return "";
}

TextTable to_table(const QueryResult& r, bool exact) {
  TextTable t;
  for (std::size_t c = 0; c < r.columns.size(); ++c) {
    // A column is numeric when every non-NULL cell is a number.
    const bool numeric = std::all_of(r.rows.begin(), r.rows.end(), [&](const std::vector<QueryValue>& row) {
      return c >= row.size() || std::holds_alternative<std::monostate>(row[c]) || is_number(row[c]);
    });
    t.add_column(r.columns[c], numeric ? Align::right : Align::left);
  }
  for (const auto& row : r.rows) {
    std::vector<std::string> cells(r.columns.size());
    for (std::size_t c = 0; c < cells.size() && c < row.size(); ++c) cells[c] = cell_text(row[c], exact);
    t.add_row(std::move(cells));
  }
  return t;
}

void print_json(const QueryResult& r, std::ostream& out) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : r.rows) {
    nlohmann::json o = nlohmann::json::object();
    for (std::size_t c = 0; c < row.size() && c < r.columns.size(); ++c) {
      nlohmann::json& v = o[r.columns[c]];
      if (const auto* i = std::get_if<std::int64_t>(&row[c]))
        v = *i;
      else if (const auto* d = std::get_if<double>(&row[c]))
        v = std::isfinite(*d) ? nlohmann::json(*d) : nlohmann::json(nullptr);
      else if (const auto* s = std::get_if<std::string>(&row[c]))
        v = *s;
      else
        v = nullptr;
    }
    rows.push_back(std::move(o));
  }
  // Replace invalid UTF-8 rather than throw: a BLOB or a broken name must still print.
  out << rows.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace

void print_query_result(const QueryResult& result, OutputFormat format, std::ostream& out) {
  switch (format) {
    case OutputFormat::table:
      to_table(result, false).print_text(out);
      out << '(' << result.rows.size() << (result.rows.size() == 1 ? " row)\n" : " rows)\n");
      break;
    case OutputFormat::csv: to_table(result, true).print_csv(out); break;
    case OutputFormat::markdown: to_table(result, false).print_markdown(out); break;
    case OutputFormat::json: print_json(result, out); break;
  }
}

}  // namespace roofline

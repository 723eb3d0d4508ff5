#include "reports/query_format.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "reports/format.hpp"

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

// Display width: UTF-8 code points, not bytes, so "µs" aligns.
std::size_t display_width(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

nlohmann::json json_object(const std::vector<std::string>& names, const std::vector<QueryValue>& cells) {
  nlohmann::json o = nlohmann::json::object();
  for (std::size_t c = 0; c < cells.size() && c < names.size(); ++c) {
    nlohmann::json& v = o[names[c]];
    if (const auto* i = std::get_if<std::int64_t>(&cells[c]))
      v = *i;
    else if (const auto* d = std::get_if<double>(&cells[c]))
      v = std::isfinite(*d) ? nlohmann::json(*d) : nlohmann::json(nullptr);
    else if (const auto* s = std::get_if<std::string>(&cells[c]))
      v = *s;
    else
      v = nullptr;
  }
  return o;
}

// One element of the top-level JSON array, indented as `dump(2)` of the whole array would be.
std::string json_element(const nlohmann::json& o) {
  // Replace invalid UTF-8 rather than throw: a BLOB or a broken name must still print.
  const std::string text = o.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out = "  ";
  for (const char ch : text) {
    out += ch;
    if (ch == '\n') out += "  ";
  }
  return out;
}

}  // namespace

QueryPrinter::QueryPrinter(OutputFormat format, std::ostream& out) : format_(format), out_(out) {}

void QueryPrinter::columns(const std::vector<std::string>& names) {
  names_ = names;
  held_.clear();
  rows_ = 0;
  head_printed_ = false;
  if (format_ == OutputFormat::csv || format_ == OutputFormat::json) print_head();
}

void QueryPrinter::row(const std::vector<QueryValue>& cells) {
  const bool sizing = format_ == OutputFormat::table || format_ == OutputFormat::markdown;
  if (sizing && !head_printed_) {
    held_.push_back(cells);
    if (held_.size() >= kSizingRows) print_head();
    return;
  }
  print_row(cells);
}

// Decides widths and alignment from the rows held so far, prints the header and those rows.
void QueryPrinter::print_head() {
  head_printed_ = true;
  const std::size_t n = names_.size();
  width_.assign(n, 0);
  numeric_.assign(n, true);
  for (std::size_t c = 0; c < n; ++c) {
    width_[c] = display_width(names_[c]);
    for (const auto& r : held_) {
      if (c < r.size() && !std::holds_alternative<std::monostate>(r[c]) && !is_number(r[c])) numeric_[c] = false;
      if (c < r.size()) width_[c] = std::max(width_[c], display_width(cell_text(r[c], false)));
    }
  }
  switch (format_) {
    case OutputFormat::csv:
      for (std::size_t c = 0; c < n; ++c) out_ << (c ? "," : "") << csv_field(names_[c]);
      out_ << '\n';
      break;
    case OutputFormat::json: out_ << '['; break;
    case OutputFormat::markdown:
      out_ << '|';
      for (const auto& name : names_) out_ << ' ' << markdown_escape(name) << " |";
      out_ << "\n|";
      for (std::size_t c = 0; c < n; ++c) out_ << (numeric_[c] ? "---:|" : "---|");
      out_ << '\n';
      break;
    case OutputFormat::table: {
      std::vector<QueryValue> title(names_.begin(), names_.end()), rule;
      for (std::size_t c = 0; c < n; ++c) rule.emplace_back(std::string(width_[c], '-'));
      print_row(title);
      print_row(rule);
      rows_ -= 2;  // not rows of the result
      break;
    }
  }
  auto held = std::move(held_);
  held_.clear();
  for (const auto& r : held) print_row(r);
}

void QueryPrinter::print_row(const std::vector<QueryValue>& cells) {
  ++rows_;
  if (format_ == OutputFormat::json) {
    out_ << (rows_ == 1 ? "\n" : ",\n") << json_element(json_object(names_, cells));
    return;
  }
  if (format_ == OutputFormat::csv) {
    for (std::size_t c = 0; c < names_.size(); ++c)
      out_ << (c ? "," : "") << csv_field(c < cells.size() ? cell_text(cells[c], true) : std::string());
    out_ << '\n';
    return;
  }
  if (format_ == OutputFormat::markdown) {
    out_ << '|';
    for (std::size_t c = 0; c < names_.size(); ++c)
      out_ << ' ' << markdown_escape(c < cells.size() ? cell_text(cells[c], false) : std::string()) << " |";
    out_ << '\n';
    return;
  }
  std::string line;
  for (std::size_t c = 0; c < names_.size(); ++c) {
    const std::string cell = c < cells.size() ? cell_text(cells[c], false) : std::string();
    const std::size_t w = display_width(cell);
    const std::string pad(width_[c] > w ? width_[c] - w : 0, ' ');
    if (c) line += "  ";
    line += numeric_[c] ? pad + cell : cell + pad;
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  out_ << line << '\n';
}

void QueryPrinter::finish() {
  if (!head_printed_) print_head();
  if (format_ == OutputFormat::json) out_ << (rows_ == 0 ? "]\n" : "\n]\n");
  if (format_ == OutputFormat::table) out_ << '(' << rows_ << (rows_ == 1 ? " row)\n" : " rows)\n");
}

void print_query_result(const QueryResult& result, OutputFormat format, std::ostream& out) {
  QueryPrinter printer(format, out);
  printer.columns(result.columns);
  for (const auto& r : result.rows) printer.row(r);
  printer.finish();
}

}  // namespace roofline

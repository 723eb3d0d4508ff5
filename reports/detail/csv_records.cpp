#include "reports/detail/csv_records.hpp"

#include <fmt/format.h>

namespace roofline::detail {
namespace {

CsvRecord read_record(std::string_view line_text, int line) {
  CsvRecord record{line, {}, {}};
  std::string field;
  bool quoted = false, after_quote = false;
  for (std::size_t i = 0; i < line_text.size() && record.error.empty(); ++i) {
    const char c = line_text[i];
    if (quoted) {
      if (c != '"') {
        field += c;
      } else if (i + 1 < line_text.size() && line_text[i + 1] == '"') {
        field += '"';
        ++i;
      } else {
        quoted = false;
        after_quote = true;
      }
    } else if (c == ',') {
      record.fields.push_back(std::move(field));
      field.clear();
      after_quote = false;
    } else if (c == '"' && field.empty() && !after_quote) {
      quoted = true;
    } else if (after_quote) {
      record.error = fmt::format("'{}' after a closing quote", c);
    } else {
      field += c;
    }
  }
  if (quoted) record.error = "a quoted field is not closed on its line";
  record.fields.push_back(std::move(field));
  return record;
}

}  // namespace

std::vector<CsvRecord> read_csv_records(std::string_view text) {
  std::vector<CsvRecord> records;
  int line = 0;
  while (!text.empty()) {
    ++line;
    const std::size_t end = text.find('\n');
    std::string_view line_text = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (line_text.ends_with('\r')) line_text.remove_suffix(1);
    if (line_text.starts_with('"')) records.push_back(read_record(line_text, line));
  }
  return records;
}

}  // namespace roofline::detail

#include "reports/output_format.hpp"

#include <string>

#include "models/error.hpp"

namespace roofline {

OutputFormat output_format_from_string(std::string_view s) {
  if (s == "table") return OutputFormat::table;
  if (s == "json") return OutputFormat::json;
  if (s == "csv") return OutputFormat::csv;
  if (s == "markdown" || s == "md") return OutputFormat::markdown;
  throw InputError("unknown output format '" + std::string(s) + "' (expected table, json, csv or markdown)");
}

}  // namespace roofline

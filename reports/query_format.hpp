#pragma once
// Printing a query result (`roofline query --format table|csv|json`).
#include <iosfwd>

#include "reports/output_format.hpp"
#include "reports/query_result.hpp"

namespace roofline {

// table: aligned columns (numeric columns right-aligned, 6 significant digits, NULL empty),
//        then "(N rows)".
// csv:   RFC 4180 with a header line; numbers round-trip exactly; NULL as an empty field.
// json:  an array of objects keyed by column name; NULL and NaN as null.
void print_query_result(const QueryResult& result, OutputFormat format, std::ostream& out);

}  // namespace roofline

#pragma once
// Printing a query result (`roofline query --format table|csv|json|markdown`), row by row as the
// query produces them.
#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "reports/output_format.hpp"
#include "reports/query_result.hpp"

namespace roofline {

// table:    aligned columns (numeric columns right-aligned, 6 significant digits, NULL empty),
//           then "(N rows)". Widths and alignment come from the first kSizingRows rows; a later,
//           wider cell pushes its line out rather than holding every row in memory.
// csv:      RFC 4180 with a header line; numbers round-trip exactly; NULL as an empty field.
// json:     an array of objects keyed by column name; NULL and NaN as null.
// markdown: a GitHub table (alignment from the first kSizingRows rows).
class QueryPrinter : public QueryRowSink {
 public:
  static constexpr std::size_t kSizingRows = 1000;

  QueryPrinter(OutputFormat format, std::ostream& out);
  void columns(const std::vector<std::string>& names) override;
  void row(const std::vector<QueryValue>& cells) override;
  void finish();  // prints what is still held and the closing lines; call once, after the query

 private:
  void print_head();
  void print_row(const std::vector<QueryValue>& cells);

  OutputFormat format_;
  std::ostream& out_;
  std::vector<std::string> names_;
  std::vector<std::vector<QueryValue>> held_;  // the first rows, until the widths are known
  std::vector<std::size_t> width_;
  std::vector<bool> numeric_;
  bool head_printed_ = false;
  std::size_t rows_ = 0;
};

// The whole result at once (QueryPrinter over its rows).
void print_query_result(const QueryResult& result, OutputFormat format, std::ostream& out);

}  // namespace roofline

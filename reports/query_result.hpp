#pragma once
// The result of one SQL query: column names and typed cells, as SQLite returned them; whole
// (QueryResult) or streamed a row at a time (QueryRowSink), so that a query of any size runs in
// bounded memory.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace roofline {

// NULL, INTEGER, REAL or TEXT (a BLOB is returned as its bytes in a string).
using QueryValue = std::variant<std::monostate, std::int64_t, double, std::string>;

struct QueryResult {
  std::vector<std::string> columns;
  std::vector<std::vector<QueryValue>> rows;
};

// Receives a query's rows as SQLite produces them: columns() once, then row() per row.
class QueryRowSink {
 public:
  virtual ~QueryRowSink() = default;
  virtual void columns(const std::vector<std::string>& names) = 0;
  virtual void row(const std::vector<QueryValue>& cells) = 0;
};

}  // namespace roofline

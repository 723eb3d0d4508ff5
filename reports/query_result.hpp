#pragma once
// The result of one SQL query: column names and typed cells, as SQLite returned them.
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

}  // namespace roofline

#pragma once
// Quoted CSV records out of a text that also holds other lines: Nsight Compute quotes every
// field and writes one record per line, and its export may carry its own `==PROF==` lines and
// the profiled program's output around the records. A line that does not open with a quote is
// not a record.
#include <string>
#include <string_view>
#include <vector>

namespace roofline::detail {

struct CsvRecord {
  int line = 0;  // 1-based
  std::vector<std::string> fields;
  std::string error;  // why the line is no well-formed record ("" when it is); fields then hold what was read
};

// Every line that opens with a quote, as a record: RFC 4180 fields ("" inside a quoted field is
// one quote; unquoted fields are taken as they are), one record per line.
std::vector<CsvRecord> read_csv_records(std::string_view text);

}  // namespace roofline::detail

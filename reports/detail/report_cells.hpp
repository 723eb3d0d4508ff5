#pragma once
// Building blocks of report tables, shared by the suite's and the profile's tables.
#include <string>
#include <string_view>

#include "reports/report_tables.hpp"

namespace roofline::detail {

inline ReportCell text(std::string s, Emphasis e = Emphasis::none) {
  ReportCell c;
  c.text = std::move(s);
  c.emphasis = e;
  return c;
}
inline ReportCell num(std::string s, Emphasis e = Emphasis::none) {
  ReportCell c = text(std::move(s), e);
  c.numeric = true;
  return c;
}
inline constexpr std::string_view kNone = "—";

}  // namespace roofline::detail

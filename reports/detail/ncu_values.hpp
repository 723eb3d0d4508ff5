#pragma once
// Nsight Compute's numbers and units as its CSV exports print them, read into the units of
// roofline's metric table.
#include <optional>
#include <string_view>

#include "models/profiled_launch.hpp"

namespace roofline::detail {

// "1,234,567" → 1234567, "12.34" → 12.34; nullopt for "", "n/a", text and non-finite values.
std::optional<double> parse_ncu_number(std::string_view text);

// "(256, 1, 1)" → {256, 1, 1}; nullopt when it is not three positive integers in parentheses.
std::optional<Dim3> parse_ncu_dim3(std::string_view text);

// value, printed in ncu_unit, in table_unit (a unit of models/metric.cpp's table): 12.34 "usecond"
// is 12340 "ns", 1.5 "Kbyte" 1500 "byte" (ncu's prefixes are decimal), 1.98 "cycle/nsecond" or
// "Ghz" 1.98e9 "Hz", 32 "register/thread" 32 "register". An empty ncu_unit (an export without
// its units row) is taken as ncu's base unit, which is the table's. nullopt when the two units do
// not measure the same thing.
std::optional<double> to_table_unit(double value, std::string_view ncu_unit, std::string_view table_unit);

}  // namespace roofline::detail

#pragma once
// Reading runs back: one run whole (its facts, ceilings and suite launches with everything stored
// about them) and the list of runs.
#include <cstdint>
#include <vector>

#include "reports/detail/store_connection.hpp"
#include "reports/report_data.hpp"

namespace roofline::detail {

// Call inside a ReadSnapshot. Throws Error when there is no such run. Profiled launches are read
// by profiled_launch_store.hpp.
RunRecord read_run(Connection& c, std::int64_t run_id);
std::vector<RunListEntry> read_run_list(Connection& c);

}  // namespace roofline::detail

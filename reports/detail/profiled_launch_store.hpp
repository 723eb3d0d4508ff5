#pragma once
// Profiled launches (schema v5): one launch of a profiled program with its identity, duration,
// counters and the counter-only analysis, in `profiled_launches` and its child tables.
#include <cstdint>
#include <vector>

#include "reports/detail/store_connection.hpp"
#include "reports/report_data.hpp"

namespace roofline::detail {

// Call inside a transaction; returns the launch's id.
std::int64_t insert_profiled_launch(Connection& c, std::int64_t run_id, const ProfiledLaunchRecord& rec);
// The run's profiled launches in launch order (call inside a ReadSnapshot).
std::vector<ProfiledLaunchRecord> read_profiled_launches(Connection& c, std::int64_t run_id);

}  // namespace roofline::detail

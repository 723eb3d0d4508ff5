#pragma once
// Writing suite runs: the run with its device and ceilings, one launch per transaction (an
// interrupted run keeps every finished launch and nothing half-written), the end of the run.
#include <cstdint>
#include <optional>
#include <string>

#include "models/kernel_spec.hpp"
#include "reports/detail/store_connection.hpp"
#include "reports/report_data.hpp"

namespace roofline::detail {

std::int64_t insert_run(Connection& c, const Run& run, const GpuSpec& gpu);
std::int64_t insert_launch(Connection& c, std::int64_t run_id, const KernelSpec& kernel, const LaunchRecord& rec);
void update_run_end(Connection& c, std::int64_t run_id, RunStatus status, std::optional<int> exit_code);

// Shared by the writers (call inside their transaction).
void require_running(Connection& c, std::int64_t run_id);
std::int64_t metric_id(Connection& c, const std::string& name);  // adds the name (with its unit) when new
std::string now_utc(Connection& c);

}  // namespace roofline::detail

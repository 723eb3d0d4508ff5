#pragma once
// Interrupted runs: begin_run stores the writer's host, pid and process start time; a run still
// `running` whose process is gone (same host; pid absent, a zombie, or reused by a later process)
// is stale. Runs from another host are left `running`: their process cannot be checked from here.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "models/run.hpp"
#include "reports/detail/store_connection.hpp"

namespace roofline::detail {

inline constexpr std::string_view kStaleNote = "interrupted: the process writing this run ended before it finished";

std::string this_host();
// "<boot id>/<start time in clock ticks>" of a live process; empty when it is gone or a zombie.
std::string process_start(long pid);

// The status a reader reports: `running` reads `partial` once its writer is gone.
RunStatus effective_status(std::string_view stored, const std::string& host, std::optional<std::int64_t> pid,
                           const std::string& start);

// Marks stale runs `partial` (the note says why); returns how many.
int mark_stale_runs(Connection& c);
// Whether any run is stale (a read-only look).
bool has_stale_runs(Connection& c);

}  // namespace roofline::detail

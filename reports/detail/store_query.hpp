#pragma once
// `roofline query`: SQL over the store, its rows streamed to a sink.
#include <string_view>

#include "reports/detail/store_connection.hpp"
#include "reports/query_result.hpp"

namespace roofline::detail {

// Runs every statement of `sql`; the last statement's columns and rows go to `sink`, a row at a
// time. On a read-only connection a statement that would write throws before it runs.
void run_query(Connection& c, std::string_view sql, QueryRowSink& sink);

}  // namespace roofline::detail

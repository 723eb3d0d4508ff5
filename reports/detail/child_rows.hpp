#pragma once
// Reading a run's child rows (bounds, values, loads, ...) with one statement, each row handed to
// the record it belongs to.
#include <cstdint>
#include <string_view>
#include <unordered_map>

#include "reports/detail/store_connection.hpp"

namespace roofline::detail {

// `sql` takes one parameter, the run id, and names its parent's id `parent_column`.
template <typename Record, typename Add>
void for_each_child(Connection& c, std::string_view sql, std::int64_t run_id, std::string_view parent_column,
                    const std::unordered_map<std::int64_t, Record*>& index, Add add) {
  auto& s = c.stmt(sql);
  s.bind(run_id);
  while (s.step()) add(*index.at(s.i64(parent_column)), s);
}

}  // namespace roofline::detail

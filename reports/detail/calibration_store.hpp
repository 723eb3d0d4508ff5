#pragma once
// Calibrations (schema v4): stored apart from runs, each with its own id, its device and values.
#include <cstdint>
#include <optional>
#include <string_view>

#include "models/calibration.hpp"
#include "reports/detail/store_connection.hpp"

namespace roofline::detail {

// Call inside a transaction. Values that are not finite are left out (SQLite has no NaN).
std::int64_t insert_calibration(Connection& c, const Calibration& calibration);
// The latest calibration whose `column` (device_uuid or model_id) is `value`; nullopt when none.
std::optional<Calibration> read_latest_calibration(Connection& c, std::string_view column, std::string_view value);

}  // namespace roofline::detail

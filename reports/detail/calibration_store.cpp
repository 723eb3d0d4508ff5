#include "reports/detail/calibration_store.hpp"

#include <sqlite3.h>

#include <cmath>

#include <fmt/format.h>

#include "models/error.hpp"

namespace roofline::detail {

std::int64_t insert_calibration(Connection& c, const Calibration& calibration) {
  c.stmt("INSERT INTO calibrations(device_uuid, device_name, model_id, calibrated_at, toolkit_version) "
         "VALUES (?, ?, ?, ?, ?)")
      .bind(calibration.device_uuid).bind(calibration.device_name).bind(calibration.model_id)
      .bind(calibration.date).bind(calibration.roofline_version)
      .run();
  const std::int64_t id = sqlite3_last_insert_rowid(c.db());
  int ord = 0;
  for (const auto& v : calibration.values) {
    if (!std::isfinite(v.value) || !std::isfinite(v.spread)) continue;  // no measurement; SQLite turns NaN into NULL
    c.stmt("INSERT INTO calibration_values(calibration_id, key, value, unit, spread, method, ord) "
           "VALUES (?, ?, ?, ?, ?, ?, ?)")
        .bind(id).bind(v.key).bind(v.value).bind(calibrated_unit(v.key)).bind(v.spread).bind(v.method).bind(ord++)
        .run();
  }
  return id;
}

std::optional<Calibration> read_latest_calibration(Connection& c, std::string_view column, std::string_view value) {
  if (column != "device_uuid" && column != "model_id") throw Error("internal: calibrations are found by device or model");
  auto& s = c.stmt(fmt::format("SELECT * FROM calibrations WHERE {} = ? ORDER BY id DESC LIMIT 1", column));
  s.bind(value);
  if (!s.step()) return std::nullopt;
  Calibration cal;
  cal.run_id = s.i64("id");
  cal.device_uuid = s.text("device_uuid");
  cal.device_name = s.text("device_name");
  cal.model_id = s.text("model_id");
  cal.date = s.text("calibrated_at");
  cal.roofline_version = s.text("toolkit_version");
  auto& v = c.stmt("SELECT key, value, spread, method FROM calibration_values WHERE calibration_id = ? ORDER BY ord");
  v.bind(cal.run_id);
  while (v.step()) cal.values.push_back({v.text("key"), v.f64("value"), v.f64("spread"), v.text("method")});
  return cal;
}

}  // namespace roofline::detail

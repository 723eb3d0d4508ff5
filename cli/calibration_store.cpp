#include "cli/calibration_store.hpp"

#include <fmt/format.h>

#include <fstream>

#include "models/error.hpp"

namespace roofline {

nlohmann::json to_json(const CalibratedValue& v) {
  return {{"key", v.key}, {"value", v.value}, {"spread", v.spread}, {"method", v.method}};
}

nlohmann::json to_json(const Calibration& c) {
  nlohmann::json values = nlohmann::json::array();
  for (const auto& v : c.values) values.push_back(to_json(v));
  return {{"device_uuid", c.device_uuid},           {"device_name", c.device_name}, {"date", c.date},
          {"roofline_version", c.roofline_version}, {"run_id", c.run_id},           {"values", values}};
}

// Stub (see the header): <db>.calibration.json, overwritten.
void store_calibration(const std::string& db, Calibration& calibration) {
  const std::string path = db + ".calibration.json";
  std::ofstream out(path, std::ios::trunc);
  if (!out) throw Error(fmt::format("cannot write {}", path));
  out << to_json(calibration).dump(2) << '\n';
  if (!out) throw Error(fmt::format("writing {} failed", path));
}

}  // namespace roofline

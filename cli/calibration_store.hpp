#pragma once
// Keeping a Calibration: its JSON is written next to the database (<db>.calibration.json),
// replacing the previous one. The SQLite store has no calibration table yet, and predict/run
// do not read this file: the GPU model files carry the calibrated values by hand for now.
#include <nlohmann/json.hpp>
#include <string>

#include "models/calibration.hpp"

namespace roofline {

nlohmann::json to_json(const CalibratedValue& v);
nlohmann::json to_json(const Calibration& c);

// Stores the calibration for db; may set calibration.run_id. Throws Error when it cannot write.
void store_calibration(const std::string& db, Calibration& calibration);

}  // namespace roofline

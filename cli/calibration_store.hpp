#pragma once
// Keeping a Calibration. For now a stub: the JSON of the Calibration is written next to the
// database (<db>.calibration.json). The lead replaces the body with
// SqliteStore::save_calibration once the store has it (which also sets calibration.run_id).
#include <nlohmann/json.hpp>
#include <string>

#include "models/calibration.hpp"

namespace roofline {

nlohmann::json to_json(const CalibratedValue& v);
nlohmann::json to_json(const Calibration& c);

// Stores the calibration for db; may set calibration.run_id. Throws Error when it cannot write.
void store_calibration(const std::string& db, Calibration& calibration);

}  // namespace roofline

#pragma once
// JSON forms of the plain records, shared by the store (kernel specs, per-pass predictions)
// and the JSON export of a run. One serializer per record; the store reads back what it needs.
#include <nlohmann/json.hpp>

#include "models/calibration.hpp"
#include "models/kernel_spec.hpp"
#include "reports/report_data.hpp"

namespace roofline {

nlohmann::json to_json(const KernelSpec& k);
nlohmann::json to_json(const GpuSpec& g);        // facts + every parameter with unit and source
nlohmann::json to_json(const Run& r);
nlohmann::json to_json(const CalibratedValue& v);
nlohmann::json to_json(const Calibration& c);    // `roofline calibrate --format json`
nlohmann::json to_json(const PassPrediction& p);
nlohmann::json to_json(const Prediction& p);
nlohmann::json to_json(const Measurement& m);
nlohmann::json to_json(const Comparison& c);
nlohmann::json to_json(const LaunchRecord& l);
nlohmann::json to_json(const RunRecord& r);      // the whole run, for `roofline report --json`
// Each bound's kind, seconds (null where the spec leaves it unknown) and how it was worked out.
nlohmann::json bounds_json(const std::vector<BoundTime>& bounds);

PassPrediction pass_prediction_from_json(const nlohmann::json& j);

}  // namespace roofline

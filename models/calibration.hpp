#pragma once
// Calibration: ceilings measured on one device by `roofline calibrate` (DESIGN §3.1, §5), and
// how they override a GPU model's datasheet, measured-elsewhere and assumed values.
//
// Keys are gpu_params() keys (models/gpu_spec.hpp). Measurements the model does not use (yet)
// are kept under keys prefixed "extra." (e.g. "extra.dram_read_bandwidth") so that the store
// keeps them; apply_calibration ignores those.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/gpu_spec.hpp"

namespace roofline {

struct CalibratedValue {
  std::string key;      // a gpu_params() key, or "extra.<name>"
  double value = 0.0;   // in the parameter's unit (gpu_params()), or the unit the method names
  double spread = 0.0;  // relative: (p90 - p10) / median over the repetitions
  std::string method;   // how it was measured, one line
};

struct Calibration {
  std::string device_uuid, device_name, date, roofline_version;  // date: ISO 8601 UTC
  std::int64_t run_id = 0;                                       // set by the store
  std::vector<CalibratedValue> values;
};

inline constexpr std::string_view kExtraKeyPrefix = "extra.";
inline bool is_extra_key(std::string_view key) { return key.substr(0, kExtraKeyPrefix.size()) == kExtraKeyPrefix; }

// The value stored under key, or nullptr.
const CalibratedValue* find_value(const Calibration& c, std::string_view key);

// The parameter a key names, or nullptr (extra.* keys and unknown keys).
const GpuParam* find_gpu_param(std::string_view key);

// base with every calibrated parameter overridden: value, Source::calibrated and the note
// "calibrated <date> (run <id>): <method>, spread <x> %". extra.* keys and keys that are not
// gpu_params() keys (from another toolkit version) are ignored, as are non-finite or
// non-positive values.
GpuSpec apply_calibration(GpuSpec base, const Calibration& calibration);

}  // namespace roofline

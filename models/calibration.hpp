#pragma once
// Calibration: ceilings measured on one device by `roofline calibrate`, and
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
  std::string model_id;      // the catalog GPU model the device matched; empty when none
  std::int64_t run_id = 0;   // the calibration run's id, set by the store (SqliteStore::save_calibration)
  std::vector<CalibratedValue> values;
};

inline constexpr std::string_view kExtraKeyPrefix = "extra.";
inline bool is_extra_key(std::string_view key) { return key.substr(0, kExtraKeyPrefix.size()) == kExtraKeyPrefix; }

// The value stored under key, or nullptr.
const CalibratedValue* find_value(const Calibration& c, std::string_view key);

// The parameter a key names, or nullptr (extra.* keys and unknown keys).
const GpuParam* find_gpu_param(std::string_view key);

// The unit of a calibrated key: the parameter's, or for an extra key one read from its name
// ("..._bandwidth..." B/s, "..._ns" ns, ...; "ratio" when the name says nothing).
std::string calibrated_unit(std::string_view key);

// "calibration run 3 of GPU-1234 (NVIDIA H100 80GB HBM3), 2025-01-02T03:04:05Z"
std::string describe(const Calibration& calibration);

// base with every calibrated parameter overridden: value, Source::calibrated and the note
// "calibrated <date> on <uuid> (calibration run <id>): <method>, spread <x> %", so that every
// output showing a ceiling's source also names the calibration. extra.* keys and keys that are not
// gpu_params() keys (from another toolkit version) are ignored, as are non-finite or
// non-positive values.
GpuSpec apply_calibration(GpuSpec base, const Calibration& calibration);

}  // namespace roofline

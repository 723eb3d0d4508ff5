#pragma once
// Which stored calibration a command's predictions use (`run`, `predict --db`, `accuracy`), and
// the line that tells the user where the ceilings came from.
#include <optional>
#include <string>
#include <string_view>

#include "models/calibration.hpp"
#include "models/gpu_spec.hpp"
#include "reports/sqlite_store.hpp"

namespace roofline {

struct CalibratedGpu {
  GpuSpec gpu;                             // the model, with the calibration applied when there is one
  std::optional<Calibration> calibration;  // the one applied
  std::string summary;  // "7 calibrated by calibration run 3 of GPU-… (…), <date>; the others from GPU model h100-sxm"
};

// The model as it is; why says why no calibration applies ("--no-calibration").
CalibratedGpu uncalibrated(const GpuSpec& model, std::string_view why);

// The latest calibration in store of the device with this UUID or, when device_uuid is empty
// (nothing measured), of any device that matched the model, applied to the model.
CalibratedGpu with_stored_calibration(const GpuSpec& model, const SqliteStore& store, std::string_view device_uuid);

}  // namespace roofline

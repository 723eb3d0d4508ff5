#include "cli/stored_calibration.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace roofline {

CalibratedGpu uncalibrated(const GpuSpec& model, std::string_view why) {
  return {model, std::nullopt, fmt::format("GPU model {}, none calibrated ({})", model.id, why)};
}

CalibratedGpu with_stored_calibration(const GpuSpec& model, const SqliteStore& store, std::string_view device_uuid) {
  std::optional<Calibration> c =
      device_uuid.empty() ? store.latest_calibration_of_model(model.id) : store.latest_calibration(device_uuid);
  if (!c)
    return uncalibrated(model, fmt::format("no calibration of {} in {}; `roofline calibrate` stores one",
                                           device_uuid.empty() ? "a " + model.id : std::string(device_uuid),
                                           store.path().string()));
  GpuSpec gpu = apply_calibration(model, *c);
  const auto params = gpu_params();
  const auto n = std::count_if(params.begin(), params.end(),
                               [&](const GpuParam& p) { return (gpu.*(p.member)).source == Source::calibrated; });
  std::string summary = fmt::format("{} calibrated by {}; the others from GPU model {}", n, describe(*c), model.id);
  return {std::move(gpu), std::move(c), std::move(summary)};
}

}  // namespace roofline

#include "models/calibration.hpp"

#include <fmt/format.h>

#include <cmath>

namespace roofline {

const CalibratedValue* find_value(const Calibration& c, std::string_view key) {
  for (const auto& v : c.values)
    if (v.key == key) return &v;
  return nullptr;
}

const GpuParam* find_gpu_param(std::string_view key) {
  if (is_extra_key(key)) return nullptr;
  for (const auto& p : gpu_params())
    if (p.key == key) return &p;
  return nullptr;
}

GpuSpec apply_calibration(GpuSpec base, const Calibration& calibration) {
  for (const auto& v : calibration.values) {
    const GpuParam* p = find_gpu_param(v.key);
    if (p == nullptr || !std::isfinite(v.value) || v.value <= 0.0) continue;
    Quantity& q = base.*(p->member);
    q.value = v.value;
    q.source = Source::calibrated;
    q.note = fmt::format("calibrated {} (run {}): {}, spread {:.1f} %", calibration.date, calibration.run_id,
                         v.method, v.spread * 100.0);
  }
  return base;
}

}  // namespace roofline

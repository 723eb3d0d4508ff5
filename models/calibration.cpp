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

std::string calibrated_unit(std::string_view key) {
  if (const GpuParam* p = find_gpu_param(key)) return std::string(p->unit);
  auto has = [&](std::string_view s) { return key.find(s) != std::string_view::npos; };
  if (has("bandwidth")) return "B/s";
  if (has("_ns")) return "ns";
  if (has("_hz")) return "Hz";
  if (has("_bytes")) return "B";
  if (has("_cycles")) return "cycles";
  if (has("fma_rate")) return "FMA/s";
  if (has("sfu_rate") || has("alu_rate")) return "op/s";
  return "ratio";
}

std::string describe(const Calibration& c) {
  return fmt::format("calibration run {} of {} ({}), {}", c.run_id, c.device_uuid, c.device_name, c.date);
}

namespace {

// A value the model took up after calibrate had recorded it as an extra, by its old key, so that
// calibrations stored before still apply it.
const GpuParam* find_renamed_param(std::string_view key) {
  if (key == "extra.dram_cold_wave_excess_ns") return find_gpu_param("launch_fill_ns");
  if (key == "extra.launch_throughput_ns") return find_gpu_param("launch_throughput_ns");
  return nullptr;
}

}  // namespace

GpuSpec apply_calibration(GpuSpec base, const Calibration& calibration) {
  for (const auto& v : calibration.values) {
    const GpuParam* p = find_gpu_param(v.key);
    if (p == nullptr) p = find_renamed_param(v.key);
    if (p == nullptr || !std::isfinite(v.value) || v.value <= 0.0) continue;
    Quantity& q = base.*(p->member);
    q.value = v.value;
    q.source = Source::calibrated;
    q.note = fmt::format("calibrated {} on {} (calibration run {}): {}, spread {:.1f} %", calibration.date,
                         calibration.device_uuid, calibration.run_id, v.method, v.spread * 100.0);
  }
  return base;
}

}  // namespace roofline

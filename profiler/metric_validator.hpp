#pragma once
// Metric-name validation with the CUPTI Profiler Host API for one chip ("GH100"). Needs no GPU
// and no profiling privileges: only libcupti and libnvperf_host.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "profiler/metric_names.hpp"

namespace roofline {

namespace detail {
class HostObject;
}

struct MetricProperties {
  std::string name, description, unit, hw_unit;
  MetricKind kind = MetricKind::counter;
};

class MetricValidator {
 public:
  // Throws CuptiError when the host API cannot be initialised for the chip.
  explicit MetricValidator(std::string chip, std::vector<std::uint8_t> counter_availability = {});
  ~MetricValidator();
  MetricValidator(const MetricValidator&) = delete;
  MetricValidator& operator=(const MetricValidator&) = delete;

  const std::string& chip() const { return chip_; }
  // Empty when name is a collectable metric (CUPTI or launch__*), else the one-line reason with
  // the closest known names.
  std::string check(std::string_view name) const;
  // Throws InputError with check()'s message for the first bad name.
  void validate(std::span<const std::string> names) const;
  // Properties of a valid CUPTI metric name (not launch__*). Throws InputError when unknown.
  MetricProperties properties(std::string_view name) const;
  // Every base metric of the chip (counters, ratios, throughputs), enumerated once on demand.
  const std::vector<std::string>& base_metrics() const;

 private:
  std::string chip_;
  std::unique_ptr<detail::HostObject> host_;
  mutable std::vector<std::string> bases_;
};

}  // namespace roofline

#pragma once
// Measurement: what the profiler saw for one launch.
#include <string>
#include <vector>

#include "models/launch.hpp"
#include "models/metric.hpp"

namespace roofline {

struct TimingStats {
  double median_s = 0.0, min_s = 0.0, max_s = 0.0;
  double spread = 0.0;  // (p90 - p10) / median of the repetitions
  int count = 0;
};

enum class CounterStatus { collected, timing_only, not_requested };
std::string_view to_string(CounterStatus s);
// Throws InputError for a name that is no counter status.
CounterStatus counter_status_from_string(std::string_view s);

struct Measurement {
  Launch launch;
  TimingStats time;
  CounterStatus counter_status = CounterStatus::not_requested;
  std::string counter_note;  // why timing-only, and how to fix it
  int passes = 0;            // CUPTI replay passes used for the counters
  std::vector<MetricValue> counters;
  bool verified = false;
  std::string verification;  // "ok" or what failed
  double bytes_moved = 0.0;  // useful bytes (inputs read + outputs written once)
  double bandwidth = 0.0;    // bytes_moved / median time, B/s
  double pct_of_copy = 0.0;  // bandwidth / measured device-to-device copy bandwidth x 100
};

const MetricValue* counter(const Measurement& m, std::string_view name);

}  // namespace roofline

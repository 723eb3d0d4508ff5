#pragma once
// One metric set's CUPTI config image, built on its own host object (metrics added to one host
// object accumulate, so every set gets a fresh one) and kept for evaluating the ranges.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "profiler/detail/host_object.hpp"

namespace roofline::detail {

struct CounterConfig {
  std::unique_ptr<HostObject> host;
  std::vector<std::string> names;
  std::vector<const char*> c_names;  // points into names
  std::vector<std::uint8_t> image;
  int passes = 0;
};

// Throws CuptiError.
std::unique_ptr<CounterConfig> build_counter_config(const std::string& chip,
                                                    const std::vector<std::uint8_t>& counter_availability,
                                                    std::vector<std::string> names);

}  // namespace roofline::detail

#pragma once
// NVML opened with dlopen (never linked, so the binary loads without a driver).
#include <string>

namespace roofline::detail {

// Display driver version ("580.159.04"); empty when NVML is not present.
std::string nvml_driver_version();

}  // namespace roofline::detail

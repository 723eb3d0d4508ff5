#pragma once
// `roofline calibrate`: runs the calibration micro-benchmarks (kernels/calibration.hpp) on one
// device and turns them into a Calibration (models/calibration.hpp): each ceiling repeated to
// get a spread, keyed by the gpu_params() key the model reads, or "extra.<name>" for what the
// model does not use (yet). Clocks are left as found.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "models/calibration.hpp"

namespace roofline {

struct CalibrateOptions {
  int device = 0;
  int repetitions = 15;          // timed launches (or chases) per measurement
  bool counters = true;          // CUPTI: L2 fabric factor and DRAM traffic per L2 working set
  std::size_t stream_bytes = 0;  // per streaming buffer; 0: 1 GiB (less when memory is short)
  std::string roofline_version;
};

// progress(step, i, n): called before step i (1-based) of n.
// Throws Error on a CUDA failure; counters that are unavailable only leave the values that need
// them out (the fabric factor, the residency fractions), with a note in the method of none.
Calibration calibrate_device(const CalibrateOptions& options,
                             const std::function<void(std::string_view step, int i, int n)>& progress = {});

}  // namespace roofline

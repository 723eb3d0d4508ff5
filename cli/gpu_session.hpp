#pragma once
// The measuring half of the CLI behind a CUDA-free interface, so that `run` builds and works
// without CUDA or without a GPU (it then predicts only and says why).
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "models/gpu_spec.hpp"
#include "models/kernel_spec.hpp"
#include "models/measurement.hpp"
#include "models/run.hpp"

namespace roofline {

struct SessionOptions {
  bool counters = true;
  bool timing = true;  // false: no event timing (with counters off: launch once and verify only)
  bool back_to_back = false;  // time chunks of back-to-back launches (measure --timing loop)
  std::vector<std::string> extra_metrics;
  double timing_budget_s = 0.5;
  double target_spread = 0.02;
  int device = 0;
  int profile_batch = 0;  // launches profiled per replay sequence at most (0: as many as fit)
};

class GpuSession {
 public:
  virtual ~GpuSession() = default;
  // nullptr, with the reason in *why_not, when this build has no CUDA or the machine no GPU.
  // Throws InputError for an unknown metric name.
  static std::unique_ptr<GpuSession> open(const SessionOptions& options, std::string* why_not);

  virtual const DeviceInfo& device() const = 0;
  // The device's GPU model with its device-query values applied: its catalog model, or for a GPU
  // the catalog does not know (device().model_id empty) the nearest one's (device_model).
  // nullptr only where no device was queried (tests).
  virtual const GpuSpec* gpu() const = 0;
  virtual double free_memory_bytes() const = 0;
  virtual std::vector<std::string> metrics() const = 0;
  virtual bool counters_available() const = 0;
  virtual std::string counters_note() const = 0;
  virtual int passes() const = 0;
  virtual const SessionOptions& options() const = 0;
  // Why the suite's runner cannot run this launch (its N, dtype or block does not suit the
  // kernel, as a cube kernel's N that is no cube), without any CUDA call; empty when it can.
  virtual std::string cannot_run(const KernelSpec& spec, const Launch& launch) const = 0;
  // Verifies, times and profiles a batch of launches (their counters collected together),
  // calling on_start(i) as launch i begins. pct_of_copy is filled from a copy_d2d measured once
  // per (N, cache state). Every launch's buffers are allocated until the batch is done.
  virtual std::vector<Measurement> measure(std::span<const std::pair<KernelSpec, Launch>> batch,
                                           const std::function<void(std::size_t)>& on_start) = 0;
};

}  // namespace roofline

#pragma once
// predict_bounds: the analytic model (docs/model.md). Every bound's time, the binding bound and
// the runner-up, the predicted duration and the counters under Nsight Compute names.
#include "models/gpu_spec.hpp"
#include "models/kernel_spec.hpp"
#include "models/launch.hpp"
#include "models/prediction.hpp"

namespace roofline {

// Registers come from each pass (the caller fills them from the compiler report); a pass
// with none is assumed to use 32 and the prediction says so.
// Throws InputError for launches that cannot run: n <= 0, buffers larger than the GPU's
// memory, a dtype the kernel does not support, a bad block size.
Prediction predict_bounds(const GpuSpec& gpu, const KernelSpec& kernel, const Launch& launch);

// The L2 hit fraction of a warm working set of `bytes` (1 = fully resident, 0 = streams).
double l2_resident_fraction(const GpuSpec& gpu, double bytes);

}  // namespace roofline

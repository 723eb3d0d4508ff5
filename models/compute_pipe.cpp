#include "models/compute_pipe.hpp"

#include "models/metric.hpp"

namespace roofline {

const std::array<ComputePipeInfo, kComputePipes>& compute_pipes() {
  static const std::array<ComputePipeInfo, kComputePipes> pipes{{
      {ComputePipe::fp32, {metric::fadd, metric::fmul, metric::ffma}, 1, &GpuSpec::fp32_fma_per_clock_per_sm,
       "FP32 thread"},
      {ComputePipe::fp16, {metric::hadd, metric::hmul, metric::hfma}, 2, &GpuSpec::fp16_fma_per_clock_per_sm,
       "FP16 thread"},
      {ComputePipe::fp64, {metric::dadd, metric::dmul, metric::dfma}, 1, &GpuSpec::fp64_fma_per_clock_per_sm,
       "FP64 thread"},
      {ComputePipe::sfu, {metric::sfu_inst}, 32, &GpuSpec::sfu_per_clock_per_sm, "special-function unit (XU) warp"},
      {ComputePipe::alu, {metric::alu_inst}, 32, &GpuSpec::alu_per_clock_per_sm, "integer and logic (ALU) warp"},
  }};
  return pipes;
}

}  // namespace roofline

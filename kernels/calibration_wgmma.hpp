#pragma once
// The calibration's warpgroup-MMA kernel (Hopper's wgmma, sm_90a code): whether the device runs
// it, and its launcher. Only kernels/calibration.cu uses it.
#include <cuda_runtime.h>

#include "kernels/detail/block_clock.cuh"

namespace roofline::calib::wgmma {

// Multiply-adds one thread's share of a loop trip makes: 16 wgmma m64n128k16 a warpgroup of 128.
inline constexpr double kMultiplyAddsPerThreadPerTrip = 16.0 * 64 * 128 * 16 / 128;
inline constexpr int kThreadsPerBlock = 128;  // one warpgroup

// Compute capability 9.0: the only one sm_90a code runs on.
bool supported(int device);
int blocks_per_sm();
void launch(int blocks, int trips, float* out, detail::ClockRecord* records, cudaStream_t stream);

}  // namespace roofline::calib::wgmma

#pragma once
// A one-shot thread that loads one float, runs K FMAs in four independent chains and stores one
// float. With Barrier its block meets at a barrier between the loads and the FMAs, as a kernel
// staging a shared-memory tile does: no warp starts its FMAs before every load of its block is
// back. `roofline calibrate` times it with and without the barrier (barrier_release_ns), and
// scripts/device/issue_round_probe.cu across K.
namespace roofline::calib::detail {

template <int K, bool Barrier>
__global__ void load_fma_store_kernel(const float* __restrict__ x, float* __restrict__ y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  // The load is guarded by the grid's bound ahead of the barrier: a read-only load with nothing
  // to guard may be sunk below it, and the barrier would then wait for nothing.
  if constexpr (Barrier) {
    if (i < n) v = x[i];
    __syncthreads();
    if (i >= n) return;
  } else {
    if (i >= n) return;
    v = x[i];
  }
  float a0 = v, a1 = v + 1.0f, a2 = v + 2.0f, a3 = v + 3.0f;
#pragma unroll
  for (int k = 0; k < K / 4; ++k) {
    a0 = fmaf(a0, 1.0001f, 0.5f);
    a1 = fmaf(a1, 1.0001f, 0.5f);
    a2 = fmaf(a2, 1.0001f, 0.5f);
    a3 = fmaf(a3, 1.0001f, 0.5f);
  }
  y[i] = (a0 + a1) + (a2 + a3);
}

}  // namespace roofline::calib::detail

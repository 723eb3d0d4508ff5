#pragma once
// A block's clock span for the calibration kernels: the SM clock (clock64) and the global timer
// (%globaltimer, ns) at its start and end, written once by thread 0, so that the host reads the
// SM clock a kernel ran at.
#include <cuda_runtime.h>

#include <cstdint>

namespace roofline::calib::detail {

struct ClockRecord {
  long long c0, c1;
  unsigned long long t0, t1;
};

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Per-block clock span: start in registers, written once at the end.
struct BlockClock {
  long long c0 = 0;
  unsigned long long t0 = 0;
  __device__ __forceinline__ void start(const ClockRecord* rec) {
    if (rec != nullptr && threadIdx.x == 0) {
      t0 = global_ns();
      c0 = clock64();
    }
  }
  __device__ __forceinline__ void stop(ClockRecord* rec) {
    if (rec == nullptr) return;
    __syncthreads();
    if (threadIdx.x == 0) {
      const long long c1 = clock64();
      const unsigned long long t1 = global_ns();
      rec[blockIdx.x] = ClockRecord{c0, c1, t0, t1};
    }
  }
};

}  // namespace roofline::calib::detail

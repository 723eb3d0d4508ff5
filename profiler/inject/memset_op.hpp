#pragma once
// A memset of the profiled program, read from its driver callback: a batch replays it in its
// place instead of ending before it (profiler/inject/launch_batch.hpp).
#include <cuda.h>

#include <cstddef>
#include <optional>

namespace roofline::inject {

// cuMemsetD8/D16/D32 (sync or async, any stream flavour): value repeated count times.
struct MemsetOp {
  CUdeviceptr destination = 0;
  unsigned value = 0;
  unsigned element_bytes = 1;  // 1, 2 or 4
  std::size_t count = 0;
  CUstream stream = nullptr;
};

// The memset a driver callback's parameters describe; nullopt for any other call (2-D memsets
// included). Reads the parameters only: no driver call.
std::optional<MemsetOp> memset_of(unsigned cbid, const void* params);

}  // namespace roofline::inject

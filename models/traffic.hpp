#pragma once
// Memory traffic of one array entry in one pass, derived from its access descriptor: warp
// requests, sectors per request (coalescing from width x stride, or the pattern's: a column or
// a gather puts every lane in its own sector, a broadcast all lanes in one), distinct sectors of
// the buffer, and sectors a store covers only in part (write-validate fills them from DRAM at
// eviction; a column store's partial sectors are completed in L2 by the neighbouring warps).
#include <cstdint>

#include "models/kernel_spec.hpp"

namespace roofline {

inline constexpr int kSectorBytes = 32;

struct ArrayTraffic {
  double requests = 0;           // warp-level instructions (l1tex__t_requests_*)
  double l1_sectors = 0;         // sectors summed over requests (l1tex__t_sectors_*)
  double l1_wavefronts = 0;      // L1 data-stage wavefronts, summed over requests
  double footprint_sectors = 0;  // distinct 32-byte sectors of the buffer touched
  double partial_sectors = 0;    // stores only: sectors written in part
  double revisited_sectors = 0;  // stores only: l1_sectors that a warp's earlier access of the same
                                 // iteration already wrote part of (split stores)
  double useful_bytes = 0;       // bytes the threads ask for (accesses x element bytes)
  double buffer_bytes = 0;       // allocation the array needs
};

// threads: the pass's launched threads (grid x block), which accesses outside the element loop
// (per_thread, per_warp) are counted by.
ArrayTraffic array_traffic(const ArrayAccess& array, const KernelPass& pass, DType launch_dtype, std::int64_t n,
                           const Dimensions& dims, int wavefront_bytes, double threads);

}  // namespace roofline

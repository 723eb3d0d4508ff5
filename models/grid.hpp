#pragma once
// Grid shape of a pass: shared by the predictor and the launchers so both use one answer.
#include <cstdint>

#include "models/kernel_spec.hpp"

namespace roofline {

// Threads needed to cover n elements at elements_per_thread each.
std::int64_t threads_needed(std::int64_t n, int elements_per_thread);

// Blocks to launch. one-shot: enough blocks for every element. grid-stride: the pass's own grid
// when it names one, else one full wave (sm_count x resident blocks per SM); fewer when n needs
// fewer. per-row: one block per row.
std::int64_t grid_blocks(const KernelPass& pass, std::int64_t n, int block, int sm_count,
                         int resident_blocks_per_sm, std::int64_t rows = 1);

// Loop iterations the busiest thread runs (1 for one-shot).
std::int64_t iterations_per_thread(const KernelPass& pass, std::int64_t n, int block, std::int64_t grid);

}  // namespace roofline

#pragma once
// Resident blocks per SM from block size, registers and shared memory, as the CUDA occupancy
// calculator computes them, so `predict` needs no GPU.
#include "models/gpu_spec.hpp"
#include "models/prediction.hpp"

namespace roofline {

// The hardware allocates at least this many registers per thread: Nsight Compute reports 16
// for kernels compiled to 10-15 registers on the H100. Occupancy and the
// launch__registers_per_thread counter both use the allocated count.
inline constexpr int kMinAllocatedRegisters = 16;
inline int allocated_registers(int compiled) { return compiled > 0 && compiled < kMinAllocatedRegisters ? kMinAllocatedRegisters : compiled; }

// Throws InputError when a single block cannot be resident (too many registers or too much
// shared memory for one SM).
Occupancy compute_occupancy(const GpuSpec& gpu, int block, int registers_per_thread, Source registers_source,
                            int shared_bytes_per_block);

}  // namespace roofline

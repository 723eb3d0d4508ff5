#pragma once
// Inputs and verification on the GPU, so that neither the host nor the PCIe bus sees the
// suite's buffers: the seeded random inputs (bit for bit the values fill_random() makes on the
// host) and a per-element reference check of every output, with a few problems sent back.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "kernels/kernel_impl.hpp"
#include "models/dtype.hpp"

namespace roofline::kernels {

// Fills elements [0, count) of `out` (type t) with fill_random(t, seed, stream, ...)'s values.
void fill_random_device(DType t, std::uint64_t seed, std::uint64_t stream, void* out, std::int64_t count,
                        cudaStream_t s = nullptr);

inline constexpr int kMaxVerifyInputs = 4;
inline constexpr int kMaxVerifyOutputs = 2;

struct DeviceCheckBuffer {
  const void* ptr = nullptr;
  DType type = DType::f32;
  std::int64_t spread = 1;
  std::uint64_t stream = 0;  // inputs: the fill_random stream (the buffer's layout index)
  int layout_index = 0;      // for messages
};

struct DeviceVerifyArgs {
  std::int64_t n = 0;
  std::uint64_t seed = 0;
  ReferenceOp op = ReferenceOp::none;
  int inputs = 0, outputs = 0;
  DeviceCheckBuffer in[kMaxVerifyInputs];
  DeviceCheckBuffer out[kMaxVerifyOutputs];  // outputs and intermediates, layout order
};

struct DeviceProblem {
  enum Kind : int { never_written = 0, wrong_value = 1, gap_written = 2, input_changed = 3 };
  int kind = 0;
  int layout_index = 0;
  std::int64_t index = 0;  // element index in the buffer (logical index x spread + offset)
  float got = 0.0f, expected = 0.0f;
};

struct DeviceVerifyResult {
  std::int64_t problems = 0;            // every problem, counted
  std::vector<DeviceProblem> first;     // the first few by element index (of up to 256 recorded)
};

// Regenerates each logical element's inputs from the seed, checks the device inputs still hold
// them, evaluates op in float and compares every output with the rounded result (relative
// tolerance per type, as the CPU check), poison = never written, and the gaps of spread > 1
// layouts must stay poisoned. Synchronises the device.
DeviceVerifyResult verify_on_device(const DeviceVerifyArgs& args);

}  // namespace roofline::kernels

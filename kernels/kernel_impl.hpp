#pragma once
// KernelImpl: the host-side description of one suite kernel that the generic runner
// (kernel_runner.cpp) drives. Each family .cu file lists its kernels as KernelImpl values;
// the runner owns allocation, input generation, poisoning, grid choice and verification,
// so no kernel repeats that boilerplate.
#include <cuda_runtime.h>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "models/dtype.hpp"

namespace roofline::kernels {

enum class BufferRole {
  input,         // random data uploaded before each launch
  output,        // poisoned before each launch, checked against the reference
  intermediate,  // written and read within one launch (unfused chains); checked, not "useful"
  sink,          // written only under a condition that never holds; must stay poisoned
};

struct BufferLayout {
  std::string_view name;
  DType type = DType::f32;
  BufferRole role = BufferRole::input;
  // Element i of the logical range lives at index i * spread; the buffer holds n * spread
  // elements (8 for one float per 32-byte sector). Sinks hold `spread` elements, whatever n.
  std::int64_t spread = 1;
};

// What a launch function receives: device pointers in layout order and the grid the runner
// chose with models/grid.hpp (0 for library calls that choose their own).
struct LaunchContext {
  void* const* buffers = nullptr;
  std::int64_t n = 0;
  std::int64_t extent = 0;  // largest element index + 1 over all buffers (index width choice)
  int block = 256;
  std::int64_t grid = 0;
  cudaStream_t stream = nullptr;
};

// Per logical element: the values of the input buffers (layout order, as float) in, the
// exact results of the output and intermediate buffers (layout order) out. The runner rounds
// them to each buffer's type.
using ReferenceFn = void (*)(const float* inputs, float* outputs);

// The same reference as an operation the GPU verifier (device_values.cu) evaluates per element,
// in float with IEEE rounding and no contraction, exactly like the CPU functions:
//   copy: out0 = in0            add: out0 = in0 + in1        write_value: out0 = kWriteValue
//   mul_then_mul: out0 = in0 * in1, out1 = out0 * in2 (an unfused chain with its intermediate)
//   mul3: out0 = (in0 * in1) * in2                          none: no outputs
// The GPU tests check each kernel's operation against its ReferenceFn (both verifiers agree).
enum class ReferenceOp : int { none, copy, add, write_value, mul_then_mul, mul3 };

struct KernelImpl {
  std::string_view name;
  std::span<const BufferLayout> buffers;
  // The first pass's __global__ function for this extent (occupancy query); nullptr when a
  // library launches its own kernel (cudaMemcpyAsync, CUB).
  const void* (*device_function)(std::int64_t extent) = nullptr;
  void (*launch)(const LaunchContext&) = nullptr;
  int kernel_launches = 1;
  ReferenceFn reference = nullptr;
  ReferenceOp device_reference = ReferenceOp::none;
};

// The families (one .cu file each).
std::span<const KernelImpl> elementwise_add_impls();
std::span<const KernelImpl> add_technique_impls();
std::span<const KernelImpl> memory_probe_impls();
std::span<const KernelImpl> hadamard_impls();
std::span<const KernelImpl> reference_impls();

// Every suite kernel, in suite order.
const std::vector<KernelImpl>& all_kernel_impls();
const KernelImpl* find_kernel_impl(std::string_view name);

// Buffer sizes without a device (also what prepare() allocates).
std::int64_t buffer_elements(const BufferLayout& b, std::int64_t n);
std::int64_t buffer_bytes(const BufferLayout& b, std::int64_t n);
std::int64_t total_device_bytes(const KernelImpl& k, std::int64_t n);
// Every input read once and every output written once, n logical elements each.
std::int64_t useful_bytes(const KernelImpl& k, std::int64_t n);

// Value written by the write-only probes; sentinel the read-only probe compares against.
inline constexpr float kWriteValue = 0.75f;
inline constexpr float kReadOnlySentinel = 1.0e30f;

}  // namespace roofline::kernels

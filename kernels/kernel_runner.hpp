#pragma once
// KernelRunner: one suite kernel bound to device buffers at one size. The profiler times and
// profiles through this interface; it hides CUDA types so callers need no CUDA headers.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "models/kernel_spec.hpp"
#include "models/launch.hpp"

namespace roofline {

struct VerifyResult {
  bool ok = false;
  std::string message;  // "ok", or the first mismatches / unwritten elements
};

class KernelRunner {
 public:
  virtual ~KernelRunner() = default;
  virtual const KernelSpec& spec() const = 0;
  // Throws InputError, without any CUDA call, when n, the dtype or the block does not suit the
  // kernel (a square kernel's n must be a perfect square, a row kernel's a multiple of 1024).
  virtual void check(std::int64_t /*n*/, DType /*dtype*/, int /*block*/) const {}
  // Allocates buffers for n elements, fills inputs with random data from seed and poisons
  // the outputs. Throws InputError as check() does, first, and when the buffers do not fit the
  // device's free memory.
  virtual void prepare(std::int64_t n, DType dtype, int block, std::uint64_t seed) = 0;
  // Enqueues every pass of the kernel on the given stream (a cudaStream_t; nullptr = default).
  virtual void launch(void* stream) = 0;
  // Number of CUDA kernel launches one launch() makes (0 for cudaMemcpyAsync).
  virtual int kernel_launches() const = 0;
  // Poisons the outputs again, zeroes the accumulators that atomics add into and puts the
  // seeded values back into the buffers a kernel updates in place (before each profiler replay
  // pass). Inputs stay as prepare() uploaded them: the suite's kernels never write their inputs.
  virtual void restore() = 0;
  // Compares the outputs with the reference of the current inputs: on the GPU where the kernel
  // has a device reference (nothing but a few problem records crosses the bus), otherwise on
  // the CPU as verify_on_host() (always for whole-array kernels: the patterns suite).
  virtual VerifyResult verify() = 0;
  // The CPU check: regenerates the inputs on the host, copies the outputs back and compares
  // them with the kernel's CPU reference. Slow at large n; the GPU tests cross-check verify().
  virtual VerifyResult verify_on_host() { return verify(); }
  // Device pointer of buffer k in layout order (tests corrupt outputs through it); nullptr
  // before prepare().
  virtual void* device_buffer(std::size_t /*k*/) const { return nullptr; }
  // Device bytes the buffers take.
  virtual std::int64_t device_bytes() const = 0;
  // Useful bytes one launch moves: every input read once, every output written once.
  virtual std::int64_t useful_bytes() const = 0;
  // Grid actually launched (first pass), for checking against the model.
  virtual std::int64_t grid_blocks() const = 0;
};

// Frees the device memory the runners keep for reuse (buffers of finished runners are kept,
// up to a quarter of the device's memory, so that the next launch of the same or a smaller
// size allocates nothing). Call before allocating large buffers elsewhere.
void release_pooled_device_memory();

// Throws InputError naming the closest suite kernels when name is unknown.
std::unique_ptr<KernelRunner> make_kernel_runner(std::string_view name);

}  // namespace roofline

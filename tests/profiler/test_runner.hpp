#pragma once
// A tiny KernelRunner for the profiler's own tests, independent of the kernel suite.
#include <cstdint>
#include <memory>

#include "kernels/kernel_runner.hpp"

namespace roofline::test {

enum class TestKernel {
  read,        // reads n floats, stores nothing (a never-true conditional store)
  scale,       // y[i] = 2 x[i] + 1
  scale_twice, // the scale kernel launched twice per launch() (two ranges)
  wrong,       // like scale but writes a wrong value at element 7 (fails verification)
  memcpy,      // cudaMemcpyAsync device to device: no kernel
};

std::unique_ptr<KernelRunner> make_test_runner(TestKernel kind);
// Registers per thread of the test kernels as the runtime reports them (cudaFuncGetAttributes).
int test_kernel_registers(TestKernel kind);

}  // namespace roofline::test

// CPU tests of the runner's side that needs no device: buffer plans, useful bytes, argument
// checks and names.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/builtin_kernels.hpp"
#include "kernels/kernel_impl.hpp"
#include "kernels/kernel_runner.hpp"
#include "models/error.hpp"
#include "suite_names.hpp"

namespace roofline {
namespace {

using kernels::find_kernel_impl;

TEST(KernelPlan, EverySpecHasAnImplementationAndBack) {
  std::vector<std::string> impls;
  for (const auto& k : kernels::all_kernel_impls()) impls.emplace_back(k.name);
  EXPECT_EQ(impls, kSuiteNames);
  for (const auto& name : kSuiteNames) EXPECT_NE(find_builtin_kernel(name), nullptr) << name;
}

TEST(KernelPlan, BufferSizes) {
  const std::int64_t n = 1000;
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("add_f32"), n), 3 * 4 * n);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("add_f16x8_pack"), n), 3 * 2 * n);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("add_bf16x8"), n), 3 * 2 * n);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("add_fp8_e4m3"), n), 3 * n);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("write_only_f32"), n), 4 * n);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("write_only_f32_stride8"), n), 8 * 4 * n);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("read_only_f32"), n), 2 * 4 * n + 4);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("hadamard3_unfused"), n), 5 * 4 * n);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("hadamard3_fused"), n), 4 * 4 * n);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("copy_d2d"), n), 2 * 4 * n);
}

TEST(KernelPlan, UsefulBytesCountEachInputAndOutputOnce) {
  const std::int64_t n = 1 << 20;
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("add_f32"), n), 12 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("add_f16"), n), 6 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("add_fp8_e4m3"), n), 3 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("read_only_f32"), n), 8 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("write_only_f32_stride8"), n), 4 * n);
  // The intermediate t of the unfused chain is traffic, not useful bytes: same as fused.
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("hadamard3_unfused"), n), 16 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("hadamard3_fused_f32x4"), n), 16 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("copy_d2d"), n), 8 * n);
}

TEST(KernelPlan, LaunchCounts) {
  EXPECT_EQ(find_kernel_impl("hadamard3_unfused")->kernel_launches, 2);
  EXPECT_EQ(find_kernel_impl("copy_d2d")->kernel_launches, 0);
  EXPECT_EQ(find_kernel_impl("add_f32_cub")->kernel_launches, 1);
  EXPECT_EQ(find_kernel_impl("add_f32")->kernel_launches, 1);
}

TEST(KernelRunnerArguments, UnknownNameNamesTheClosest) {
  try {
    make_kernel_runner("add_f33");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("add_f32"), std::string::npos) << e.what();
  }
}

TEST(KernelRunnerArguments, BadArgumentsAreInputErrorsBeforeAnyCudaCall) {
  auto r = make_kernel_runner("add_f16x8_pack");
  EXPECT_THROW(r->prepare(0, DType::f16, 256, 1), InputError);
  EXPECT_THROW(r->prepare(-5, DType::f16, 256, 1), InputError);
  EXPECT_THROW(r->prepare(1000, DType::f16, 100, 1), InputError);
  EXPECT_THROW(r->prepare(1000, DType::f16, 2048, 1), InputError);
  EXPECT_THROW(r->prepare(1000, DType::f32, 256, 1), InputError);
  EXPECT_THROW(r->launch(nullptr), Error);  // not prepared
  EXPECT_EQ(r->spec().name, "add_f16x8_pack");
  EXPECT_EQ(r->device_bytes(), 0);
}

}  // namespace
}  // namespace roofline

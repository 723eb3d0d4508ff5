// GPU tests: every suite kernel verified against its CPU reference at awkward sizes, and a
// check that the verification notices outputs that were never written.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "kernels/builtin_kernels.hpp"
#include "kernels/kernel_runner.hpp"
#include "models/error.hpp"
#include "suite_names.hpp"

namespace roofline {
namespace {

#define SKIP_WITHOUT_DEVICE()                                                                    \
  do {                                                                                           \
    int count_ = 0;                                                                              \
    const cudaError_t status_ = cudaGetDeviceCount(&count_);                                     \
    if (status_ != cudaSuccess) GTEST_SKIP() << "no CUDA device: " << cudaGetErrorString(status_); \
    if (count_ == 0) GTEST_SKIP() << "no CUDA device: " << cudaGetErrorString(cudaErrorNoDevice); \
  } while (0)

std::unique_ptr<KernelRunner> prepared(const std::string& name, std::int64_t n, int block = 0) {
  auto r = make_kernel_runner(name);
  const KernelSpec& s = r->spec();
  r->prepare(n, s.dtypes.front(), block > 0 ? block : s.default_block, 20240607);
  return r;
}

class EveryKernel : public ::testing::TestWithParam<std::tuple<std::string, std::int64_t>> {};

TEST_P(EveryKernel, VerifiesAgainstTheReference) {
  SKIP_WITHOUT_DEVICE();
  const auto& [name, n] = GetParam();
  auto r = prepared(name, n);
  r->launch(nullptr);
  const VerifyResult v = r->verify();
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_GT(r->useful_bytes(), 0);
  EXPECT_GE(r->device_bytes(), r->useful_bytes() / 2);
  if (name != "copy_d2d" && name != "add_f32_cub") {
    EXPECT_GT(r->grid_blocks(), 0);
  }
  // A second launch over restored buffers verifies too.
  r->restore();
  r->launch(nullptr);
  EXPECT_TRUE(r->verify().ok);
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, EveryKernel,
    ::testing::Combine(::testing::ValuesIn(kSuiteNames),
                       ::testing::Values<std::int64_t>(1, 3, 1000, (1 << 20) + 3, 1 << 24)),
    [](const auto& p) {
      return std::get<0>(p.param) + "_n" + std::to_string(std::get<1>(p.param));
    });

class OtherBlocks : public ::testing::TestWithParam<std::tuple<std::string, int>> {};

TEST_P(OtherBlocks, Verify) {
  SKIP_WITHOUT_DEVICE();
  const auto& [name, block] = GetParam();
  auto r = prepared(name, (1 << 20) + 5, block);
  r->launch(nullptr);
  const VerifyResult v = r->verify();
  EXPECT_TRUE(v.ok) << v.message;
}

INSTANTIATE_TEST_SUITE_P(Blocks, OtherBlocks,
                         ::testing::Combine(::testing::Values("add_f32x4", "add_f16x8_pack", "add_f32x4_ilp4",
                                                              "add_f32_gridstride", "write_only_f32_stride8"),
                                            ::testing::Values(32, 128, 1024)),
                         [](const auto& p) {
                           return std::get<0>(p.param) + "_b" + std::to_string(std::get<1>(p.param));
                         });

TEST(Verification, DetectsOutputsNeverWritten) {
  SKIP_WITHOUT_DEVICE();
  for (const std::string& name : kSuiteNames) {
    if (name == "read_only_f32") continue;  // writes nothing by design
    auto r = prepared(name, 1000);
    const VerifyResult v = r->verify();  // no launch: outputs still poisoned
    EXPECT_FALSE(v.ok) << name;
    EXPECT_NE(v.message.find("never written"), std::string::npos) << name << ": " << v.message;
  }
}

TEST(Verification, RestorePoisonsTheOutputsAgain) {
  SKIP_WITHOUT_DEVICE();
  auto r = prepared("add_f32x4", 4099);
  r->launch(nullptr);
  ASSERT_TRUE(r->verify().ok);
  r->restore();
  EXPECT_FALSE(r->verify().ok);
}

TEST(Verification, GridStrideUsesOneWave) {
  SKIP_WITHOUT_DEVICE();
  int sms = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
  auto r = prepared("add_f32x4_ilp2", 1 << 24);
  EXPECT_GE(r->grid_blocks(), sms);
  EXPECT_LE(r->grid_blocks(), sms * 8);  // at most 2048 threads of 256 per SM
  auto one_shot = prepared("add_f32x4", 1 << 24);
  EXPECT_EQ(one_shot->grid_blocks(), (1 << 24) / 4 / 256);
}

TEST(Verification, SixtyFourBitIndexPath) {
  SKIP_WITHOUT_DEVICE();
  // 8 (2^28 + 3) floats: element indices pass 2^31, so the 64-bit kernel runs.
  const std::int64_t n = (std::int64_t{1} << 28) + 3;
  std::size_t free_bytes = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
  if (free_bytes < static_cast<std::size_t>(n) * 32 + (std::size_t{1} << 30))
    GTEST_SKIP() << "needs " << n * 32 << " bytes of device memory";
  auto r = prepared("write_only_f32_stride8", n);
  r->launch(nullptr);
  const VerifyResult v = r->verify();
  EXPECT_TRUE(v.ok) << v.message;
}

TEST(Verification, TooLargeForTheDeviceIsAnInputError) {
  SKIP_WITHOUT_DEVICE();
  auto r = make_kernel_runner("add_f32");
  try {
    r->prepare(std::int64_t{1} << 39, DType::f32, 256, 1);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bytes"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace roofline

// GPU tests: every suite kernel verified against its CPU reference at awkward sizes, and a
// check that the verification notices outputs that were never written.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>
#include <tuple>

#include "kernels/builtin_kernels.hpp"
#include "kernels/kernel_impl.hpp"
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

// Prepared, launched once and verified (expected to pass).
std::unique_ptr<KernelRunner> launched_and_verified(const std::string& name, std::int64_t n) {
  auto r = prepared(name, n);
  r->launch(nullptr);
  const VerifyResult v = r->verify();
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_GT(r->useful_bytes(), 0);
  return r;
}

using KernelAndSize = std::tuple<std::string, std::int64_t>;
std::string launch_name(const ::testing::TestParamInfo<KernelAndSize>& p) {
  return std::get<0>(p.param) + "_n" + std::to_string(std::get<1>(p.param));
}

class EveryKernel : public ::testing::TestWithParam<KernelAndSize> {};

TEST_P(EveryKernel, VerifiesAgainstTheReference) {
  SKIP_WITHOUT_DEVICE();
  const auto& [name, n] = GetParam();
  auto r = launched_and_verified(name, n);
  EXPECT_GE(r->device_bytes(), r->useful_bytes() / 2);
  if (name != "copy_d2d" && name != "add_f32_cub") {
    EXPECT_GT(r->grid_blocks(), 0);
  }
  // A second launch over restored buffers verifies too.
  r->restore();
  r->launch(nullptr);
  EXPECT_TRUE(r->verify().ok);
}

INSTANTIATE_TEST_SUITE_P(Sizes, EveryKernel,
                         ::testing::Combine(::testing::ValuesIn(kPerElementNames),
                                            ::testing::Values<std::int64_t>(1, 3, 1000, (1 << 20) + 3, 1 << 24)),
                         launch_name);

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
  for (const std::string& name : kPerElementNames) {
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
  EXPECT_EQ(one_shot->grid_blocks(), (1 << 24) / 4 / one_shot->spec().default_block);
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

// The GPU verifier and the CPU reference path agree on every kernel: both pass after a launch,
// and both count the same problems when nothing was launched (outputs still poisoned).
class BothVerifiers : public ::testing::TestWithParam<std::tuple<std::string, std::int64_t>> {};

std::string head(const std::string& message) { return message.substr(0, message.find(';')); }

TEST_P(BothVerifiers, Agree) {
  SKIP_WITHOUT_DEVICE();
  const auto& [name, n] = GetParam();
  auto r = prepared(name, n);
  const VerifyResult gpu_poisoned = r->verify();
  const VerifyResult cpu_poisoned = r->verify_on_host();
  EXPECT_EQ(gpu_poisoned.ok, cpu_poisoned.ok);
  EXPECT_EQ(head(gpu_poisoned.message), head(cpu_poisoned.message)) << gpu_poisoned.message << " | " << cpu_poisoned.message;
  r->launch(nullptr);
  const VerifyResult gpu = r->verify();
  const VerifyResult cpu = r->verify_on_host();
  EXPECT_TRUE(gpu.ok) << gpu.message;
  EXPECT_TRUE(cpu.ok) << cpu.message;
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, BothVerifiers,
    ::testing::Combine(::testing::ValuesIn(kPerElementNames), ::testing::Values<std::int64_t>(1000, (1 << 16) + 3)),
    [](const auto& p) { return std::get<0>(p.param) + "_n" + std::to_string(std::get<1>(p.param)); });

// The patterns suite: sizes its shapes allow (odd matrix sides, partial tiles and blocks
// included), whole-array checks on the host.
std::vector<KernelAndSize> patterns_launches() {
  std::vector<std::tuple<std::string, std::int64_t>> out;
  for (const std::string& name : kPatternsNames) {
    const kernels::KernelImpl& k = *kernels::find_kernel_impl(name);
    // Buffers of one element per per_n (a CSR matrix's 8 nonzeros per row): multiples of it.
    std::int64_t multiple = 1;
    for (const auto& b : k.buffers) multiple = std::max(multiple, b.per_n);
    std::vector<std::int64_t> sizes;
    switch (k.shape) {
      // Sides 1 and 33 (odd, partial blocks), 1000; a buffer of one element per 4 (the
      // upsampling's input) needs an even side: 2, 34.
      case kernels::ProblemShape::square:
        sizes = multiple > 1 ? std::vector<std::int64_t>{4, 34 * 34, 1000 * 1000, 1 << 20, 1 << 24}
                             : std::vector<std::int64_t>{1, 33 * 33, 1000 * 1000, 1 << 20, 1 << 24};
        break;
      case kernels::ProblemShape::rows: sizes = {k.cols, 3 * k.cols, 1 << 20, 1 << 24}; break;
      // Sides 1, 3, 33 (partial blocks in x and y), 64 and 256.
      case kernels::ProblemShape::cube: sizes = {1, 27, 33 * 33 * 33, 1 << 18, 1 << 24}; break;
      default:
        sizes = multiple > 1 ? std::vector<std::int64_t>{multiple, 125 * multiple, (1 << 20) + 3 * multiple, 1 << 24}
                             : std::vector<std::int64_t>{1, 1000, (1 << 20) + 3, 1 << 24};
    }
    for (auto n : sizes) out.emplace_back(name, n);
  }
  return out;
}

class Patterns : public ::testing::TestWithParam<KernelAndSize> {};

TEST_P(Patterns, VerifyAndVerifyAgainAfterRestore) {
  SKIP_WITHOUT_DEVICE();
  const auto& [name, n] = GetParam();
  auto r = launched_and_verified(name, n);
  EXPECT_GT(r->grid_blocks(), 0);
  // restore() zeroes the accumulators (sums, bins) and puts the in-place buffers' seeded
  // values back: a second launch verifies too.
  r->restore();
  r->launch(nullptr);
  const VerifyResult again = r->verify();
  EXPECT_TRUE(again.ok) << again.message;
  EXPECT_EQ(r->verify_on_host().ok, again.ok);
}

INSTANTIATE_TEST_SUITE_P(Sizes, Patterns, ::testing::ValuesIn(patterns_launches()), launch_name);

TEST(PatternsVerification, AccumulatorsMustStartFromZero) {
  SKIP_WITHOUT_DEVICE();
  for (const char* name :
       {"reduce_block_atomic", "reduce_warp_shuffle", "histogram_shared", "histogram_global", "dot_gridstride",
        "histogram_weighted_f32", "scatter_add_f32", "col_mean_tiled_f32"}) {
    auto r = prepared(name, 1 << 20);
    r->launch(nullptr);
    r->launch(nullptr);  // no restore: twice the sum, twice the counts, twice the means
    EXPECT_FALSE(r->verify().ok) << name;
  }
}

// In-place buffers start from their seeded values: a second launch without restore() moves
// Adam's parameters twice; restore() puts them back. Sorting is idempotent, so an unsorted
// (never launched) segment is what tells the sort's check works.
TEST(PatternsVerification, InPlaceBuffersStartFromTheirSeededValues) {
  SKIP_WITHOUT_DEVICE();
  auto adam = prepared("adam_step_f32", 1 << 20);
  EXPECT_FALSE(adam->verify().ok);  // not launched: param, m and v still as seeded
  adam->launch(nullptr);
  adam->launch(nullptr);
  EXPECT_FALSE(adam->verify().ok);
  adam->restore();
  adam->launch(nullptr);
  const VerifyResult once = adam->verify();
  EXPECT_TRUE(once.ok) << once.message;
  auto sort = prepared("bitonic_sort_block_f32", 1 << 20);
  EXPECT_FALSE(sort->verify().ok);
  sort->launch(nullptr);
  sort->launch(nullptr);
  EXPECT_TRUE(sort->verify().ok);
  // The verified values are the seed's, not whatever the buffer held: restore() unsorts it.
  sort->restore();
  EXPECT_FALSE(sort->verify().ok);
}

TEST(PatternsVerification, DetectsOutputsNeverWritten) {
  SKIP_WITHOUT_DEVICE();
  for (const char* name : {"transpose_naive", "transpose_tiled_padded", "stencil5_2d", "sgemm_naive", "sgemm_tiled",
                           "softmax_row", "layernorm_row", "gather_random", "spmv_csr_row", "gemv_warp_row",
                           "scan_block", "conv1d_r3", "embedding_gather_f32", "stencil7_3d_f32", "bias_gelu_f32",
                           "column_sum_f32", "upsample2x_nearest_f32", "spmv_csr_warp_f32", "rope_f32",
                           "permute_0213_f32", "dequant_int8_rowscale_f32", "embedding_bag_sum_f32", "swiglu_f32",
                           "rmsnorm_row_f32", "cross_entropy_row_f32", "bias_relu_f16x2", "bilinear_up2x_f32",
                           "argmax_row_f32", "im2col3x3_f32", "poly_horner_f32", "poly_horner_f16x2",
                           "normalize_vec3_f32"}) {
    auto r = prepared(name, std::string(name) == "stencil7_3d_f32" ? 1 << 21 : 1 << 20);  // 128^3: a cube
    const VerifyResult v = r->verify();
    EXPECT_FALSE(v.ok) << name;
    EXPECT_NE(v.message.find("never written"), std::string::npos) << name << ": " << v.message;
  }
}

// The second, third, fourth, sixth, seventh, eighth and ninth batches' kernels that take any
// block: partial blocks (a GEMV's rows per block of 96 threads: 3; a 3-D tile of 32 x 3; 4096
// columns over blocks of 96; bags of 128 split between blocks of 96; a row's columns 42 or 43 to
// a thread; column means over 32 x 3 blocks and 37 rows, 1 / 37 inexact; half2 pairs of rows of
// 4096 over blocks of 96; 32 x 3 tiles of a bilinear output of side 66 and an im2col image of
// side 37, both odd numbers of them; argmax rows 3 to a block of 96; an FP16 polynomial of an odd
// n, its last half alone) and single-warp blocks verify too.
TEST(PatternsVerification, OtherBlocks) {
  SKIP_WITHOUT_DEVICE();
  const auto n_of = [](const std::string& name) -> std::int64_t {
    if (name == "gemv_warp_row") return 5 * 1024;
    if (name == "embedding_gather_f32") return 1001 * 128;  // rows of 128: 1001 warps
    if (name == "bias_gelu_f32") return 37 * 4096;          // rows of 4096
    if (name == "stencil7_3d_f32") return 33 * 33 * 33;     // a cube of side 33
    if (name == "column_sum_f32") return 37 * 4096;         // 37 rows of 4096 (a remainder trip)
    if (name == "upsample2x_nearest_f32") return 66 * 66;   // side 66: partial blocks, a row pair split at 32 x 1
    if (name == "spmv_csr_warp_f32") return 1001 * 32;      // 1001 rows: 1001 warps
    if (name == "rope_f32" || name == "embedding_bag_sum_f32") return 37 * 128;  // 37 rows (bags) of 128
    if (name == "permute_0213_f32") return 37 * 1024;       // 37 tokens
    if (name == "dequant_int8_rowscale_f32") return 37 * 4096;  // 37 rows of 4096
    if (name == "swiglu_f32" || name == "rmsnorm_row_f32") return 37 * 4096;         // 37 rows of 4096
    if (name == "cross_entropy_row_f32" || name == "col_mean_tiled_f32") return 37 * 1024;  // 37 rows of 1024
    if (name == "bias_relu_f16x2") return 37 * 4096;             // 37 rows of 4096 halves
    if (name == "bilinear_up2x_f32") return 66 * 66;            // output side 66, input side 33
    if (name == "argmax_row_f32") return 37 * 1024;             // 37 rows of 1024: 37 warps
    if (name == "im2col3x3_f32") return 37 * 37;                // an image of side 37
    if (name == "poly_horner_f16x2") return (1 << 20) + 25;     // odd: the last half alone
    return (1 << 20) + 24;
  };
  for (const char* name : {"gather_random", "spmv_csr_row", "gemv_warp_row", "dot_gridstride", "conv1d_r3",
                           "histogram_weighted_f32", "scatter_add_f32", "embedding_gather_f32", "stencil7_3d_f32",
                           "bias_gelu_f32", "adam_step_f32", "column_sum_f32", "upsample2x_nearest_f32",
                           "spmv_csr_warp_f32", "rope_f32", "permute_0213_f32", "dequant_int8_rowscale_f32",
                           "embedding_bag_sum_f32", "swiglu_f32", "rmsnorm_row_f32", "cross_entropy_row_f32",
                           "col_mean_tiled_f32", "bias_relu_f16x2", "bilinear_up2x_f32", "argmax_row_f32",
                           "im2col3x3_f32", "poly_horner_f32", "poly_horner_f16x2", "normalize_vec3_f32"})
    for (int block : {32, 96, 1024}) {
      auto r = prepared(name, n_of(name), block);
      r->launch(nullptr);
      const VerifyResult v = r->verify();
      EXPECT_TRUE(v.ok) << name << " block " << block << ": " << v.message;
    }
}

// im2col's 9 n outputs pass 2^31 elements at the suite's 2^28, where the 64-bit kernel runs: an
// image of side 15400 (9 n = 2.13e9, past the 32-bit margin) takes it too, verified whole.
TEST(PatternsVerification, Im2colSixtyFourBitIndexPath) {
  SKIP_WITHOUT_DEVICE();
  const std::int64_t n = std::int64_t{15400} * 15400;
  std::size_t free_bytes = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
  if (free_bytes < static_cast<std::size_t>(n) * 40 + (std::size_t{1} << 30))
    GTEST_SKIP() << "needs " << n * 40 << " bytes of device memory";
  auto r = prepared("im2col3x3_f32", n);
  r->launch(nullptr);
  const VerifyResult v = r->verify();
  EXPECT_TRUE(v.ok) << v.message;
}

void poke(KernelRunner& r, std::size_t buffer, std::int64_t element, float value) {
  ASSERT_NE(r.device_buffer(buffer), nullptr);
  ASSERT_EQ(cudaMemcpy(static_cast<float*>(r.device_buffer(buffer)) + element, &value, sizeof value,
                       cudaMemcpyHostToDevice),
            cudaSuccess);
}

TEST(Verification, BothVerifiersFindAWrongValue) {
  SKIP_WITHOUT_DEVICE();
  auto r = prepared("add_f32x4", 4099);
  r->launch(nullptr);
  ASSERT_TRUE(r->verify().ok);
  poke(*r, 2, 17, 1234.5f);  // c[17]
  for (const VerifyResult& v : {r->verify(), r->verify_on_host()}) {
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.message.find("1 wrong element(s)"), std::string::npos) << v.message;
    EXPECT_NE(v.message.find("c[17]: got 1234.5"), std::string::npos) << v.message;
  }
}

TEST(Verification, BothVerifiersFindAChangedInput) {
  SKIP_WITHOUT_DEVICE();
  auto r = prepared("hadamard3_unfused", 4099);
  r->launch(nullptr);
  ASSERT_TRUE(r->verify().ok);
  poke(*r, 1, 5, 7.0f);  // b[5]: outside the inputs' [-1, 1) grid
  for (const VerifyResult& v : {r->verify(), r->verify_on_host()}) {
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.message.find("input changed"), std::string::npos) << v.message;
  }
}

TEST(Verification, BothVerifiersFindAWrittenGapAndIntermediate) {
  SKIP_WITHOUT_DEVICE();
  auto r = prepared("write_only_f32_stride8", 1000);
  r->launch(nullptr);
  ASSERT_TRUE(r->verify().ok);
  poke(*r, 0, 8 * 3 + 1, 0.75f);  // out[25]: a gap
  for (const VerifyResult& v : {r->verify(), r->verify_on_host()}) {
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.message.find("out[25]: written, but only every 8th"), std::string::npos) << v.message;
  }
  auto h = prepared("hadamard3_unfused", 1000);
  h->launch(nullptr);
  poke(*h, 3, 9, 3.0f);  // t[9]: the intermediate
  for (const VerifyResult& v : {h->verify(), h->verify_on_host()}) {
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.message.find("t[9]: got 3"), std::string::npos) << v.message;
  }
}

TEST(Verification, SinkWrittenIsReported) {
  SKIP_WITHOUT_DEVICE();
  auto r = prepared("read_only_f32", 1000);
  r->launch(nullptr);
  ASSERT_TRUE(r->verify().ok);
  poke(*r, 2, 0, 1.0f);
  const VerifyResult v = r->verify();
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("sink must stay untouched"), std::string::npos) << v.message;
}

TEST(Verification, FreshInputsPerSeedAndBuffersReused) {
  SKIP_WITHOUT_DEVICE();
  release_pooled_device_memory();  // else an earlier test's block of the smaller size comes back
  auto r = make_kernel_runner("add_f32");
  r->prepare(1 << 20, DType::f32, 256, 1);
  std::vector<float> a1(16), a2(16);
  ASSERT_EQ(cudaMemcpy(a1.data(), r->device_buffer(0), 64, cudaMemcpyDeviceToHost), cudaSuccess);
  void* const first = r->device_buffer(0);
  r->prepare(1 << 19, DType::f32, 256, 2);  // smaller: the same allocations come back
  ASSERT_EQ(cudaMemcpy(a2.data(), r->device_buffer(0), 64, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_NE(a1, a2);
  bool reused = false;
  for (std::size_t k = 0; k < 3; ++k) reused = reused || r->device_buffer(k) == first;
  EXPECT_TRUE(reused);
  r->launch(nullptr);
  EXPECT_TRUE(r->verify().ok);
}

// Where a small table lies decides how its lines spread over the L2's slices and so the rate of
// atomics into it (docs/results/h100/atomic-flush/placement.txt): every buffer starts on a 2 MiB
// boundary, whatever was allocated before it, so that such a kernel measures the same every time.
TEST(Verification, EveryBufferStartsOnATwoMebibyteBoundary) {
  SKIP_WITHOUT_DEVICE();
  const auto add = prepared("add_f32", 1000);  // 4 KB buffers
  const auto histogram = prepared("histogram_weighted_f32", 1 << 16);  // 4 KiB of bins after 256 KiB inputs
  for (const KernelRunner* r : {add.get(), histogram.get()})
    for (std::size_t k = 0; k < 3; ++k) {
      const auto address = reinterpret_cast<std::uintptr_t>(r->device_buffer(k));
      EXPECT_EQ(address % (std::uintptr_t{2} << 20), 0u) << r->spec().name << " buffer " << k;
    }
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

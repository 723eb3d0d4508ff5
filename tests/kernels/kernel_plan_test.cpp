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
  // In whole 2 MiB blocks, as prepare() allocates: each of add_f32's three 4000-byte buffers
  // takes one; read_only_f32's 4-byte sink takes one too; 3 MiB take two.
  constexpr std::int64_t kMiB = 1 << 20;
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("add_f32"), n, 2 * kMiB), 3 * 2 * kMiB);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("read_only_f32"), n, 2 * kMiB), 3 * 2 * kMiB);
  EXPECT_EQ(kernels::allocated_bytes(3 * kMiB, 2 * kMiB), 4 * kMiB);
  EXPECT_EQ(kernels::allocated_bytes(2 * kMiB, 2 * kMiB), 2 * kMiB);
}

TEST(KernelPlan, PatternsBufferSizes) {
  const std::int64_t n = 1 << 20;
  // Fixed-size buffers: one float of sum, 256 u32 bins, gamma and beta of 1024 floats.
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("reduce_block_atomic"), n), 4 * n + 4);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("histogram_shared"), n), n + 4 * 256);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("layernorm_row"), n), 2 * 4 * n + 2 * 4 * 1024);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("sgemm_tiled"), n), 3 * 4 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("reduce_warp_shuffle"), n), 4 * n + 4);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("histogram_global_skewed"), n), n + 4 * 256);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("transpose_naive"), n), 8 * n);
  // The second held-out batch. gather: i32 indices, x and out of n each.
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("gather_random"), n), 3 * 4 * n);
  // CSR of n nonzeros, 8 per row: n / 8 + 1 row offsets, n columns and values, x and y of n / 8.
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("spmv_csr_row"), n), 4 * (n / 8 + 1) + 2 * 4 * n + 2 * 4 * (n / 8));
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("spmv_csr_row"), n), 4 * (n / 8 + 1) + 2 * 4 * n + 2 * 4 * (n / 8));
  // GEMV: A of n, x of one row (1024), y of n / 1024 rows.
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("gemv_warp_row"), n), 4 * n + 4 * 1024 + 4 * (n / 1024));
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("gemv_warp_row"), n), 4 * n + 4 * 1024 + 4 * (n / 1024));
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("dot_gridstride"), n), 2 * 4 * n + 4);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("scan_block"), n), 2 * 4 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("conv1d_r3"), n), 2 * 4 * n);
  // The third held-out batch. Weighted histogram: i32 keys and f32 weights of n, 1024 f32 bins.
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("histogram_weighted_f32"), n), 2 * 4 * n + 4 * 1024);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("histogram_weighted_f32"), n), 2 * 4 * n + 4 * 1024);
  // Scatter: i32 targets and f32 values of n, n / 4 targets.
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("scatter_add_f32"), n), 2 * 4 * n + 4 * (n / 4));
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("scatter_add_f32"), n), 2 * 4 * n + 4 * (n / 4));
  // Embedding: n / 128 ids, a table of n / 128 rows of 128 floats, out of n.
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("embedding_gather_f32"), n), 4 * (n / 128) + 2 * 4 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("embedding_gather_f32"), n), 4 * (n / 128) + 2 * 4 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("stencil7_3d_f32"), n), 2 * 4 * n);
  // Bias + GELU: x and y of n, a bias of 4096.
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("bias_gelu_f32"), n), 2 * 4 * n + 4 * 4096);
  // The fourth held-out batch. Adam: param, grad, m, v of n; param, m and v are read and
  // written (in place), grad only read.
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("adam_step_f32"), n), 4 * 4 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("adam_step_f32"), n), (3 * 2 + 1) * 4 * n);
  // Column sums: a of n, 4096 sums.
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("column_sum_f32"), n), 4 * n + 4 * 4096);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("column_sum_f32"), n), 4 * n + 4 * 4096);
  // Upsampling: an input of n / 4, an output of n.
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("upsample2x_nearest_f32"), n), 4 * (n / 4) + 4 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("upsample2x_nearest_f32"), n), 4 * (n / 4) + 4 * n);
  // Sort: one array of n, read and written in place.
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("bitonic_sort_block_f32"), n), 4 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("bitonic_sort_block_f32"), n), 2 * 4 * n);
  // CSR of n nonzeros, 32 per row: n / 32 + 1 row offsets, n columns and values, x and y of n / 32.
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("spmv_csr_warp_f32"), n),
            4 * (n / 32 + 1) + 2 * 4 * n + 2 * 4 * (n / 32));
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("spmv_csr_warp_f32"), n),
            4 * (n / 32 + 1) + 2 * 4 * n + 2 * 4 * (n / 32));
  // The sixth held-out batch. RoPE: x and out of n, two tables of n / 2.
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("rope_f32"), n), 2 * 4 * n + 2 * 4 * (n / 2));
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("permute_0213_f32"), n), 2 * 4 * n);
  // Dequantisation: n bytes of q, a scale per row of 4096, y of n floats.
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("dequant_int8_rowscale_f32"), n),
            n + 4 * (n / 4096) + 4 * n);
  // Embedding bag: n / 16 indices, a table of 8 n floats (its useful bytes, as a spread buffer's,
  // count n of them), out of n.
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("embedding_bag_sum_f32"), n),
            4 * (n / 16) + 8 * 4 * n + 4 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("embedding_bag_sum_f32"), n), 4 * (n / 16) + 2 * 4 * n);
  for (const auto& name : kPatternsNames) {
    const kernels::KernelImpl* k = find_kernel_impl(name);
    ASSERT_NE(k, nullptr) << name;
    EXPECT_NE(k->host_check, nullptr) << name;
    EXPECT_EQ(k->reference, nullptr) << name;
  }
}

// The seventh held-out batch. SwiGLU: x of 2 n floats (its useful bytes, as a spread buffer's,
// count n of them), out of n; RMSNorm: x and out of n, a weight of 4096; cross-entropy: n
// logits, a target and a loss per row of 1024; column means: a of n, 1024 means.
TEST(KernelPlan, SeventhBatchBufferSizes) {
  const std::int64_t n = 1 << 20;
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("swiglu_f32"), n), 2 * 4 * n + 4 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("swiglu_f32"), n), 2 * 4 * n);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("rmsnorm_row_f32"), n), 2 * 4 * n + 4 * 4096);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("cross_entropy_row_f32"), n), 4 * n + 2 * 4 * (n / 1024));
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("cross_entropy_row_f32"), n), 4 * n + 2 * 4 * (n / 1024));
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("col_mean_tiled_f32"), n), 4 * n + 4 * 1024);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("col_mean_tiled_f32"), n), 4 * n + 4 * 1024);
}

// The eighth held-out batch. Bias + ReLU: x and out of n halves, a bias of 4096; bilinear: in of
// n / 4, out of n (n counts the output); argmax: x of n, an int32 per row of 1024; im2col: in of
// n, out of 9 n (its useful bytes, as a spread buffer's, count n of them). im2col fits an 80 GB
// GPU at 2^28: 10 GiB.
TEST(KernelPlan, EighthBatchBufferSizes) {
  const std::int64_t n = 1 << 20;
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("bias_relu_f16x2"), n), 2 * 2 * n + 2 * 4096);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("bias_relu_f16x2"), n), 2 * 2 * n + 2 * 4096);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("bilinear_up2x_f32"), n), 4 * (n / 4) + 4 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("bilinear_up2x_f32"), n), 4 * (n / 4) + 4 * n);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("argmax_row_f32"), n), 4 * n + 4 * (n / 1024));
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("argmax_row_f32"), n), 4 * n + 4 * (n / 1024));
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("im2col3x3_f32"), n), 4 * n + 9 * 4 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("im2col3x3_f32"), n), 2 * 4 * n);
  const std::int64_t big = std::int64_t{1} << 28;
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("im2col3x3_f32"), big), 10 * 4 * big);
}

// The ninth held-out batch. The polynomials: x and y of n floats, or of n halves; normalize: v
// and out of n 3-vectors, 3 n floats each (their useful bytes, as a spread buffer's, count n).
TEST(KernelPlan, NinthBatchBufferSizes) {
  const std::int64_t n = 1 << 20;
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("poly_horner_f32"), n), 4 * n + 4 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("poly_horner_f32"), n), 4 * n + 4 * n);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("poly_horner_f16x2"), n), 2 * n + 2 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("poly_horner_f16x2"), n), 2 * n + 2 * n);
  EXPECT_EQ(kernels::total_device_bytes(*find_kernel_impl("normalize_vec3_f32"), n), 12 * n + 12 * n);
  EXPECT_EQ(kernels::useful_bytes(*find_kernel_impl("normalize_vec3_f32"), n), 4 * n + 4 * n);
}

// A rows kernel checks n against its own row length: the spec's `cols`.
TEST(KernelPlan, RowKernelsHaveTheirSpecsRowLength) {
  for (const auto& k : kernels::all_kernel_impls()) {
    if (k.shape != kernels::ProblemShape::rows) continue;
    const KernelSpec* spec = find_builtin_kernel(k.name);
    ASSERT_NE(spec, nullptr) << k.name;
    EXPECT_EQ(spec->shape, Shape::rows) << k.name;
    EXPECT_EQ(spec->cols, k.cols) << k.name;
  }
  EXPECT_EQ(find_kernel_impl("bias_gelu_f32")->cols, 4096);
  EXPECT_EQ(find_kernel_impl("softmax_row")->cols, 1024);
  EXPECT_EQ(find_kernel_impl("column_sum_f32")->cols, 4096);
  EXPECT_EQ(find_kernel_impl("bitonic_sort_block_f32")->cols, 1024);
  EXPECT_EQ(find_kernel_impl("spmv_csr_warp_f32")->cols, 32);
  EXPECT_EQ(find_kernel_impl("rope_f32")->cols, 128);
  EXPECT_EQ(find_kernel_impl("permute_0213_f32")->cols, 1024);
  EXPECT_EQ(find_kernel_impl("dequant_int8_rowscale_f32")->cols, 4096);
  EXPECT_EQ(find_kernel_impl("embedding_bag_sum_f32")->cols, 128);
  EXPECT_EQ(find_kernel_impl("swiglu_f32")->cols, 4096);
  EXPECT_EQ(find_kernel_impl("rmsnorm_row_f32")->cols, 4096);
  EXPECT_EQ(find_kernel_impl("cross_entropy_row_f32")->cols, 1024);
  EXPECT_EQ(find_kernel_impl("col_mean_tiled_f32")->cols, 1024);
  EXPECT_EQ(find_kernel_impl("bias_relu_f16x2")->cols, 4096);
  EXPECT_EQ(find_kernel_impl("argmax_row_f32")->cols, 1024);
}

// In-place buffers: the kernels that update their data where it lies (Adam's param, m and v;
// the sorted segments; the strided SAXPY's y) and no other.
TEST(KernelPlan, InPlaceBuffersAreTheUpdatedOnes) {
  std::vector<std::string> in_place;
  for (const auto& k : kernels::all_kernel_impls())
    for (const auto& b : k.buffers)
      if (b.role == kernels::BufferRole::in_place) {
        in_place.push_back(std::string(k.name) + "." + std::string(b.name));
        EXPECT_NE(k.host_check, nullptr) << k.name << ": in-place buffers are checked by a HostCheck";
      }
  EXPECT_EQ(in_place, (std::vector<std::string>{"adam_step_f32.param", "adam_step_f32.m", "adam_step_f32.v",
                                                "bitonic_sort_block_f32.x", "saxpy_stride2_f32.y"}));
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

TEST(KernelRunnerArguments, PatternsShapesAndBlocksAreInputErrorsBeforeAnyCudaCall) {
  const auto message = [](const char* name, std::int64_t n, int block) {
    try {
      make_kernel_runner(name)->prepare(n, find_builtin_kernel(name)->dtypes.front(), block, 1);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("transpose_naive", 1000, 256).find("perfect square"), std::string::npos);
  EXPECT_NE(message("sgemm_naive", (1 << 20) + 1, 256).find("perfect square"), std::string::npos);
  EXPECT_NE(message("softmax_row", 1000, 256).find("multiple of 1024"), std::string::npos);
  EXPECT_NE(message("sgemm_tiled", 1 << 20, 128).find("blocks of 256"), std::string::npos);
  EXPECT_NE(message("transpose_tiled_padded", 1 << 20, 1024).find("blocks of 256"), std::string::npos);
  EXPECT_THROW(make_kernel_runner("histogram_shared")->prepare(1000, DType::f32, 256, 1), InputError);  // u8 data
  EXPECT_NE(message("spmv_csr_row", 1001, 256).find("multiple of 8"), std::string::npos);
  EXPECT_NE(message("gemv_warp_row", 1000, 256).find("multiple of 1024"), std::string::npos);
  EXPECT_NE(message("scan_block", 1 << 20, 512).find("blocks of 256"), std::string::npos);
  EXPECT_NE(message("scan_block", 1000, 256).find("multiple of 1024"), std::string::npos);
  // The third batch: a cube, rows of 4096, ids per row of 128, targets per 4 elements.
  EXPECT_NE(message("stencil7_3d_f32", 1 << 20, 256).find("perfect cube"), std::string::npos);
  EXPECT_NE(message("stencil7_3d_f32", (1 << 21) + 1, 256).find("perfect cube"), std::string::npos);
  EXPECT_NE(message("bias_gelu_f32", 1024, 256).find("multiple of 4096"), std::string::npos);
  EXPECT_NE(message("embedding_gather_f32", 1000, 256).find("multiple of 128"), std::string::npos);
  EXPECT_NE(message("scatter_add_f32", 1001, 256).find("multiple of 4"), std::string::npos);
  // The fourth batch: a square of an even side, rows of 4096 and of 1024 (in blocks of 512),
  // rows of 32 nonzeros.
  EXPECT_NE(message("upsample2x_nearest_f32", 1000, 256).find("perfect square"), std::string::npos);
  EXPECT_NE(message("upsample2x_nearest_f32", 33 * 33, 256).find("multiple of 4"), std::string::npos);
  EXPECT_NE(message("column_sum_f32", 1024, 256).find("multiple of 4096"), std::string::npos);
  EXPECT_NE(message("bitonic_sort_block_f32", 1 << 20, 256).find("blocks of 512"), std::string::npos);
  EXPECT_NE(message("bitonic_sort_block_f32", 1000, 512).find("multiple of 1024"), std::string::npos);
  EXPECT_NE(message("spmv_csr_warp_f32", 1000, 256).find("multiple of 32"), std::string::npos);
  // The seventh batch: rows of 4096 (SwiGLU's outputs, RMSNorm) and of 1024, any block.
  EXPECT_NE(message("swiglu_f32", 1024, 256).find("multiple of 4096"), std::string::npos);
  EXPECT_NE(message("rmsnorm_row_f32", 3 * 1024, 256).find("multiple of 4096"), std::string::npos);
  EXPECT_NE(message("cross_entropy_row_f32", 1000, 256).find("multiple of 1024"), std::string::npos);
  EXPECT_NE(message("col_mean_tiled_f32", 1000, 256).find("multiple of 1024"), std::string::npos);
  EXPECT_NO_THROW(make_kernel_runner("col_mean_tiled_f32")->check(37 * 1024, DType::f32, 96));
  // The eighth batch: FP16 rows of 4096, two squares (the bilinear's output of an even side),
  // rows of 1024; any block.
  EXPECT_NE(message("bias_relu_f16x2", 2048, 256).find("multiple of 4096"), std::string::npos);
  EXPECT_THROW(make_kernel_runner("bias_relu_f16x2")->check(4096, DType::f32, 256), InputError);  // halves only
  EXPECT_NE(message("bilinear_up2x_f32", 1000, 256).find("perfect square"), std::string::npos);
  EXPECT_NE(message("bilinear_up2x_f32", 33 * 33, 256).find("multiple of 4"), std::string::npos);
  EXPECT_NE(message("argmax_row_f32", 1000, 256).find("multiple of 1024"), std::string::npos);
  EXPECT_NE(message("im2col3x3_f32", 1000, 256).find("perfect square"), std::string::npos);
  EXPECT_NO_THROW(make_kernel_runner("im2col3x3_f32")->check(33 * 33, DType::f32, 96));
  EXPECT_NO_THROW(make_kernel_runner("argmax_row_f32")->check(37 * 1024, DType::f32, 96));
  // The ninth batch: any n (the FP16 polynomial's odd last half alone), any block; halves only
  // for the FP16 one.
  EXPECT_NO_THROW(make_kernel_runner("poly_horner_f32")->check(1001, DType::f32, 96));
  EXPECT_NO_THROW(make_kernel_runner("poly_horner_f16x2")->check(1001, DType::f16, 96));
  EXPECT_THROW(make_kernel_runner("poly_horner_f16x2")->check(1000, DType::f32, 256), InputError);
  EXPECT_NO_THROW(make_kernel_runner("normalize_vec3_f32")->check(1001, DType::f32, 96));
  EXPECT_NO_THROW(make_kernel_runner("upsample2x_nearest_f32")->check(34 * 34, DType::f32, 256));
  EXPECT_NO_THROW(make_kernel_runner("adam_step_f32")->check(1001, DType::f32, 96));
  // check() says the same without preparing: measure and run leave such launches out up front.
  EXPECT_THROW(make_kernel_runner("stencil7_3d_f32")->check(1 << 20, DType::f32, 256), InputError);
  EXPECT_NO_THROW(make_kernel_runner("stencil7_3d_f32")->check(1 << 21, DType::f32, 256));
}

}  // namespace
}  // namespace roofline

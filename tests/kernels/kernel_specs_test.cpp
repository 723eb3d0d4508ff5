// CPU tests of the built-in specs and the compiler's resource table (no CUDA needed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kernels/builtin_kernels.hpp"
#include "kernels/resource_usage.hpp"
#include "suite_names.hpp"

namespace roofline {
namespace {

TEST(BuiltinKernels, EverySpecParses) {
  std::span<const KernelSpec> suite;
  ASSERT_NO_THROW(suite = builtin_kernels());
  EXPECT_EQ(suite.size(), kSuiteNames.size());
  for (const KernelSpec& k : suite) {
    EXPECT_FALSE(k.passes.empty()) << k.name;
    EXPECT_FALSE(k.dtypes.empty()) << k.name;
    EXPECT_FALSE(k.description.empty()) << k.name;
    EXPECT_FALSE(k.origin.empty()) << k.name;
    // The blog experiments' 256 threads per block; add_f32x4 runs 1024 (tuned on the H100, blocks.txt);
    // the bitonic sort's blocks are written for 512 threads (two elements each of a 1024 segment).
    const int block = k.name == "add_f32x4" ? 1024 : k.name == "bitonic_sort_block_f32" ? 512 : 256;
    EXPECT_EQ(k.default_block, block) << k.name;
    for (const KernelPass& p : k.passes) EXPECT_FALSE(p.arrays.empty()) << k.name;
  }
}

TEST(BuiltinKernels, NamesAreTheIssueList) {
  std::vector<std::string> names;
  for (const KernelSpec& k : builtin_kernels()) names.push_back(k.name);
  EXPECT_EQ(names, kSuiteNames);
}

TEST(BuiltinKernels, CategoriesAreTheSuites) {
  const std::set<std::string> allowed{"elementwise", "techniques", "probes", "hadamard", "reference", "patterns"};
  std::map<std::string, int> count;
  for (const KernelSpec& k : builtin_kernels()) {
    EXPECT_TRUE(allowed.count(k.category)) << k.name << ": " << k.category;
    ++count[k.category];
  }
  EXPECT_EQ(count["elementwise"], 8);
  EXPECT_EQ(count["techniques"], 5);
  EXPECT_EQ(count["probes"], 5);
  EXPECT_EQ(count["hadamard"], 3);
  EXPECT_EQ(count["reference"], 2);
  EXPECT_EQ(count["patterns"], 47);
}

// The development / held-out split of docs/accuracy.md, as the specs record it (`held_out =
// true`; read from the files: the parser does not keep the key yet).
TEST(BuiltinKernels, PatternsHeldOutSplit) {
  std::vector<std::string> held_out;
  for (const char* family :
       {"patterns_reduce", "patterns_transpose", "patterns_stencil", "patterns_histogram", "patterns_sgemm",
        "patterns_rows", "patterns_sparse", "patterns_vector", "patterns_scan", "patterns_conv", "patterns_scatter",
        "patterns_embed", "patterns_stencil3d", "patterns_gelu", "patterns4_adam", "patterns4_colsum",
        "patterns4_upsample", "patterns4_sort", "patterns4_spmv", "patterns5_pool", "patterns5_saxpy",
        "patterns5_blur", "patterns6_rope", "patterns6_permute", "patterns6_dequant", "patterns6_bag",
        "patterns7_swiglu", "patterns7_rmsnorm", "patterns7_crossentropy", "patterns7_colmean",
        "patterns8_biasrelu", "patterns8_bilinear", "patterns8_argmax", "patterns8_im2col", "patterns9_poly",
        "patterns9_normalize"}) {
    const std::string path = std::string(ROOFLINE_SOURCE_DIR) + "/kernels/" + family + ".toml";
    std::ifstream in(path);
    ASSERT_TRUE(in) << path;
    std::string line, name;
    while (std::getline(in, line)) {
      if (line.rfind("name = \"", 0) == 0) name = line.substr(8, line.find('"', 8) - 8);
      if (line == "held_out = true") held_out.push_back(name);
    }
  }
  std::sort(held_out.begin(), held_out.end());
  std::vector<std::string> expected = kHeldOutNames;
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(held_out, expected);
}

// The first pass of a held-out patterns kernel.
const KernelPass& pass_of(const char* name) {
  const KernelSpec* k = find_builtin_kernel(name);
  EXPECT_NE(k, nullptr) << name;
  EXPECT_TRUE(k->held_out) << name;
  EXPECT_EQ(k->category, "patterns") << name;
  return k->passes.at(0);
}

// The second held-out batch's specs say what their code does (patterns_sparse.cu,
// patterns_vector.cu, patterns_scan.cu, patterns_conv.cu).
TEST(BuiltinKernels, SecondHeldOutBatchDescribesItsCode) {
  // Gathers: the random load waits on the index load.
  const KernelPass& gather = pass_of("gather_random");
  EXPECT_EQ(gather.arrays.at(1).pattern, AccessPattern::random);
  EXPECT_EQ(gather.arrays.at(1).depends_on, "idx");
  EXPECT_EQ(gather.arrays.at(0).type, DType::i32);
  // CSR: 8 nonzeros per row, one thread per row, x and y of n / 8.
  const KernelSpec& spmv = *find_builtin_kernel("spmv_csr_row");
  EXPECT_EQ(dimensions(spmv, 1 << 20).rows, (1 << 20) / 8);
  const KernelPass& csr = pass_of("spmv_csr_row");
  EXPECT_EQ(csr.elements_per_thread, 8);
  EXPECT_EQ(csr.grid, GridPolicy::one_shot);
  for (const ArrayAccess& a : csr.arrays)
    if (a.name == "x") {
      EXPECT_EQ(a.pattern, AccessPattern::random);
      EXPECT_EQ(a.depends_on, "col");
      ASSERT_TRUE(a.elements.has_value());
      EXPECT_EQ(a.elements->of, ArrayExtent::Of::rows);
    }
  // GEMV: a warp per row of 1024, 32 columns per lane a warp apart.
  const KernelPass& gemv = pass_of("gemv_warp_row");
  EXPECT_EQ(find_builtin_kernel("gemv_warp_row")->cols, 1024);
  EXPECT_EQ(gemv.elements_per_thread, 32);
  EXPECT_TRUE(gemv.interleaved);
  // Dot: one atomic per warp of the 256-thread block, all on one address.
  const KernelPass& dot = pass_of("dot_gridstride");
  EXPECT_EQ(dot.grid, GridPolicy::grid_stride);
  ASSERT_EQ(dot.atomics.size(), 1u);
  EXPECT_EQ(dot.atomics[0].per_block, 8);
  EXPECT_EQ(dot.atomics[0].addresses, 1);
  // Scan: one block per 1024-element segment, 9 barriers (the totals' store and 8 steps).
  const KernelPass& scan = pass_of("scan_block");
  EXPECT_EQ(scan.grid, GridPolicy::per_row);
  EXPECT_EQ(scan.barriers_per_block, 9);
  EXPECT_EQ(scan.elements_per_thread, 4);
  // Conv: one load from DRAM's lines, six more from L1.
  const KernelPass& conv = pass_of("conv1d_r3");
  EXPECT_EQ(conv.arrays.at(1).per_element, 6);
  EXPECT_EQ(conv.arrays.at(1).reuse, Reuse::l1);
}

// The third held-out batch's specs say what their code does (patterns_scatter.cu,
// patterns_embed.cu, patterns_stencil3d.cu, patterns_gelu.cu).
TEST(BuiltinKernels, ThirdHeldOutBatchDescribesItsCode) {
  // Weighted histogram: grid-stride, one f32 atomic per element over 1024 bins, i32 keys.
  const KernelPass& hist = pass_of("histogram_weighted_f32");
  EXPECT_EQ(hist.grid, GridPolicy::grid_stride);
  ASSERT_EQ(hist.atomics.size(), 1u);
  EXPECT_EQ(hist.atomics[0].per_element, 1);
  EXPECT_EQ(hist.atomics[0].addresses, 1024);
  EXPECT_EQ(hist.arrays.at(0).type, DType::i32);
  // Scatter: one-shot, one atomic per element, no stream for its targets.
  const KernelPass& scatter = pass_of("scatter_add_f32");
  EXPECT_EQ(scatter.grid, GridPolicy::one_shot);
  ASSERT_EQ(scatter.atomics.size(), 1u);
  EXPECT_EQ(scatter.atomics[0].per_element, 1);
  EXPECT_EQ(scatter.arrays.size(), 2u);
  // Embedding: rows of 128, a float4 per lane, the row load waits on the id (one per warp).
  const KernelSpec& embed = *find_builtin_kernel("embedding_gather_f32");
  EXPECT_EQ(dimensions(embed, 1 << 20).rows, (1 << 20) / 128);
  const KernelPass& gather = pass_of("embedding_gather_f32");
  EXPECT_EQ(gather.elements_per_thread, 4);
  EXPECT_EQ(gather.arrays.at(0).pattern, AccessPattern::broadcast);
  EXPECT_EQ(gather.arrays.at(1).vector, 4);
  EXPECT_EQ(gather.arrays.at(1).depends_on, "ids");
  // 3-D stencil: its own sizes are cubes; one load from DRAM's lines, 4 from L1, 2 from L2.
  const KernelSpec& cube = *find_builtin_kernel("stencil7_3d_f32");
  EXPECT_EQ(cube.sizes, (std::vector<std::int64_t>{128 * 128 * 128, 256 * 256 * 256, 512 * 512 * 512}));
  const KernelPass& stencil = pass_of("stencil7_3d_f32");
  EXPECT_EQ(stencil.arrays.at(1).per_element, 4);
  EXPECT_EQ(stencil.arrays.at(1).reuse, Reuse::l1);
  EXPECT_EQ(stencil.arrays.at(2).per_element, 2);
  EXPECT_EQ(stencil.arrays.at(2).reuse, Reuse::l2);
  // Bias + GELU: rows of 4096, the bias spans one row.
  EXPECT_EQ(find_builtin_kernel("bias_gelu_f32")->cols, 4096);
  const KernelPass& gelu = pass_of("bias_gelu_f32");
  ASSERT_TRUE(gelu.arrays.at(1).elements.has_value());
  EXPECT_EQ(gelu.arrays.at(1).elements->of, ArrayExtent::Of::cols);
}

// The fourth held-out batch's specs say what their code does (patterns4_adam.cu,
// patterns4_colsum.cu, patterns4_upsample.cu, patterns4_sort.cu, patterns4_spmv.cu).
TEST(BuiltinKernels, FourthHeldOutBatchDescribesItsCode) {
  const auto entries_of = [](const KernelPass& p, const char* name, AccessOp op) {
    int count = 0;
    for (const ArrayAccess& a : p.arrays) count += a.name == name && a.op == op;
    return count;
  };
  // Adam: one-shot, one element per thread; param, m, v loaded and stored back (in place: the
  // store entries name the loaded arrays), grad only loaded; 4 fma, a chain through sqrt and
  // the division.
  const KernelPass& adam = pass_of("adam_step_f32");
  EXPECT_EQ(adam.grid, GridPolicy::one_shot);
  EXPECT_EQ(adam.elements_per_thread, 1);
  for (const char* name : {"param", "m", "v"}) {
    EXPECT_EQ(entries_of(adam, name, AccessOp::load), 1) << name;
    EXPECT_EQ(entries_of(adam, name, AccessOp::store), 1) << name;
  }
  EXPECT_EQ(entries_of(adam, "grad", AccessOp::load), 1);
  EXPECT_EQ(entries_of(adam, "grad", AccessOp::store), 0);
  EXPECT_EQ(adam.arrays.size(), 7u);
  double fma = 0;
  for (const FlopCount& f : adam.flops) fma += f.op == FlopOp::fma ? f.per_element : 0;
  EXPECT_EQ(fma, 4);
  EXPECT_GT(adam.dependent_cycles, 0);
  // Column sums: 4096 threads (16 blocks of 256) looping over the rows, as a grid-stride loop
  // of its own grid; one add per element; 4096 results.
  const KernelSpec& colsum = *find_builtin_kernel("column_sum_f32");
  EXPECT_EQ(colsum.cols, 4096);
  EXPECT_EQ(dimensions(colsum, 1 << 24).rows, 4096);
  const KernelPass& column = pass_of("column_sum_f32");
  EXPECT_EQ(column.grid, GridPolicy::grid_stride);
  EXPECT_EQ(column.grid_blocks * colsum.default_block, 4096);
  EXPECT_EQ(column.elements_per_thread, 1);
  ASSERT_EQ(column.arrays.size(), 2u);
  EXPECT_EQ(column.arrays[0].pattern, AccessPattern::contiguous);
  ASSERT_TRUE(column.arrays[1].elements.has_value());
  EXPECT_EQ(column.arrays[1].elements->of, ArrayExtent::Of::cols);
  EXPECT_EQ(column.arrays[1].per_thread, 1.0);  // out: one store per thread, after its loop
  // Upsampling: a square output; each input word brought once (n / 4) and read 3 more times
  // from L1; one store per element.
  EXPECT_EQ(find_builtin_kernel("upsample2x_nearest_f32")->shape, Shape::square);
  const KernelPass& up = pass_of("upsample2x_nearest_f32");
  ASSERT_EQ(up.arrays.size(), 3u);
  EXPECT_EQ(up.arrays[0].per_element, 0.25);
  EXPECT_EQ(up.arrays[1].per_element, 0.75);
  EXPECT_EQ(up.arrays[1].reuse, Reuse::l1);
  EXPECT_EQ(up.arrays[2].op, AccessOp::store);
  EXPECT_EQ(up.arrays[2].per_element, 1);
  // Bitonic sort: blocks of 512, one per 1024-element segment, two elements per thread a
  // block apart; 56 barriers; 1792 shared loads and as many stores per block, 1280 of each
  // two-way; sorted in place.
  const KernelSpec& sort = *find_builtin_kernel("bitonic_sort_block_f32");
  EXPECT_EQ(sort.default_block, 512);
  EXPECT_EQ(sort.cols, 1024);
  const KernelPass& bitonic = pass_of("bitonic_sort_block_f32");
  EXPECT_EQ(bitonic.grid, GridPolicy::per_row);
  EXPECT_EQ(bitonic.elements_per_thread * sort.default_block, 1024);
  EXPECT_TRUE(bitonic.interleaved);
  EXPECT_EQ(bitonic.barriers_per_block, 56);
  double loads = 0, stores = 0, conflicted = 0;
  for (const SharedAccess& a : bitonic.shared) {
    (a.op == AccessOp::load ? loads : stores) += a.per_block;
    if (a.ways == 2) conflicted += a.per_block;
  }
  EXPECT_EQ(loads, 1792);   // 16 warps x (55 steps x 2 + 2)
  EXPECT_EQ(stores, 1792);
  EXPECT_EQ(conflicted, 2 * 1280);  // 16 warps x 40 steps x 2, loads and stores
  EXPECT_EQ(entries_of(bitonic, "x", AccessOp::load), 1);
  EXPECT_EQ(entries_of(bitonic, "x", AccessOp::store), 1);
  // Warp-per-row CSR: 32 nonzeros per row, a lane per nonzero; x gathered at random over the
  // rows, behind col, behind row_ptr (broadcast); y once per row.
  const KernelSpec& csr = *find_builtin_kernel("spmv_csr_warp_f32");
  EXPECT_EQ(dimensions(csr, 1 << 20).rows, (1 << 20) / 32);
  const KernelPass& warp = pass_of("spmv_csr_warp_f32");
  EXPECT_EQ(warp.elements_per_thread, 1);
  EXPECT_EQ(warp.grid, GridPolicy::one_shot);
  for (const ArrayAccess& a : warp.arrays) {
    if (a.name == "row_ptr") {
      EXPECT_EQ(a.pattern, AccessPattern::broadcast);
    }
    if (a.name == "col" || a.name == "val") {
      EXPECT_EQ(a.depends_on, "row_ptr") << a.name;
      EXPECT_EQ(a.pattern, AccessPattern::contiguous) << a.name;
    }
    if (a.name == "x") {
      EXPECT_EQ(a.pattern, AccessPattern::random);
      EXPECT_EQ(a.depends_on, "col");
      ASSERT_TRUE(a.elements.has_value());
      EXPECT_EQ(a.elements->of, ArrayExtent::Of::rows);
    }
    if (a.name == "y") {
      EXPECT_EQ(a.per_warp, 1.0);  // lane 0's store of the row's sum
    }
  }
}

// The sixth held-out batch's specs say what their code does (patterns6_rope.cu,
// patterns6_permute.cu, patterns6_dequant.cu, patterns6_bag.cu); their instruction counts wait
// for the device's SASS.
TEST(BuiltinKernels, SixthHeldOutBatchDescribesItsCode) {
  // RoPE: rows of 128, a pair (float2) per thread, each table once per thread over n / 2.
  EXPECT_EQ(find_builtin_kernel("rope_f32")->cols, 128);
  const KernelPass& rope = pass_of("rope_f32");
  EXPECT_EQ(rope.elements_per_thread, 2);
  ASSERT_EQ(rope.arrays.size(), 4u);
  EXPECT_EQ(rope.arrays[0].vector, 2);
  for (const std::size_t table : {1u, 2u}) {
    EXPECT_EQ(rope.arrays[table].per_element, 0.5);
    ASSERT_TRUE(rope.arrays[table].elements.has_value());
    EXPECT_EQ(rope.arrays[table].elements->fraction, 0.5);
  }
  EXPECT_EQ(rope.arrays[3].vector, 2);
  // Permute: tokens of 16 x 64, one element per thread, read and written contiguously.
  EXPECT_EQ(find_builtin_kernel("permute_0213_f32")->cols, 16 * 64);
  const KernelPass& permute = pass_of("permute_0213_f32");
  EXPECT_EQ(permute.elements_per_thread, 1);
  ASSERT_EQ(permute.arrays.size(), 2u);
  for (const ArrayAccess& a : permute.arrays) EXPECT_EQ(a.pattern, AccessPattern::contiguous) << a.name;
  EXPECT_TRUE(permute.flops.empty());
  // Dequantisation: rows of 4096, a char4 of 1-byte q per thread, the row's scale broadcast.
  EXPECT_EQ(find_builtin_kernel("dequant_int8_rowscale_f32")->cols, 4096);
  const KernelPass& dequant = pass_of("dequant_int8_rowscale_f32");
  EXPECT_EQ(dequant.elements_per_thread, 4);
  EXPECT_EQ(dequant.arrays.at(0).type, DType::u8);
  EXPECT_EQ(dequant.arrays.at(0).vector, 4);
  EXPECT_EQ(dequant.arrays.at(1).pattern, AccessPattern::broadcast);
  EXPECT_EQ(dequant.arrays.at(1).elements->of, ArrayExtent::Of::rows);
  EXPECT_EQ(dequant.arrays.at(2).vector, 4);
  // Embedding bag: its own sizes; 8 broadcast index loads per element, 8 row loads behind them
  // spread over a table of 8 n floats, 8 adds.
  const KernelSpec& bag = *find_builtin_kernel("embedding_bag_sum_f32");
  EXPECT_EQ(bag.sizes, (std::vector<std::int64_t>{1 << 16, 1 << 20, 1 << 24}));
  EXPECT_EQ(dimensions(bag, 1 << 20).rows, (1 << 20) / 128);
  const KernelPass& gather = pass_of("embedding_bag_sum_f32");
  EXPECT_EQ(gather.arrays.at(0).per_element, 8);
  EXPECT_EQ(gather.arrays.at(0).pattern, AccessPattern::broadcast);
  EXPECT_EQ(gather.arrays.at(0).type, DType::i32);
  EXPECT_EQ(gather.arrays.at(1).per_element, 8);
  EXPECT_EQ(gather.arrays.at(1).depends_on, "idx");
  ASSERT_TRUE(gather.arrays.at(1).elements.has_value());
  EXPECT_EQ(gather.arrays.at(1).elements->fraction, 8);
  EXPECT_EQ(gather.flops.at(0).per_element, 8);
  // Instruction counts from their sm_90 SASS (tests/models/sass_suite_test.cpp checks the drafts).
  EXPECT_EQ(rope.inst_per_thread, 28.0);
  EXPECT_EQ(permute.inst_per_thread, 32.0);
  EXPECT_EQ(dequant.inst_per_thread, 33.0);
  EXPECT_EQ(gather.inst_per_thread, 62.0);
}

// The seventh held-out batch's specs say what their code does (patterns7_swiglu.cu,
// patterns7_rmsnorm.cu, patterns7_crossentropy.cu, patterns7_colmean.cu); their instruction
// counts are estimates until the device's SASS counts them.
TEST(BuiltinKernels, SeventhHeldOutBatchDescribesItsCode) {
  // SwiGLU: outputs in rows of 4096; the gate's load, then (after its chain, as the SASS
  // issues it) the up value's.
  EXPECT_EQ(find_builtin_kernel("swiglu_f32")->cols, 4096);
  const KernelPass& swiglu = pass_of("swiglu_f32");
  EXPECT_EQ(swiglu.grid, GridPolicy::one_shot);
  ASSERT_EQ(swiglu.arrays.size(), 3u);
  EXPECT_EQ(swiglu.arrays[1].depends_on, "gate");
  EXPECT_EQ(swiglu.arrays[2].op, AccessOp::store);
  EXPECT_EQ(swiglu.inst_per_thread, 53);
  // RMSNorm: a block per row of 4096, one reduction (two barriers), the row read again from L1,
  // the weight (a row's length) from L2 and L1.
  EXPECT_EQ(find_builtin_kernel("rmsnorm_row_f32")->cols, 4096);
  const KernelPass& rms = pass_of("rmsnorm_row_f32");
  EXPECT_EQ(rms.grid, GridPolicy::per_row);
  EXPECT_EQ(rms.barriers_per_block, 2);
  EXPECT_EQ(rms.block_reductions, 1);
  EXPECT_EQ(rms.arrays.at(1).reuse, Reuse::l1);
  EXPECT_EQ(rms.arrays.at(2).elements->of, ArrayExtent::Of::cols);
  EXPECT_EQ(rms.arrays.at(2).l1_reuse, 8);
  // Cross-entropy: a block per row of 1024, two reductions; thread 0's target load and loss
  // store once per row.
  EXPECT_EQ(find_builtin_kernel("cross_entropy_row_f32")->cols, 1024);
  const KernelPass& ce = pass_of("cross_entropy_row_f32");
  EXPECT_EQ(ce.grid, GridPolicy::per_row);
  EXPECT_EQ(ce.barriers_per_block, 4);
  EXPECT_EQ(ce.block_reductions, 2);
  EXPECT_EQ(ce.arrays.at(0).type, DType::i32);
  EXPECT_EQ(ce.arrays.at(0).elements->of, ArrayExtent::Of::rows);
  EXPECT_EQ(ce.arrays.back().per_warp, 0.125);
  EXPECT_EQ(ce.arrays.back().elements->of, ArrayExtent::Of::rows);
  // Column means: one wave of 32 x 8 blocks looping over their rows, 32 contiguous atomics per
  // block over the 1024 columns.
  EXPECT_EQ(find_builtin_kernel("col_mean_tiled_f32")->cols, 1024);
  const KernelPass& mean = pass_of("col_mean_tiled_f32");
  EXPECT_EQ(mean.grid, GridPolicy::grid_stride);
  EXPECT_EQ(mean.grid_blocks, 0);
  EXPECT_EQ(mean.ilp, 4);
  ASSERT_EQ(mean.atomics.size(), 1u);
  EXPECT_EQ(mean.atomics[0].per_block, 32);
  EXPECT_EQ(mean.atomics[0].addresses, 1024);
  EXPECT_EQ(mean.atomics[0].pattern, AccessPattern::contiguous);
  EXPECT_EQ(mean.atomics[0].type, DType::f32);
}

// The eighth held-out batch's specs say what their code does (patterns8_biasrelu.cu,
// patterns8_bilinear.cu, patterns8_argmax.cu, patterns8_im2col.cu), their instruction counts
// taken from the H100's SASS (tests/models/data/sass/patterns8_sm90.sass).
TEST(BuiltinKernels, EighthHeldOutBatchDescribesItsCode) {
  // Bias + ReLU: FP16 rows of 4096, one half2 per thread; the bias a row's length.
  const KernelSpec& relu_spec = *find_builtin_kernel("bias_relu_f16x2");
  EXPECT_EQ(relu_spec.cols, 4096);
  EXPECT_EQ(relu_spec.dtypes.at(0), DType::f16);
  const KernelPass& relu = pass_of("bias_relu_f16x2");
  EXPECT_EQ(relu.grid, GridPolicy::one_shot);
  EXPECT_EQ(relu.elements_per_thread, 2);
  ASSERT_EQ(relu.arrays.size(), 3u);
  for (const ArrayAccess& a : relu.arrays) EXPECT_EQ(a.vector, 2) << a.name;
  EXPECT_EQ(relu.arrays[1].elements->of, ArrayExtent::Of::cols);
  EXPECT_EQ(relu.flops.at(0).type, DType::f16);
  EXPECT_EQ(relu.flops.at(0).op, FlopOp::fma);  // the SASS's HFMA2 (x times 1 plus b)
  EXPECT_EQ(relu.flops.at(0).packed, 2);
  EXPECT_EQ(relu.inst_per_thread, 26);
  // Bilinear: n counts the output (one thread each); four loads per output over the n / 4
  // input words, L2 reading 3 times their footprint.
  EXPECT_EQ(find_builtin_kernel("bilinear_up2x_f32")->shape, Shape::square);
  const KernelPass& bilinear = pass_of("bilinear_up2x_f32");
  EXPECT_EQ(bilinear.grid, GridPolicy::one_shot);
  EXPECT_EQ(bilinear.elements_per_thread, 1);
  ASSERT_EQ(bilinear.arrays.size(), 2u);
  EXPECT_EQ(bilinear.arrays[0].per_element, 4);
  EXPECT_EQ(bilinear.arrays[0].elements->fraction, 0.25);
  EXPECT_EQ(bilinear.arrays[0].l1_reuse, 5.33);
  EXPECT_EQ(bilinear.arrays[1].op, AccessOp::store);
  EXPECT_EQ(bilinear.inst_per_thread, 77);
  // Argmax: a warp per row of 1024, its 32 columns per lane a warp apart, unrolled (no loop);
  // lane 0's int32 per row.
  EXPECT_EQ(find_builtin_kernel("argmax_row_f32")->cols, 1024);
  const KernelPass& argmax = pass_of("argmax_row_f32");
  EXPECT_EQ(argmax.grid, GridPolicy::one_shot);
  EXPECT_EQ(argmax.elements_per_thread, 32);
  EXPECT_TRUE(argmax.interleaved);
  // Two rounds of loads in its SASS (21, then 11): two trips of 16 columns.
  ASSERT_TRUE(argmax.iterations.has_value());
  EXPECT_EQ(argmax.iterations->value, 1.0 / 512);  // cols / 512
  EXPECT_EQ(argmax.iterations->times, Scale::cols);
  EXPECT_EQ(argmax.inst_per_thread, 194);
  EXPECT_TRUE(argmax.flops.empty());
  EXPECT_EQ(argmax.arrays.at(1).type, DType::i32);
  EXPECT_EQ(argmax.arrays.at(1).per_warp, 1);
  EXPECT_EQ(argmax.arrays.at(1).elements->of, ArrayExtent::Of::rows);
  // im2col: n counts the input; nine loads (a stencil's) and nine stores over the 9 n outputs.
  EXPECT_EQ(find_builtin_kernel("im2col3x3_f32")->shape, Shape::square);
  const KernelPass& im2col = pass_of("im2col3x3_f32");
  EXPECT_EQ(im2col.grid, GridPolicy::one_shot);
  double loads = 0;
  for (const ArrayAccess& a : im2col.arrays)
    if (a.op == AccessOp::load) loads += a.per_element;
  EXPECT_EQ(loads, 9);
  EXPECT_EQ(im2col.arrays.back().op, AccessOp::store);
  EXPECT_EQ(im2col.arrays.back().per_element, 9);
  EXPECT_EQ(im2col.arrays.back().elements->fraction, 9);
  EXPECT_EQ(im2col.inst_per_thread, 88);
}

// The ninth held-out batch's specs say what their code does (patterns9_poly.cu,
// patterns9_normalize.cu), their instruction counts and chains taken from the H200's SASS
// (tests/models/data/sass/patterns9_sm90.sass).
TEST(BuiltinKernels, NinthHeldOutBatchDescribesItsCode) {
  // Horner in FP32: one element per thread, 128 dependent FMAs between a load and a store.
  const KernelPass& f32 = pass_of("poly_horner_f32");
  EXPECT_EQ(f32.grid, GridPolicy::one_shot);
  EXPECT_EQ(f32.elements_per_thread, 1);
  ASSERT_EQ(f32.arrays.size(), 2u);
  ASSERT_EQ(f32.flops.size(), 1u);
  EXPECT_EQ(f32.flops[0].type, DType::f32);
  EXPECT_EQ(f32.flops[0].op, FlopOp::fma);
  EXPECT_EQ(f32.flops[0].per_element, 128);
  EXPECT_EQ(f32.dependent_cycles, 512);  // 128 x 4 cycles
  EXPECT_EQ(f32.inst_per_thread, 145);
  // Horner in FP16: one half2 per thread, the scale and 64 steps, each an HFMA2 on the pair (the
  // SASS takes x / 8 as x 0.125 - 0).
  EXPECT_EQ(find_builtin_kernel("poly_horner_f16x2")->dtypes.at(0), DType::f16);
  const KernelPass& f16 = pass_of("poly_horner_f16x2");
  EXPECT_EQ(f16.elements_per_thread, 2);
  for (const ArrayAccess& a : f16.arrays) EXPECT_EQ(a.vector, 2) << a.name;
  ASSERT_EQ(f16.flops.size(), 1u);
  EXPECT_EQ(f16.flops[0].op, FlopOp::fma);
  EXPECT_EQ(f16.flops[0].per_element, 65);
  EXPECT_EQ(f16.flops[0].packed, 2);
  EXPECT_EQ(f16.dependent_cycles, 260);  // (1 + 64) x 4 cycles
  EXPECT_EQ(f16.inst_per_thread, 85);
  // Normalize: three loads 12 bytes apart per lane, the later ones in L1, and the three fields'
  // stores one entry (written so after the batch was judged).
  const KernelPass& norm = pass_of("normalize_vec3_f32");
  EXPECT_EQ(norm.grid, GridPolicy::one_shot);
  ASSERT_EQ(norm.arrays.size(), 4u);
  for (const ArrayAccess& a : norm.arrays) EXPECT_EQ(a.stride, 3) << a.name;
  EXPECT_EQ(norm.arrays[1].reuse, Reuse::l1);
  EXPECT_EQ(norm.arrays[3].op, AccessOp::store);
  EXPECT_EQ(norm.arrays[3].fields, 3);
  // rsqrtf's guard against subnormals (FSETP and two predicated FMULs) is on the chain.
  EXPECT_EQ(norm.dependent_cycles, 48);
  EXPECT_EQ(norm.inst_per_thread, 32);
}

TEST(BuiltinKernels, FindByName) {
  const KernelSpec* k = find_builtin_kernel("add_f32x4");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->passes.at(0).elements_per_thread, 4);
  EXPECT_EQ(find_builtin_kernel("add_f32x5"), nullptr);
  EXPECT_EQ(find_builtin_kernel(""), nullptr);
}

TEST(BuiltinKernels, DescriptorsMatchTheKernels) {
  const KernelSpec* stride8 = find_builtin_kernel("write_only_f32_stride8");
  ASSERT_NE(stride8, nullptr);
  EXPECT_EQ(stride8->passes.at(0).arrays.at(0).stride, 8);
  EXPECT_EQ(stride8->passes.at(0).arrays.at(0).op, AccessOp::store);

  const KernelSpec* unfused = find_builtin_kernel("hadamard3_unfused");
  ASSERT_NE(unfused, nullptr);
  EXPECT_EQ(unfused->passes.size(), 2u);

  const KernelSpec* streaming = find_builtin_kernel("add_f32x4_streaming");
  ASSERT_NE(streaming, nullptr);
  EXPECT_EQ(streaming->passes.at(0).arrays.at(2).hint, CacheHint::streaming);
  const KernelSpec* lastuse = find_builtin_kernel("add_f32x4_lastuse");
  ASSERT_NE(lastuse, nullptr);
  EXPECT_EQ(lastuse->passes.at(0).arrays.at(0).hint, CacheHint::last_use);

  const KernelSpec* ilp4 = find_builtin_kernel("add_f32x4_ilp4");
  ASSERT_NE(ilp4, nullptr);
  EXPECT_EQ(ilp4->passes.at(0).ilp, 4);
  EXPECT_EQ(ilp4->passes.at(0).grid, GridPolicy::grid_stride);

  const KernelSpec* half2 = find_builtin_kernel("add_f16x2");
  ASSERT_NE(half2, nullptr);
  EXPECT_EQ(half2->passes.at(0).flops.at(0).packed, 2);
  EXPECT_EQ(half2->dtypes.at(0), DType::f16);

  const KernelSpec* fp8 = find_builtin_kernel("add_fp8_e4m3");
  ASSERT_NE(fp8, nullptr);
  EXPECT_EQ(fp8->dtypes.at(0), DType::fp8_e4m3);
  EXPECT_EQ(fp8->passes.at(0).flops.at(0).type, DType::f32);

  // Every pass states its instruction count; loops (grid-stride) also per iteration. Specs
  // still waiting for their SASS state none, or estimates their file marks as such.
  for (const KernelSpec& k : builtin_kernels())
    for (const KernelPass& p : k.passes) {
      if (std::find(kCountsFromSassPendingNames.begin(), kCountsFromSassPendingNames.end(), k.name) !=
          kCountsFromSassPendingNames.end()) {
        EXPECT_FALSE(p.inst_per_thread.has_value()) << k.name << ": counted now? take it off the pending list";
        EXPECT_FALSE(p.inst_per_iteration.has_value()) << k.name;
        EXPECT_EQ(p.inst_per_block, 0) << k.name;
        continue;
      }
      EXPECT_GT(p.inst_per_thread.value_or(0), 0) << k.name;
      if (p.grid == GridPolicy::grid_stride) {
        EXPECT_GT(p.inst_per_iteration.value_or(0), 0) << k.name;
      }
    }
}

TEST(ResourceUsage, EveryKernelHasCompiledRegistersForSm90) {
  for (const KernelSpec& k : builtin_kernels()) {
    if (k.name == "copy_d2d") {
      EXPECT_EQ(k.passes.at(0).symbol, "");
      EXPECT_GT(k.passes.at(0).registers, 0) << "copy_d2d needs an assumed register count";
      continue;
    }
    for (const KernelPass& p : k.passes) {
      ASSERT_FALSE(p.symbol.empty()) << k.name;
      const auto usage = compiled_resource_usage("sm_90", p.symbol);
      ASSERT_TRUE(usage.has_value()) << k.name << ": no ptxas report for " << p.symbol;
      EXPECT_GT(usage->registers, 0) << k.name;
      EXPECT_LE(usage->registers, 255) << k.name;
    }
  }
}

TEST(ResourceUsage, MatchesWholeIdentifiersOnly) {
  const auto scalar = compiled_resource_usage("sm_90", "add_f32_kernel");
  ASSERT_TRUE(scalar.has_value());
  EXPECT_FALSE(compiled_resource_usage("sm_90", "add_f32_kerne").has_value());
  EXPECT_FALSE(compiled_resource_usage("sm_90", "f32_kernel").has_value());
  EXPECT_FALSE(compiled_resource_usage("sm_90", "").has_value());
  EXPECT_FALSE(compiled_resource_usage("sm_75", "add_f32_kernel").has_value());
  EXPECT_EQ(compiled_resource_usage("sm_90", "read_only_f32_kernel")->shared_bytes, 0);
}

}  // namespace
}  // namespace roofline

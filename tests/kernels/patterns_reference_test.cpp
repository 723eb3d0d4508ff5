// CPU tests of the patterns suite's references, input values and whole-array host checks,
// with hand-worked values (no device needed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/host_values.hpp"
#include "kernels/kernel_impl.hpp"
#include "kernels/patterns_reference.hpp"
#include "models/error.hpp"

namespace roofline::kernels {
namespace {

template <typename T>
std::vector<std::byte> bytes_of(const std::vector<T>& v) {
  std::vector<std::byte> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// The inverse: a buffer's bytes as values of T.
template <typename T>
std::vector<T> values_of(const std::vector<std::byte>& b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

// Runs kernel `name`'s host check on the given buffers (layout order).
HostCheckResult check(const char* name, std::int64_t n, const std::vector<std::vector<std::byte>>& buffers) {
  const KernelImpl* k = find_kernel_impl(name);
  EXPECT_NE(k, nullptr) << name;
  EXPECT_NE(k->host_check, nullptr) << name;
  return k->host_check(HostArrays{buffers, n});
}

// The same for a kernel with in-place buffers: `initial` holds their seeded values (empty for
// the others).
HostCheckResult check_in_place(const char* name, std::int64_t n, const std::vector<std::vector<std::byte>>& buffers,
                               const std::vector<std::vector<std::byte>>& initial) {
  const KernelImpl* k = find_kernel_impl(name);
  EXPECT_NE(k, nullptr) << name;
  EXPECT_NE(k->host_check, nullptr) << name;
  return k->host_check(HostArrays{buffers, n, initial});
}

// A host check that found exactly one wrong element, at `index` (and, where given, said so in
// `detail`'s words).
void expect_one_mismatch(const HostCheckResult& r, std::int64_t index, std::string_view detail = {}) {
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.worst_index, index);
  if (!detail.empty()) {
    EXPECT_EQ(r.detail, detail);
  }
}

TEST(PatternsReference, SquareSide) {
  EXPECT_EQ(patterns::square_side(1), 1);
  EXPECT_EQ(patterns::square_side(16), 4);
  EXPECT_EQ(patterns::square_side(std::int64_t{1} << 28), 16384);
  EXPECT_EQ(patterns::square_side(1000), -1);
  EXPECT_EQ(patterns::square_side(0), -1);
  EXPECT_EQ(patterns::square_side((std::int64_t{1} << 40) + 1), -1);
}

TEST(PatternsReference, FloatSumTolerance) {
  EXPECT_DOUBLE_EQ(patterns::float_sum_tolerance(1024, 1.0), 10 * 0x1p-24);
  EXPECT_DOUBLE_EQ(patterns::float_sum_tolerance(1025, 2.0), 11 * 2 * 0x1p-24);
  EXPECT_DOUBLE_EQ(patterns::float_sum_tolerance(1, 1.0), 0x1p-24);
}

TEST(PatternsReference, Transpose4x4) {
  std::vector<float> in(16), out(16);
  for (int i = 0; i < 16; ++i) in[i] = static_cast<float>(i);
  // out[r][c] = in[c][r]: row 0 of out is column 0 of in.
  const std::vector<float> expected = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
  EXPECT_TRUE(check("transpose_naive", 16, {bytes_of(in), bytes_of(expected)}).ok());
  EXPECT_TRUE(check("transpose_tiled_padded", 16, {bytes_of(in), bytes_of(expected)}).ok());
  out = expected;
  out[1] = 1.0f;  // in[0][1] instead of in[1][0]
  expect_one_mismatch(check("transpose_naive", 16, {bytes_of(in), bytes_of(out)}),
                      1, "out[1]: got 1, expected 4 (tolerance 0)");
}

TEST(PatternsReference, Stencil3x3) {
  const std::vector<float> in = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  // Only the centre is interior: 0.2 x (5 + 2 + 8 + 4 + 6) = 5; the ring is copied.
  EXPECT_FLOAT_EQ(patterns::stencil5_at(in, 3, 1, 1), 5.0f);
  for (int i : {0, 1, 2, 3, 5, 6, 7, 8}) EXPECT_EQ(patterns::stencil5_at(in, 3, i / 3, i % 3), in[i]) << i;
  std::vector<float> out = in;
  EXPECT_TRUE(check("stencil5_2d", 9, {bytes_of(in), bytes_of(out)}).ok());
  // A 4x4 grid: the four interior points see different neighbours.
  std::vector<float> g(16);
  for (int i = 0; i < 16; ++i) g[i] = static_cast<float>(i * i);
  EXPECT_FLOAT_EQ(patterns::stencil5_at(g, 4, 1, 1), 0.2f * (25 + 1 + 81 + 16 + 36));
  out[4] = std::numeric_limits<float>::quiet_NaN();  // never written
  const HostCheckResult r = check("stencil5_2d", 9, {bytes_of(in), bytes_of(out)});
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.detail, "out[4]: never written (still poisoned), expected 5");
}

TEST(PatternsReference, HistogramOfKnownData) {
  const std::vector<std::uint8_t> data = {0, 1, 1, 255, 255, 255, 7};
  const auto h = patterns::histogram(data);
  EXPECT_EQ(h[0], 1);
  EXPECT_EQ(h[1], 2);
  EXPECT_EQ(h[7], 1);
  EXPECT_EQ(h[255], 3);
  EXPECT_EQ(h[2], 0);
  std::vector<std::uint32_t> bins(256, 0);
  bins[0] = 1, bins[1] = 2, bins[7] = 1, bins[255] = 3;
  for (const char* name :
       {"histogram_shared", "histogram_global", "histogram_global_skewed", "histogram_shared_skewed"})
    EXPECT_TRUE(check(name, 7, {bytes_of(data), bytes_of(bins)}).ok()) << name;
  bins[255] = 4;  // counts are exact: one too many fails
  expect_one_mismatch(check("histogram_shared", 7, {bytes_of(data), bytes_of(bins)}),
                      255, "bins[255]: got 4, expected 3 (tolerance 0)");
}

TEST(PatternsReference, Reduction) {
  const std::vector<float> x = {0.5f, 0.25f, -1.0f, 0.0625f};
  EXPECT_DOUBLE_EQ(patterns::sum(x), -0.1875);
  for (const char* name : {"reduce_block_atomic", "reduce_warp_shuffle"}) {
    EXPECT_TRUE(check(name, 4, {bytes_of(x), bytes_of(std::vector<float>{-0.1875f})}).ok()) << name;
    const HostCheckResult r = check(name, 4, {bytes_of(x), bytes_of(std::vector<float>{-0.25f})});
    EXPECT_EQ(r.mismatches, 1) << name;
    EXPECT_EQ(r.worst_index, 0) << name;
  }
}

TEST(PatternsReference, Sgemm2x2) {
  const std::vector<float> a = {1, 2, 3, 4}, b = {5, 6, 7, 8};
  double magnitude = 0;
  EXPECT_DOUBLE_EQ(patterns::gemm_element(a, b, 2, 0, 0, &magnitude), 19.0);
  EXPECT_DOUBLE_EQ(magnitude, 19.0);
  EXPECT_DOUBLE_EQ(patterns::gemm_element(a, b, 2, 1, 1), 50.0);
  const std::vector<float> c = {19, 22, 43, 50};
  for (const char* name : {"sgemm_naive", "sgemm_tiled"})
    EXPECT_TRUE(check(name, 4, {bytes_of(a), bytes_of(b), bytes_of(c)}).ok()) << name;
  std::vector<float> wrong = c;
  wrong[2] = 42;
  expect_one_mismatch(check("sgemm_naive", 4, {bytes_of(a), bytes_of(b), bytes_of(wrong)}), 2);
}

TEST(PatternsReference, SoftmaxOfAKnownRow) {
  // exp(0) : exp(ln 2) = 1 : 2.
  const std::vector<float> x = {0.0f, std::log(2.0f)};
  std::vector<double> out(2);
  patterns::softmax_row(x, out);
  EXPECT_NEAR(out[0], 1.0 / 3.0, 1e-7);
  EXPECT_NEAR(out[1], 2.0 / 3.0, 1e-7);
  // A full row of equal values: 1/1024 each; the host check takes it and rejects 1/1000.
  const std::vector<float> row(kRowCols, 0.25f);
  std::vector<float> result(kRowCols, 1.0f / 1024.0f);
  EXPECT_TRUE(check("softmax_row", kRowCols, {bytes_of(row), bytes_of(result)}).ok());
  result[17] = 1.0f / 1000.0f;
  expect_one_mismatch(check("softmax_row", kRowCols, {bytes_of(row), bytes_of(result)}), 17);
}

TEST(PatternsReference, LayerNormOfAKnownRow) {
  // mean 2.5, variance 1.25: (x - 2.5) / sqrt(1.25 + 1e-5) x gamma + beta.
  const std::vector<float> x = {1, 2, 3, 4}, gamma = {1, 1, 2, 2}, beta = {0, 0, 1, -1};
  std::vector<double> out(4);
  patterns::layernorm_row(x, gamma, beta, out);
  const double rstd = 1.0 / std::sqrt(1.25 + 1e-5);
  EXPECT_NEAR(out[0], -1.5 * rstd, 1e-12);
  EXPECT_NEAR(out[1], -0.5 * rstd, 1e-12);
  EXPECT_NEAR(out[2], 2 * 0.5 * rstd + 1, 1e-12);
  EXPECT_NEAR(out[3], 2 * 1.5 * rstd - 1, 1e-12);
  EXPECT_NEAR(out[0], -1.341635, 1e-6);
  // Two full rows through the host check: row r is r + the column's parity.
  std::vector<float> in(2 * kRowCols), g(kRowCols, 1.0f), bt(kRowCols, 0.5f), res(2 * kRowCols);
  for (std::int64_t i = 0; i < 2 * kRowCols; ++i) {
    in[i] = static_cast<float>(i / kRowCols + i % 2);
    res[i] = static_cast<float>((i % 2 ? 0.5 : -0.5) / std::sqrt(0.25 + 1e-5) + 0.5);
  }
  EXPECT_TRUE(check("layernorm_row", 2 * kRowCols, {bytes_of(in), bytes_of(g), bytes_of(bt), bytes_of(res)}).ok());
  res[kRowCols + 3] += 1e-3f;
  expect_one_mismatch(check("layernorm_row", 2 * kRowCols, {bytes_of(in), bytes_of(g), bytes_of(bt), bytes_of(res)}),
                      kRowCols + 3);
}

TEST(PatternsReference, GatherOfKnownIndices) {
  const std::vector<std::int32_t> idx = {2, 0, 2, 1};
  const std::vector<float> x = {10, 20, 30, 40};
  EXPECT_EQ(patterns::gather_at(idx, x, 0), 30.0f);
  EXPECT_EQ(patterns::gather_at(idx, x, 3), 20.0f);
  std::vector<float> out = {30, 10, 30, 20};
  EXPECT_TRUE(check("gather_random", 4, {bytes_of(idx), bytes_of(x), bytes_of(out)}).ok());
  out[2] = 40;  // x[3] instead of x[2]: a copy is exact
  expect_one_mismatch(check("gather_random", 4, {bytes_of(idx), bytes_of(x), bytes_of(out)}),
                      2, "out[2]: got 40, expected 30 (tolerance 0)");
}

TEST(PatternsReference, SpmvOfTwoRows) {
  // 16 nonzeros, 8 per row: 2 rows, x and y of 2. Row 0: values 1..8 at columns 0, 1, 0, 1, ...
  // with x = (0.5, 2): 0.5 (1 + 3 + 5 + 7) + 2 (2 + 4 + 6 + 8) = 8 + 40 = 48. Row 1: +-1 at
  // column 1: 0, on a scale of 16.
  const std::vector<std::int32_t> row_ptr = {0, 8, 16};
  const std::vector<std::int32_t> col = {0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  const std::vector<float> val = {1, 2, 3, 4, 5, 6, 7, 8, 1, -1, 1, -1, 1, -1, 1, -1};
  const std::vector<float> x = {0.5f, 2.0f};
  double magnitude = 0;
  EXPECT_DOUBLE_EQ(patterns::spmv_row(row_ptr, col, val, x, 0, &magnitude), 48.0);
  EXPECT_DOUBLE_EQ(magnitude, 48.0);
  EXPECT_DOUBLE_EQ(patterns::spmv_row(row_ptr, col, val, x, 1, &magnitude), 0.0);
  EXPECT_DOUBLE_EQ(magnitude, 16.0);
  std::vector<float> y = {48, 0};
  const auto run = [&] {
    return check("spmv_csr_row", 16, {bytes_of(row_ptr), bytes_of(col), bytes_of(val), bytes_of(x), bytes_of(y)});
  };
  EXPECT_TRUE(run().ok());
  y[1] = 1e-3f;  // the allowance is 8 roundings of 16: ~7.6e-6
  const HostCheckResult r = run();
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.worst_index, 1);
  EXPECT_EQ(r.detail.rfind("y[1]: got 0.001", 0), 0u) << r.detail;
}

TEST(PatternsReference, GemvOfTwoRows) {
  // Row 0 all ones against x[c] = c / 1024: (1023 x 1024 / 2) / 1024 = 511.5. Row 1
  // alternating +-1 against ones: 0, on a scale of 1024.
  std::vector<float> a(2 * kRowCols), x(kRowCols);
  for (std::int64_t c = 0; c < kRowCols; ++c) {
    x[c] = static_cast<float>(c) / 1024;
    a[c] = 1;
    a[kRowCols + c] = c % 2 ? -1.0f : 1.0f;
  }
  double magnitude = 0;
  EXPECT_DOUBLE_EQ(patterns::gemv_row(a, x, 0, &magnitude), 511.5);
  EXPECT_DOUBLE_EQ(magnitude, 511.5);
  const std::vector<float> ones(kRowCols, 1.0f);
  EXPECT_DOUBLE_EQ(patterns::gemv_row(a, ones, 1, &magnitude), 0.0);
  EXPECT_DOUBLE_EQ(magnitude, 1024.0);
  // Through the host check: x = ones, so row 0 sums to 1024 and row 1 to 0.
  std::vector<float> y = {1024, 0};
  EXPECT_TRUE(check("gemv_warp_row", 2 * kRowCols, {bytes_of(a), bytes_of(ones), bytes_of(y)}).ok());
  y[1] = 0.01f;  // allowance (32 + 6) x 2^-24 x 1024 ~ 2.3e-3
  expect_one_mismatch(check("gemv_warp_row", 2 * kRowCols, {bytes_of(a), bytes_of(ones), bytes_of(y)}), 1);
}

TEST(PatternsReference, DotProduct) {
  // 0.5 x 2 + 0.25 x 4 - 1 x 1 + 0.0625 x 16 = 1 + 1 - 1 + 1 = 2.
  const std::vector<float> a = {0.5f, 0.25f, -1.0f, 0.0625f}, b = {2, 4, 1, 16};
  EXPECT_DOUBLE_EQ(patterns::dot(a, b), 2.0);
  EXPECT_TRUE(check("dot_gridstride", 4, {bytes_of(a), bytes_of(b), bytes_of(std::vector<float>{2.0f})}).ok());
  const HostCheckResult r = check("dot_gridstride", 4, {bytes_of(a), bytes_of(b), bytes_of(std::vector<float>{2.25f})});
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.worst_index, 0);
  EXPECT_EQ(r.detail.rfind("sum[0]: got 2.25, expected 2", 0), 0u) << r.detail;
}

TEST(PatternsReference, ScanOfSegments) {
  const std::vector<float> x = {1, 2, 3, 4};
  std::vector<double> out(4);
  patterns::inclusive_scan(x, out);
  EXPECT_EQ(out, (std::vector<double>{1, 3, 6, 10}));
  // Two segments of 0.5 each: each restarts, out[s x 1024 + i] = 0.5 (i + 1).
  const std::vector<float> in(2 * kRowCols, 0.5f);
  std::vector<float> res(2 * kRowCols);
  for (std::int64_t i = 0; i < 2 * kRowCols; ++i) res[i] = 0.5f * static_cast<float>(i % kRowCols + 1);
  EXPECT_TRUE(check("scan_block", 2 * kRowCols, {bytes_of(in), bytes_of(res)}).ok());
  res[kRowCols] = 512.5f;  // carried on from segment 0 (its total 512 + 0.5)
  expect_one_mismatch(check("scan_block", 2 * kRowCols, {bytes_of(in), bytes_of(res)}),
                      kRowCols, "out[1024]: got 512.5, expected 0.5 (tolerance 0)");
}

TEST(PatternsReference, Conv1dWeightsAndClampedEnds) {
  // The weights sum to 1.
  EXPECT_EQ(patterns::conv7_point(1, 1, 1, 1, 1, 1, 1), 1.0f);
  // An impulse of 64 in the middle of 7 elements spreads into the weights 1 6 15 20 15 6 1.
  const std::vector<float> impulse = {0, 0, 0, 64, 0, 0, 0};
  const std::vector<float> spread = {1, 6, 15, 20, 15, 6, 1};
  for (int i = 0; i < 7; ++i) EXPECT_EQ(patterns::conv7_at(impulse, i), spread[i]) << i;
  // Clamped: at 0 of (1, 2) the left neighbours are x[0], the right ones x[1]:
  // (1 + 6 + 15 + 20) / 64 x 1 + (15 + 6 + 1) / 64 x 2 = 86 / 64.
  const std::vector<float> two = {1, 2};
  EXPECT_EQ(patterns::conv7_at(two, 0), 86.0f / 64);
  EXPECT_EQ(patterns::conv7_at(two, 1), (1 + 6 + 15) / 64.0f * 1 + (20 + 15 + 6 + 1) / 64.0f * 2);
  std::vector<float> out = spread;
  EXPECT_TRUE(check("conv1d_r3", 7, {bytes_of(impulse), bytes_of(out)}).ok());
  out[5] = 7;
  expect_one_mismatch(check("conv1d_r3", 7, {bytes_of(impulse), bytes_of(out)}), 5);
}

TEST(PatternsReference, CubeSide) {
  EXPECT_EQ(patterns::cube_side(1), 1);
  EXPECT_EQ(patterns::cube_side(27), 3);
  EXPECT_EQ(patterns::cube_side(std::int64_t{1} << 27), 512);
  EXPECT_EQ(patterns::cube_side(std::int64_t{1} << 20), -1);
  EXPECT_EQ(patterns::cube_side(26), -1);
  EXPECT_EQ(patterns::cube_side(0), -1);
  EXPECT_EQ(patterns::cube_side(std::int64_t{1'000'000'000'000}), 10'000);
  EXPECT_EQ(patterns::cube_side(std::int64_t{1'000'000'000'000} + 1), -1);
}

TEST(PatternsReference, WeightedHistogramOfKnownData) {
  // Keys 0, 5, 5, 1023, 5 with weights 1/16 .. : bin 5 sums 0.5 - 0.25 + 1 = 1.25.
  const std::vector<std::int32_t> keys = {0, 5, 5, 1023, 5};
  const std::vector<float> w = {0.0625f, 0.5f, -0.25f, -1.0f, 1.0f};
  const auto h = patterns::weighted_histogram(keys, w);
  ASSERT_EQ(h.size(), 1024u);
  EXPECT_EQ(h[0], 0.0625);
  EXPECT_EQ(h[5], 1.25);
  EXPECT_EQ(h[1023], -1.0);
  EXPECT_EQ(h[1], 0.0);
  std::vector<float> bins(1024, 0.0f);
  bins[0] = 0.0625f, bins[5] = 1.25f, bins[1023] = -1.0f;
  EXPECT_TRUE(check("histogram_weighted_f32", 5, {bytes_of(keys), bytes_of(w), bytes_of(bins)}).ok());
  bins[5] = 1.1875f;  // one weight of 1/16 short: sums are exact
  expect_one_mismatch(check("histogram_weighted_f32", 5, {bytes_of(keys), bytes_of(w), bytes_of(bins)}),
                      5, "bins[5]: got 1.1875, expected 1.25 (tolerance 0)");
}

TEST(PatternsReference, ScatterAddOfKnownTargets) {
  // n = 8, two targets: target 1 takes x[0], x[2], x[3]; target 0 the rest.
  const std::vector<std::int32_t> idx = {1, 0, 1, 1, 0, 0, 0, 0};
  const std::vector<float> x = {0.5f, 1, 0.25f, -1, 0.0625f, 0, 0, -0.5f};
  const auto out = patterns::scatter_add(idx, x, 2);
  EXPECT_EQ(out, (std::vector<float>{0.5625f, -0.25f}));
  std::vector<float> got = out;
  EXPECT_TRUE(check("scatter_add_f32", 8, {bytes_of(idx), bytes_of(x), bytes_of(got)}).ok());
  got[0] = 0.5f;  // x[4] lost
  expect_one_mismatch(check("scatter_add_f32", 8, {bytes_of(idx), bytes_of(x), bytes_of(got)}),
                      0, "out[0]: got 0.5, expected 0.5625 (tolerance 0)");
}

TEST(PatternsReference, EmbeddingRowsFollowTheirIds) {
  // Two rows of 128: ids (1, 1), so both output rows are table row 1.
  const std::int64_t cols = patterns::kEmbeddingCols;
  const std::vector<std::int32_t> ids = {1, 1};
  std::vector<float> table(2 * cols), out(2 * cols);
  for (std::int64_t i = 0; i < 2 * cols; ++i) table[i] = static_cast<float>(i);
  for (std::int64_t i = 0; i < 2 * cols; ++i) out[i] = static_cast<float>(cols + i % cols);
  EXPECT_EQ(patterns::embedding_at(ids, table, 0), static_cast<float>(cols));
  EXPECT_EQ(patterns::embedding_at(ids, table, cols + 5), static_cast<float>(cols + 5));
  EXPECT_TRUE(check("embedding_gather_f32", 2 * cols, {bytes_of(ids), bytes_of(table), bytes_of(out)}).ok());
  out[cols + 3] = 3;  // row 0's element: the wrong row
  expect_one_mismatch(check("embedding_gather_f32", 2 * cols, {bytes_of(ids), bytes_of(table), bytes_of(out)}),
                      cols + 3, "out[131]: got 3, expected 131 (tolerance 0)");
}

TEST(PatternsReference, Stencil7OnACube) {
  // 3 x 3 x 3: only the centre (index 13) is interior: the mean of 13 and its six neighbours
  // 12, 14 (x), 10, 16 (y), 4, 22 (z) is 13; every other point is copied.
  std::vector<float> in(27);
  for (int i = 0; i < 27; ++i) in[i] = static_cast<float>(i);
  EXPECT_EQ(patterns::stencil7_at(in, 3, 13), patterns::stencil7_point(13, 12, 14, 10, 16, 4, 22));
  EXPECT_FLOAT_EQ(patterns::stencil7_at(in, 3, 13), 13.0f);
  for (int i = 0; i < 27; ++i) {
    if (i != 13) {
      EXPECT_EQ(patterns::stencil7_at(in, 3, i), in[i]) << i;
    }
  }
  // 4 x 4 x 4 of squares: point (1, 2, 1) = 1 + 8 + 16 = 25 sees 24, 26, 21, 29, 9, 41.
  std::vector<float> g(64);
  for (int i = 0; i < 64; ++i) g[i] = static_cast<float>(i * i);
  EXPECT_FLOAT_EQ(patterns::stencil7_at(g, 4, 25),
                  (625.0f + 576 + 676 + 441 + 841 + 81 + 1681) / 7);
  std::vector<float> out(27);
  for (int i = 0; i < 27; ++i) out[i] = patterns::stencil7_at(in, 3, i);
  EXPECT_TRUE(check("stencil7_3d_f32", 27, {bytes_of(in), bytes_of(out)}).ok());
  out[13] = std::numeric_limits<float>::quiet_NaN();  // never written
  const HostCheckResult r = check("stencil7_3d_f32", 27, {bytes_of(in), bytes_of(out)});
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.worst_index, 13);
  EXPECT_EQ(r.detail.rfind("out[13]: never written (still poisoned), expected 13", 0), 0u) << r.detail;
}

TEST(PatternsReference, GeluOfKnownValues) {
  EXPECT_EQ(patterns::gelu(0), 0.0);
  // gelu(1) = 0.5 (1 + erf(1 / sqrt 2)) = 0.8413447460685429; gelu(-v) = gelu(v) - v.
  EXPECT_NEAR(patterns::gelu(1), 0.8413447460685429, 1e-15);
  EXPECT_NEAR(patterns::gelu(-1), 0.8413447460685429 - 1, 1e-15);
  // One row of 4096: x = 0.5 everywhere, b[c] = 0.5 for even c and -0.5 for odd: v = 1 or 0.
  const std::int64_t cols = patterns::kGeluCols;
  std::vector<float> x(cols, 0.5f), b(cols), y(cols);
  for (std::int64_t c = 0; c < cols; ++c) {
    b[c] = c % 2 ? -0.5f : 0.5f;
    y[c] = c % 2 ? 0.0f : static_cast<float>(patterns::gelu(1));
  }
  EXPECT_TRUE(check("bias_gelu_f32", cols, {bytes_of(x), bytes_of(b), bytes_of(y)}).ok());
  // The tanh form's value at v = 1 (0.8411920) is off by 1.5e-4: past the allowance (~1.8e-6).
  y[2] = 0.841192f;
  expect_one_mismatch(check("bias_gelu_f32", cols, {bytes_of(x), bytes_of(b), bytes_of(y)}), 2);
}

TEST(PatternsReference, AdamConstantsAndUpdates) {
  const patterns::AdamConstants c = patterns::adam_constants();
  EXPECT_EQ(c.lr, 1e-3f);
  EXPECT_EQ(c.beta1, 0.9f);
  EXPECT_EQ(c.beta2, 0.999f);
  EXPECT_EQ(c.eps, 1e-8f);
  // Step 10 from the float betas: 1 / (1 - 0.9f^10) = 1.53534, 1 / sqrt(1 - 0.999f^10) = 10.0226.
  EXPECT_NEAR(c.inv_bias_correction1, 1.5353397, 1e-6);
  EXPECT_NEAR(c.inv_sqrt_bias_correction2, 10.022580, 1e-5);
  // From zero moments with g = 1: m' = 1 - beta1, v' = 1 - beta2 (both exact in f32), and
  // param' = 0.5 - 1.535e-3 x 0.1 / (sqrt(0.001) x 10.0226 + 1e-8) = 0.49951557.
  const patterns::AdamState a = patterns::adam_update(0.5f, 1.0f, 0.0f, 0.0f, c);
  EXPECT_EQ(a.m, 1.0f - 0.9f);
  EXPECT_EQ(a.v, 1.0f - 0.999f);
  EXPECT_NEAR(a.param, 0.49951557, 1e-7);
  // m' = 0.9 x 0.5 + 0.1 x (-0.5) = 0.4, v' = 0.25 (g^2 = v): param' = -0.25 - 1.535e-3 x 0.4 / 5.0113.
  const patterns::AdamState b = patterns::adam_update(-0.25f, -0.5f, 0.5f, 0.25f, c);
  EXPECT_NEAR(b.m, 0.4, 1e-7);
  EXPECT_NEAR(b.v, 0.25, 1e-7);
  EXPECT_NEAR(b.param, -0.25012255, 1e-7);
  // Nothing to follow: a zero gradient on zero moments leaves param alone (0 / eps).
  const patterns::AdamState z = patterns::adam_update(0.75f, 0.0f, 0.0f, 0.0f, c);
  EXPECT_EQ(z.param, 0.75f);
  EXPECT_EQ(z.m, 0.0f);
  EXPECT_EQ(z.v, 0.0f);

  // The host check: param, m, v as the kernel leaves them, from their seeded values (initial).
  const std::vector<float> p0 = {0.5f, -0.25f, 0.75f}, g = {1.0f, -0.5f, 0.0f}, m0 = {0, 0.5f, 0}, v0 = {0, 0.25f, 0};
  std::vector<float> p = {a.param, b.param, z.param}, m = {a.m, b.m, z.m}, v = {a.v, b.v, z.v};
  const std::vector<std::vector<std::byte>> initial = {bytes_of(p0), {}, bytes_of(m0), bytes_of(v0)};
  EXPECT_TRUE(check_in_place("adam_step_f32", 3, {bytes_of(p), bytes_of(g), bytes_of(m), bytes_of(v)}, initial).ok());
  m[1] = 0.45f;  // beta1 m alone, the gradient's share lost
  HostCheckResult r = check_in_place("adam_step_f32", 3, {bytes_of(p), bytes_of(g), bytes_of(m), bytes_of(v)}, initial);
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.worst_index, 1);
  EXPECT_EQ(r.detail.rfind("m[1]: got 0.44999998", 0), 0u) << r.detail;
  m[1] = b.m;
  // Without the bias correction 1 / bc1 the update is 1.5 x too small: far past the allowance.
  p[0] = static_cast<float>(0.5 - 1e-3 * (1.0f - 0.9f) / (std::sqrt(1.0f - 0.999f) * 10.02258));
  r = check_in_place("adam_step_f32", 3, {bytes_of(p), bytes_of(g), bytes_of(m), bytes_of(v)}, initial);
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.worst_index, 0);
  EXPECT_EQ(r.detail.rfind("param[0]: got", 0), 0u) << r.detail;
  // Untouched (the kernel never ran): wrong wherever the update moves a value: param and m of
  // elements 0 and 1, v of element 0 (element 1's v' is v exactly: g^2 = v; element 2 stays).
  r = check_in_place("adam_step_f32", 3, {bytes_of(p0), bytes_of(g), bytes_of(m0), bytes_of(v0)}, initial);
  EXPECT_EQ(r.mismatches, 2 + 2 + 1);
}

TEST(PatternsReference, ColumnSums) {
  // [[1, 2, 3], [4, 5, 6]]: columns 5, 7, 9.
  const std::vector<float> small = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(patterns::column_sums(small, 3), (std::vector<double>{5, 7, 9}));
  // Three rows of 4096: a[r][c] = (c % 3 - 1)(r + 1) / 16, so column c sums to (c % 3 - 1) 6 / 16.
  const std::int64_t cols = patterns::kColumnSumCols, n = 3 * cols;
  std::vector<float> a(n), out(cols);
  for (std::int64_t r = 0; r < 3; ++r)
    for (std::int64_t c = 0; c < cols; ++c)
      a[r * cols + c] = static_cast<float>((c % 3 - 1) * (r + 1)) / 16;
  for (std::int64_t c = 0; c < cols; ++c) out[c] = static_cast<float>(c % 3 - 1) * 6 / 16;
  const auto sums = patterns::column_sums(a, cols);
  EXPECT_EQ(sums[4095], -0.375);  // 4095 % 3 = 0: -(1 + 2 + 3) / 16
  EXPECT_EQ(sums[4000], 0.0);     // 4000 % 3 = 1
  EXPECT_EQ(sums[4001], 0.375);
  EXPECT_TRUE(check("column_sum_f32", n, {bytes_of(a), bytes_of(out)}).ok());
  out[4000] = 0.3125f;  // 4000 % 3 = 1: the column sums to 0; one element (5/16) too many
  expect_one_mismatch(check("column_sum_f32", n, {bytes_of(a), bytes_of(out)}),
                      4000, "out[4000]: got 0.3125, expected 0 (tolerance 0)");
}

TEST(PatternsReference, Upsample2x) {
  // A 2 x 2 image [[1, 2], [3, 4]] into 4 x 4: every pixel a 2 x 2 block.
  const std::vector<float> in = {1, 2, 3, 4};
  const std::vector<float> expected = {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4};
  for (std::int64_t i = 0; i < 16; ++i) EXPECT_EQ(patterns::upsample2x_at(in, 4, i), expected[i]) << i;
  std::vector<float> out = expected;
  EXPECT_TRUE(check("upsample2x_nearest_f32", 16, {bytes_of(in), bytes_of(out)}).ok());
  out[6] = 1;  // (1, 2) is in[0][1] = 2, not its left neighbour's pixel
  expect_one_mismatch(check("upsample2x_nearest_f32", 16, {bytes_of(in), bytes_of(out)}),
                      6, "out[6]: got 1, expected 2 (tolerance 0)");
}

TEST(PatternsReference, MaxPool2x2) {
  // A 4 x 4 image into 2 x 2: the largest of each 2 x 2 block.
  const std::vector<float> in = {1, 5, 2, 0,   //
                                 3, 4, 8, 7,   //
                                 -1, -2, 6, 6,  //
                                 -3, -4, 6, 9};
  const std::vector<float> expected = {5, 8, -1, 9};
  for (std::int64_t i = 0; i < 4; ++i) EXPECT_EQ(patterns::maxpool2x2_at(in, 2, i), expected[i]) << i;
  std::vector<float> out = expected;
  EXPECT_TRUE(check("maxpool2x2_f32", 4, {bytes_of(in), bytes_of(out)}).ok());
  out[2] = -2;  // block (1, 0) is {-1, -2, -3, -4}: its largest is -1
  expect_one_mismatch(check("maxpool2x2_f32", 4, {bytes_of(in), bytes_of(out)}),
                      2, "out[2]: got -2, expected -1 (tolerance 0)");
}

TEST(PatternsReference, Blur3x3ClampsAtTheEdges) {
  // A 3 x 3 image 1..9: the centre's mean is 5; the corner (0, 0) clamps to
  // (1 + 1 + 2) + (1 + 1 + 2) + (4 + 4 + 5) = 21, mean 21 / 9; its scale is the same.
  const std::vector<float> in = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  double magnitude = 0;
  EXPECT_DOUBLE_EQ(patterns::blur3x3_at(in, 3, 4, &magnitude), 5.0);
  EXPECT_DOUBLE_EQ(magnitude, 5.0);
  EXPECT_DOUBLE_EQ(patterns::blur3x3_at(in, 3, 0), 21.0 / 9);
  std::vector<float> out(9);
  for (std::int64_t i = 0; i < 9; ++i)
    out[static_cast<std::size_t>(i)] = static_cast<float>(patterns::blur3x3_at(in, 3, i));
  EXPECT_TRUE(check("blur3x3_shared_f32", 9, {bytes_of(in), bytes_of(out)}).ok());
  out[4] = 5.01f;
  expect_one_mismatch(check("blur3x3_shared_f32", 9, {bytes_of(in), bytes_of(out)}), 4);
}

TEST(PatternsReference, SaxpyStride2ReadsEveryOtherX) {
  // y[i] = 1.5 x[2i] + y0[i], in place: x = 0..7, y0 = 1, 1, 1, 1 -> 1, 4, 7, 10.
  const std::vector<float> x = {0, 1, 2, 3, 4, 5, 6, 7}, y0 = {1, 1, 1, 1};
  std::vector<float> y = {1, 4, 7, 10};
  EXPECT_TRUE(check_in_place("saxpy_stride2_f32", 4, {bytes_of(x), bytes_of(y)}, {{}, bytes_of(y0)}).ok());
  y[1] = 2.5f;  // x[1] instead of x[2]
  const HostCheckResult r = check_in_place("saxpy_stride2_f32", 4, {bytes_of(x), bytes_of(y)}, {{}, bytes_of(y0)});
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.detail, "y[1]: got 2.5, expected 4 (tolerance 0)");
}

TEST(PatternsReference, RopeRotatesEachPair) {
  // One row of 128, pair j = (x[2j], x[2j + 1]) rotated by (cos_t[j], sin_t[j]): pair 0, (1, 2)
  // by c = 0.5, s = 0.25, gives (0.5 - 0.5, 0.25 + 1) = (0, 1.25); pair 1, (3, -1) by c = 1,
  // s = 0, stays; the other pairs are 0.
  const std::int64_t n = patterns::kRopeCols;
  std::vector<float> x(n, 0.0f), cos_t(n / 2, 1.0f), sin_t(n / 2, 0.0f);
  x[0] = 1, x[1] = 2, x[2] = 3, x[3] = -1;
  cos_t[0] = 0.5f, sin_t[0] = 0.25f;
  std::vector<float> out = x;
  out[0] = 0, out[1] = 1.25f;
  for (std::int64_t i = 0; i < n; ++i)
    EXPECT_EQ(patterns::rope_at(x, cos_t, sin_t, i), out[static_cast<std::size_t>(i)]) << i;
  EXPECT_TRUE(check("rope_f32", n, {bytes_of(x), bytes_of(cos_t), bytes_of(sin_t), bytes_of(out)}).ok());
  out[1] = 2.5f;  // x1 c + x0 c: the sine's product left out
  expect_one_mismatch(check("rope_f32", n, {bytes_of(x), bytes_of(cos_t), bytes_of(sin_t), bytes_of(out)}),
                      1, "out[1]: got 2.5, expected 1.25 (tolerance 0)");
}

TEST(PatternsReference, Permute0213MovesHeadsOutward) {
  // S = 2 tokens of 16 heads x 64, in[i] = i: out[h][s][d] = in[s][h][d].
  const std::int64_t heads = patterns::kPermuteHeads, dim = patterns::kPermuteHeadDim, seq = 2;
  const std::int64_t n = seq * heads * dim;
  std::vector<float> in(n), out(n);
  for (std::int64_t i = 0; i < n; ++i) in[static_cast<std::size_t>(i)] = static_cast<float>(i);
  const auto at = [](std::int64_t i) { return static_cast<std::size_t>(i); };
  for (std::int64_t h = 0; h < heads; ++h)
    for (std::int64_t s = 0; s < seq; ++s)
      for (std::int64_t d = 0; d < dim; ++d) out[at((h * seq + s) * dim + d)] = in[at((s * heads + h) * dim + d)];
  EXPECT_EQ(patterns::permute0213_at(in, 64), 1024.0f);    // head 0 of token 1
  EXPECT_EQ(patterns::permute0213_at(in, 128), 64.0f);     // head 1 of token 0
  EXPECT_EQ(patterns::permute0213_at(in, 1000), 1512.0f);  // head 7 of token 1, column 40
  EXPECT_TRUE(check("permute_0213_f32", n, {bytes_of(in), bytes_of(out)}).ok());
  out[128] = 128;  // a copy in place, not permuted
  expect_one_mismatch(check("permute_0213_f32", n, {bytes_of(in), bytes_of(out)}),
                      128, "out[128]: got 128, expected 64 (tolerance 0)");
}

TEST(PatternsReference, DequantScalesEachRow) {
  // Two rows of 4096 int8, scales 0.5 and -2: -128 -> -64, 127 -> 63.5, -3 -> 6; the rest 0.
  const std::int64_t cols = patterns::kDequantCols, n = 2 * cols;
  std::vector<std::int8_t> q(n, 0);
  q[0] = -128, q[1] = 127, q[cols] = -3;
  const std::vector<float> scale = {0.5f, -2.0f};
  std::vector<float> y(n);
  for (std::int64_t i = 0; i < n; ++i) y[static_cast<std::size_t>(i)] = patterns::dequant_rowscale_at(q, scale, i);
  EXPECT_EQ(y[0], -64.0f);
  EXPECT_EQ(y[1], 63.5f);
  EXPECT_EQ(y[cols], 6.0f);
  EXPECT_EQ(y[cols + 1], 0.0f);
  EXPECT_TRUE(check("dequant_int8_rowscale_f32", n, {bytes_of(q), bytes_of(scale), bytes_of(y)}).ok());
  y[1] = 127;  // the scale left out
  expect_one_mismatch(check("dequant_int8_rowscale_f32", n, {bytes_of(q), bytes_of(scale), bytes_of(y)}),
                      1, "y[1]: got 127, expected 63.5 (tolerance 0)");
}

TEST(PatternsReference, EmbeddingBagSumsItsRows) {
  // Two bags of 8 into a table of 16 rows of 128 (8 n floats), table[r][d] = r + d / 16: bag 0
  // reads rows 0..3 twice (12 + d / 2), bag 1 row 3 eight times (24 + d / 2).
  const std::int64_t cols = patterns::kBagCols, n = 2 * cols;
  const std::vector<std::int32_t> idx = {0, 1, 2, 3, 0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3};
  std::vector<float> table(8 * n), out(n);
  for (std::int64_t i = 0; i < 8 * n; ++i)
    table[static_cast<std::size_t>(i)] = static_cast<float>(i / cols) + static_cast<float>(i % cols) / 16;
  for (std::int64_t i = 0; i < n; ++i)
    out[static_cast<std::size_t>(i)] = static_cast<float>(i < cols ? 12 : 24) + static_cast<float>(i % cols) / 2;
  EXPECT_EQ(patterns::embedding_bag_at(idx, table, 5), 14.5f);
  EXPECT_EQ(patterns::embedding_bag_at(idx, table, cols + 10), 29.0f);
  EXPECT_TRUE(check("embedding_bag_sum_f32", n, {bytes_of(idx), bytes_of(table), bytes_of(out)}).ok());
  out[cols + 2] = 24;  // column 0's sum in column 2
  expect_one_mismatch(check("embedding_bag_sum_f32", n, {bytes_of(idx), bytes_of(table), bytes_of(out)}),
                      cols + 2, "out[130]: got 24, expected 25 (tolerance 0)");
}

TEST(PatternsReference, SwigluGatesTheUpHalf) {
  // silu(v) = v / (1 + e^-v): silu(ln 3) = ln 3 / (1 + 1/3) = 0.75 ln 3, silu(-ln 3) = -ln 3 / 4,
  // silu(0) = 0. Two rows of x (2 x 4096 each); row 0's gates ln 3, -ln 3, 0, 2 meet up values
  // 4, 4, 5, 0: outputs 3 ln 3 = 3.2958369, -ln 3 = -1.0986123, 0, 0; row 1's column 5 is
  // ln 3 and 4 again. Every other gate is 0, so every other output is.
  const std::int64_t cols = patterns::kSwigluCols, n = 2 * cols;
  const float ln3 = std::log(3.0f);
  std::vector<float> x(2 * n, 0.0f);
  x[0] = ln3, x[1] = -ln3, x[2] = 0, x[3] = 2;
  x[cols] = 4, x[cols + 1] = 4, x[cols + 2] = 5, x[cols + 3] = 0;
  x[2 * cols + 5] = ln3, x[3 * cols + 5] = 4;
  EXPECT_NEAR(patterns::swiglu_at(x, 0), 3.2958369, 1e-6);
  EXPECT_NEAR(patterns::swiglu_at(x, 1), -1.0986123, 1e-6);
  EXPECT_EQ(patterns::swiglu_at(x, 2), 0.0);
  EXPECT_EQ(patterns::swiglu_at(x, 3), 0.0);
  EXPECT_NEAR(patterns::swiglu_at(x, cols + 5), 3.2958369, 1e-6);
  std::vector<float> out(n, 0.0f);
  out[0] = out[cols + 5] = 3.2958369f;
  out[1] = -1.0986123f;
  EXPECT_TRUE(check("swiglu_f32", n, {bytes_of(x), bytes_of(out)}).ok());
  // Gate and up swapped: silu(4) (-ln 3) = 4 / (1 + e^-4) (-ln 3) = -4.3154097, not -1.0986.
  out[1] = -4.3154097f;
  expect_one_mismatch(check("swiglu_f32", n, {bytes_of(x), bytes_of(out)}), 1);
}

TEST(PatternsReference, RmsNormOfAKnownRow) {
  // Squares 1, 4, 9, 16: mean 7.5, so x / sqrt(7.5 + 1e-6) w, 1 / sqrt(7.5 + 1e-6) = 0.36514835.
  const std::vector<float> x = {1, 2, 3, 4}, w = {1, 1, 2, -1};
  std::vector<double> out(4);
  patterns::rmsnorm_row(x, w, out);
  const double scale = 1 / std::sqrt(7.5 + static_cast<double>(patterns::kRmsNormEpsilon));
  EXPECT_NEAR(out[0], scale, 1e-12);
  EXPECT_NEAR(out[1], 2 * scale, 1e-12);
  EXPECT_NEAR(out[2], 6 * scale, 1e-12);
  EXPECT_NEAR(out[3], -4 * scale, 1e-12);
  EXPECT_NEAR(out[0], 0.36514835, 1e-8);
  // Two rows of 4096 through the host check: row 0 is +-0.5 (mean square 0.25), row 1 +-2 (4);
  // w is 1 on even columns, -0.5 on odd ones.
  const std::int64_t cols = patterns::kRmsNormCols;
  std::vector<float> in(2 * cols), weight(cols), res(2 * cols);
  for (std::int64_t c = 0; c < cols; ++c) weight[c] = c % 2 ? -0.5f : 1.0f;
  for (std::int64_t i = 0; i < 2 * cols; ++i) {
    const double v = (i < cols ? 0.5 : 2.0) * (i % 3 ? 1 : -1), square = i < cols ? 0.25 : 4.0;
    in[i] = static_cast<float>(v);
    res[i] = static_cast<float>(v / std::sqrt(square + 1e-6) * weight[i % cols]);
  }
  EXPECT_TRUE(check("rmsnorm_row_f32", 2 * cols, {bytes_of(in), bytes_of(weight), bytes_of(res)}).ok());
  // layernorm_row's epsilon (1e-5) in row 0: 1.8e-5 of the value off, past the allowance (32
  // roundings: 1.9e-6 of it).
  res[3] = static_cast<float>(-0.5 / std::sqrt(0.25 + 1e-5) * -0.5);
  expect_one_mismatch(check("rmsnorm_row_f32", 2 * cols, {bytes_of(in), bytes_of(weight), bytes_of(res)}), 3);
}

TEST(PatternsReference, CrossEntropyOfAKnownRow) {
  // Logits 0 and ln 3: log(1 + 3) = ln 4 = 1.3862944 less the target's logit: ln 4 for target 0,
  // ln(4 / 3) = 0.28768207 for target 1.
  const std::vector<float> two = {0.0f, std::log(3.0f)};
  EXPECT_NEAR(patterns::cross_entropy_row(two, 0), 1.3862944, 1e-6);
  EXPECT_NEAR(patterns::cross_entropy_row(two, 1), 0.28768207, 1e-6);
  // Two rows of 1024: row 0 all 0.25 (ln 1024 = 6.9314718 whatever the target: 5); row 1 all 0
  // but column 7, v = ln 1024 (as a float), its target: log(1023 + e^v) - v = ln(2047 / 1024)
  // = 0.69266 (to the float's rounding of v).
  const std::int64_t cols = patterns::kCrossEntropyCols;
  std::vector<float> x(2 * cols, 0.0f);
  std::fill(x.begin(), x.begin() + cols, 0.25f);
  const float v = std::log(1024.0f);
  x[cols + 7] = v;
  const std::vector<std::int32_t> target = {5, 7};
  EXPECT_NEAR(patterns::cross_entropy_row(std::span<const float>(x).first(cols), 5), 6.9314718, 1e-6);
  const double second = std::log(1023 + std::exp(static_cast<double>(v))) - v;
  EXPECT_NEAR(patterns::cross_entropy_row(std::span<const float>(x).last(cols), 7), second, 1e-12);
  EXPECT_NEAR(second, 0.69266, 1e-5);
  std::vector<float> loss = {6.9314718f, static_cast<float>(second)};
  EXPECT_TRUE(check("cross_entropy_row_f32", 2 * cols, {bytes_of(x), bytes_of(target), bytes_of(loss)}).ok());
  // The target's logit left out: log(2047) = 7.6241, not 0.69266.
  loss[1] = 7.6241f;
  expect_one_mismatch(check("cross_entropy_row_f32", 2 * cols, {bytes_of(x), bytes_of(target), bytes_of(loss)}), 1);
}

TEST(PatternsReference, ColumnMeans) {
  // [[1, 2, 3], [4, 5, 6]]: means 2.5, 3.5, 4.5.
  const std::vector<float> small = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(patterns::column_means(small, 3), (std::vector<double>{2.5, 3.5, 4.5}));
  // Four rows of 1024: a[r][c] = (c % 3 - 1)(r + 1) / 16, so column c sums to (c % 3 - 1) 10 / 16
  // and its mean is (c % 3 - 1) 10 / 64 = +-0.15625 or 0.
  const std::int64_t cols = patterns::kColMeanCols, n = 4 * cols;
  std::vector<float> a(n), out(cols);
  for (std::int64_t r = 0; r < 4; ++r)
    for (std::int64_t c = 0; c < cols; ++c) a[r * cols + c] = static_cast<float>((c % 3 - 1) * (r + 1)) / 16;
  for (std::int64_t c = 0; c < cols; ++c) out[c] = static_cast<float>(c % 3 - 1) * 10 / 64;
  const auto means = patterns::column_means(a, cols);
  EXPECT_EQ(means[1023], -0.15625);  // 1023 % 3 = 0
  EXPECT_EQ(means[1000], 0.0);       // 1000 % 3 = 1
  EXPECT_EQ(means[1001], 0.15625);
  EXPECT_TRUE(check("col_mean_tiled_f32", n, {bytes_of(a), bytes_of(out)}).ok());
  out[1001] = 0.625f;  // the column's sum, not its mean
  expect_one_mismatch(check("col_mean_tiled_f32", n, {bytes_of(a), bytes_of(out)}), 1001);
}

// FP16 values as a buffer's bytes.
std::vector<std::byte> halves_of(const std::vector<float>& v) {
  std::vector<std::byte> b(2 * v.size());
  for (std::size_t i = 0; i < v.size(); ++i) encode_value(DType::f16, v[i], b.data() + 2 * i);
  return b;
}

TEST(PatternsReference, BiasReluClampsAtZero) {
  EXPECT_EQ(patterns::bias_relu_at(1.5f, -0.25f), 1.25f);
  EXPECT_EQ(patterns::bias_relu_at(-2.0f, 1.5f), 0.0f);
  EXPECT_EQ(patterns::bias_relu_at(0.5f, -0.5f), 0.0f);
  // Two rows of 4096 halves: b[c] = -0.5, 0, 0.5 for c % 3 = 0, 1, 2; row 0 all 0.25, row 1 all
  // -0.25. Row 0: 0, 0.25, 0.75; row 1: 0, 0, 0.25.
  const std::int64_t cols = patterns::kBiasReluCols, n = 2 * cols;
  std::vector<float> x(n), b(cols), out(n);
  for (std::int64_t c = 0; c < cols; ++c) b[c] = static_cast<float>(c % 3 - 1) / 2;
  for (std::int64_t i = 0; i < n; ++i) {
    x[i] = i < cols ? 0.25f : -0.25f;
    out[i] = std::max(x[i] + b[i % cols], 0.0f);
  }
  EXPECT_EQ(out[2], 0.75f);
  EXPECT_EQ(out[cols + 1], 0.0f);
  EXPECT_EQ(out[cols + 2], 0.25f);
  EXPECT_TRUE(check("bias_relu_f16x2", n, {halves_of(x), halves_of(b), halves_of(out)}).ok());
  // The sum without the clamp: -0.25 where 0 is due.
  out[cols + 1] = -0.25f;
  expect_one_mismatch(check("bias_relu_f16x2", n, {halves_of(x), halves_of(b), halves_of(out)}), cols + 1,
                      "out[4097]: got -0.25, expected 0 (tolerance 0)");
}

// The series of ln(1 + t) / t: p(0) = 1 exactly (the last step adds c_0 to 0); at t = 1/2 it is
// 2 ln 1.5 = 0.81093 (the terms past degree 64 are below 2^-65). The FP32 check takes the device's
// result bit for bit, as it does the FP16 one (x = 4 is t = 1/2).
TEST(PatternsReference, PolynomialsByHornersRule) {
  EXPECT_EQ(patterns::poly_coefficient(0), 1.0f);
  EXPECT_EQ(patterns::poly_coefficient(1), -0.5f);
  EXPECT_EQ(patterns::poly_coefficient(3), -0.25f);
  EXPECT_EQ(patterns::poly_f32_point(0.0f), 1.0f);
  EXPECT_NEAR(patterns::poly_f32_point(0.5f), 2 * std::log(1.5), 1e-6);
  EXPECT_EQ(patterns::poly_f16_at(0.0f), 1.0f);
  EXPECT_NEAR(patterns::poly_f16_at(4.0f), 2 * std::log(1.5), 0.01);  // 64 FP16 roundings
  const std::vector<float> x = {0.0f, 0.5f, -0.75f};
  std::vector<float> y = {patterns::poly_f32_point(0.0f), patterns::poly_f32_point(0.5f),
                          patterns::poly_f32_point(-0.75f)};
  EXPECT_TRUE(check("poly_horner_f32", 3, {bytes_of(x), bytes_of(y)}).ok());
  y[1] = std::nextafter(y[1], 1.0f);  // one ulp off
  expect_one_mismatch(check("poly_horner_f32", 3, {bytes_of(x), bytes_of(y)}), 1);
  // An odd number of halves; the last is the kernel's lone half.
  const std::vector<float> xh = {0.0f, 4.0f, -8.0f};
  std::vector<float> yh = {patterns::poly_f16_at(0.0f), patterns::poly_f16_at(4.0f), patterns::poly_f16_at(-8.0f)};
  EXPECT_TRUE(check("poly_horner_f16x2", 3, {halves_of(xh), halves_of(yh)}).ok());
  yh[2] = patterns::poly_f16_at(8.0f);  // t = 1, not -1
  expect_one_mismatch(check("poly_horner_f16x2", 3, {halves_of(xh), halves_of(yh)}), 2);
}

// (3, 4, 0) is (0.6, 0.8, 0); a vector of zeros stays zeros; (1, -2, 2) is a third of itself.
TEST(PatternsReference, NormalizeScalesEachVectorToUnitLength) {
  const std::vector<float> v = {3, 4, 0, 0, 0, 0, 1, -2, 2};
  EXPECT_DOUBLE_EQ(patterns::normalize_vec3_at(v, 1), 0.8);
  EXPECT_EQ(patterns::normalize_vec3_at(v, 4), 0.0);
  EXPECT_DOUBLE_EQ(patterns::normalize_vec3_at(v, 7), -2.0 / 3);
  std::vector<float> out = {0.6f, 0.8f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f / 3, -2.0f / 3, 2.0f / 3};
  EXPECT_TRUE(check("normalize_vec3_f32", 3, {bytes_of(v), bytes_of(out)}).ok());
  out[7] = -2.0f;  // not scaled
  expect_one_mismatch(check("normalize_vec3_f32", 3, {bytes_of(v), bytes_of(out)}), 7);
}

TEST(PatternsReference, BilinearUpsamplesWithHalfPixelCentres) {
  // [[0, 4], [8, 12]] to 4 x 4. Source coordinates (align_corners = false) along a side: 0
  // (clamped from -0.25), 0.25, 0.75, 1.25 (its second neighbour clamped to the first):
  // columns 0, 1, 3, 4 of row 0 and 8, 9, 11, 12 of row 1; the rows between weigh them 3:1
  // and 1:3.
  const std::vector<float> in = {0, 4, 8, 12};
  const std::vector<float> out = {0, 1, 3, 4, 2, 3, 5, 6, 6, 7, 9, 10, 8, 9, 11, 12};
  for (std::int64_t i = 0; i < 16; ++i) EXPECT_EQ(patterns::bilinear_up2x_at(in, 4, i), out[i]) << i;
  // The scale: (1, 1) weighs 0, 4, 8 and 12 by 9/16, 3/16, 3/16 and 1/16: 0 + 0.75 + 1.5 + 0.75.
  double magnitude = 0;
  EXPECT_EQ(patterns::bilinear_up2x_at(in, 4, 5, &magnitude), 3.0);
  EXPECT_EQ(magnitude, 3.0);
  EXPECT_TRUE(check("bilinear_up2x_f32", 16, {bytes_of(in), bytes_of(out)}).ok());
  // align_corners = true samples (1, 1) at (1/3, 1/3): 4, not 3.
  std::vector<float> corners = out;
  corners[5] = 4.0f;
  expect_one_mismatch(check("bilinear_up2x_f32", 16, {bytes_of(in), bytes_of(corners)}), 5);
  // A 1 x 1 input: every output is its value.
  const std::vector<float> one = {0.5f}, four = {0.5f, 0.5f, 0.5f, 0.5f};
  EXPECT_TRUE(check("bilinear_up2x_f32", 4, {bytes_of(one), bytes_of(four)}).ok());
}

TEST(PatternsReference, ArgmaxTakesTheFirstLargest) {
  EXPECT_EQ(patterns::argmax_row(std::vector<float>{1, 3, 2, 3}), 1);
  EXPECT_EQ(patterns::argmax_row(std::vector<float>{-1, -0.5f, -2}), 1);
  // Two rows of 1024: row 0 all 0 but columns 37 and 700 (lanes 5 and 28), both 0.5: 37; row 1
  // all 0 but the columns of lane 31 (31, 63, ..., 1023), all 1: 31.
  const std::int64_t cols = patterns::kArgmaxCols;
  std::vector<float> x(2 * cols, 0.0f);
  x[37] = x[700] = 0.5f;
  for (std::int64_t c = 31; c < cols; c += 32) x[cols + c] = 1.0f;
  std::vector<std::int32_t> out = {37, 31};
  EXPECT_TRUE(check("argmax_row_f32", 2 * cols, {bytes_of(x), bytes_of(out)}).ok());
  // The last of equal largest, not the first.
  out[1] = 1023;
  expect_one_mismatch(check("argmax_row_f32", 2 * cols, {bytes_of(x), bytes_of(out)}), 1,
                      "out[1]: got 1023, expected 31 (tolerance 0)");
  // A row the kernel never wrote still holds the poison (-1 as an int32).
  out = {-1, 31};
  expect_one_mismatch(check("argmax_row_f32", 2 * cols, {bytes_of(x), bytes_of(out)}), 0,
                      "out[0]: never written (still poisoned), expected 37");
}

TEST(PatternsReference, Im2colLaysOutTheWindows) {
  // A 3 x 3 image 1..9. Tap 0 (ky = kx = 0) at (1, 1) reads (0, 0): 1; at (0, 0), outside: 0.
  // Tap 8 at (1, 1) reads (2, 2): 9; tap 5 (ky = 1, kx = 2) at (0, 1) reads (0, 2): 3, at
  // (0, 2), outside: 0. Tap 4 is the image itself.
  const std::vector<float> in = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::int64_t n = 9;
  EXPECT_EQ(patterns::im2col3x3_at(in, 3, 0 * n + 4), 1.0f);
  EXPECT_EQ(patterns::im2col3x3_at(in, 3, 0 * n + 0), 0.0f);
  EXPECT_EQ(patterns::im2col3x3_at(in, 3, 8 * n + 4), 9.0f);
  EXPECT_EQ(patterns::im2col3x3_at(in, 3, 5 * n + 1), 3.0f);
  EXPECT_EQ(patterns::im2col3x3_at(in, 3, 5 * n + 2), 0.0f);
  for (std::int64_t p = 0; p < n; ++p) EXPECT_EQ(patterns::im2col3x3_at(in, 3, 4 * n + p), in[p]);
  // The whole 9 x 9 matrix, row by row (tap by tap), written out by hand.
  const std::vector<float> out = {
      0, 0, 0, 0, 1, 2, 0, 4, 5,  // tap 0: (y - 1, x - 1)
      0, 0, 0, 1, 2, 3, 4, 5, 6,  // tap 1: (y - 1, x)
      0, 0, 0, 2, 3, 0, 5, 6, 0,  // tap 2: (y - 1, x + 1)
      0, 1, 2, 0, 4, 5, 0, 7, 8,  // tap 3: (y, x - 1)
      1, 2, 3, 4, 5, 6, 7, 8, 9,  // tap 4: (y, x)
      2, 3, 0, 5, 6, 0, 8, 9, 0,  // tap 5: (y, x + 1)
      0, 4, 5, 0, 7, 8, 0, 0, 0,  // tap 6: (y + 1, x - 1)
      4, 5, 6, 7, 8, 9, 0, 0, 0,  // tap 7: (y + 1, x)
      5, 6, 0, 8, 9, 0, 0, 0, 0,  // tap 8: (y + 1, x + 1)
  };
  EXPECT_TRUE(check("im2col3x3_f32", n, {bytes_of(in), bytes_of(out)}).ok());
  // Taps in the transposed order (kx before ky): tap 1 would read (y, x - 1), tap 3 (y - 1, x).
  std::vector<float> swapped = out;
  std::copy(out.begin() + 3 * n, out.begin() + 4 * n, swapped.begin() + n);
  std::copy(out.begin() + n, out.begin() + 2 * n, swapped.begin() + 3 * n);
  const HostCheckResult r = check("im2col3x3_f32", n, {bytes_of(in), bytes_of(swapped)});
  EXPECT_EQ(r.mismatches, 16);  // of the two rows' 18: both are padding at (0, 0)
  // A 1 x 1 image: the centre tap holds it, the other 8 are padding.
  const std::vector<float> one = {0.75f}, column = {0, 0, 0, 0, 0.75f, 0, 0, 0, 0};
  EXPECT_TRUE(check("im2col3x3_f32", 1, {bytes_of(one), bytes_of(column)}).ok());
}

TEST(PatternsReference, SortedSegments) {
  // Two segments of 1024: the first descending, the second interleaved halves; each sorted
  // on its own (the second segment's values stay in it).
  const std::int64_t seg = patterns::kSortSegment, n = 2 * seg;
  std::vector<float> x0(n), x(n);
  for (std::int64_t i = 0; i < seg; ++i) {
    x0[i] = static_cast<float>(seg - 1 - i) / 1024;                      // 1023/1024 .. 0
    x0[seg + i] = static_cast<float>(i % 2 ? -i : i) / 2048 - 0.25f;     // both signs, no repeats
  }
  for (std::int64_t g = 0; g < 2; ++g) {
    std::vector<float> s(x0.begin() + g * seg, x0.begin() + (g + 1) * seg);
    std::sort(s.begin(), s.end());
    std::copy(s.begin(), s.end(), x.begin() + g * seg);
  }
  EXPECT_EQ(x[0], 0.0f);
  EXPECT_EQ(x[seg - 1], 1023.0f / 1024);
  EXPECT_EQ(x[seg], -1023.0f / 2048 - 0.25f);
  const std::vector<std::vector<std::byte>> initial = {bytes_of(x0)};
  EXPECT_TRUE(check_in_place("bitonic_sort_block_f32", n, {bytes_of(x)}, initial).ok());
  std::swap(x[seg + 10], x[seg + 11]);  // two neighbours out of order
  HostCheckResult r = check_in_place("bitonic_sort_block_f32", n, {bytes_of(x)}, initial);
  EXPECT_EQ(r.mismatches, 2);
  std::swap(x[seg + 10], x[seg + 11]);
  // Sorted across the whole array instead of per segment: the first segment would hold the
  // second's negative values.
  std::vector<float> whole = x0;
  std::sort(whole.begin(), whole.end());
  r = check_in_place("bitonic_sort_block_f32", n, {bytes_of(whole)}, initial);
  EXPECT_GT(r.mismatches, 0);
  // Never run: the seeded, unsorted values.
  EXPECT_FALSE(check_in_place("bitonic_sort_block_f32", n, {bytes_of(x0)}, initial).ok());
}

TEST(PatternsReference, SpmvWarpOfTwoRows) {
  // Two rows of 32 nonzeros. Row 0: every column 1 (x = -0.25), values 1/16: 32 x -1/64 = -0.5.
  // Row 1: even nonzeros column 0 (x = 0.5) with value 0.5, odd ones column 1 with value -1:
  // 16 x 0.25 + 16 x 0.25 = 8.
  const std::vector<std::int32_t> row_ptr = {0, 32, 64};
  std::vector<std::int32_t> col(64);
  std::vector<float> val(64);
  for (int j = 0; j < 32; ++j) {
    col[j] = 1;
    val[j] = 0.0625f;
    col[32 + j] = j % 2;
    val[32 + j] = j % 2 ? -1.0f : 0.5f;
  }
  const std::vector<float> x = {0.5f, -0.25f};
  std::vector<float> y = {-0.5f, 8.0f};
  EXPECT_EQ(patterns::spmv_row(row_ptr, col, val, x, 0), -0.5);
  EXPECT_EQ(patterns::spmv_row(row_ptr, col, val, x, 1), 8.0);
  const auto buffers = [&] {
    return std::vector<std::vector<std::byte>>{bytes_of(row_ptr), bytes_of(col), bytes_of(val), bytes_of(x),
                                               bytes_of(y)};
  };
  EXPECT_TRUE(check("spmv_csr_warp_f32", 64, buffers()).ok());
  y[1] = 7.75f;  // one odd nonzero's product lost
  expect_one_mismatch(check("spmv_csr_warp_f32", 64, buffers()), 1, "y[1]: got 7.75, expected 8 (tolerance 0)");
}

TEST(PatternsReference, WorstElementAcrossChunks) {
  // Large enough for several worker chunks: the worst failure wins, every failure counts.
  const std::int64_t n = 3 * (std::int64_t{1} << 20) + 5;
  const HostCheckResult r = patterns::compare_all("v", n, [&](std::int64_t i, patterns::Comparison& c) {
    const double got = i == 7 ? 2.0 : i == n - 1 ? 9.0 : 1.0;
    c.add(i, got, 1.0, 0.5);
  });
  EXPECT_EQ(r.mismatches, 2);
  EXPECT_EQ(r.worst_index, n - 1);
  EXPECT_DOUBLE_EQ(r.worst_error, 8.0);
  EXPECT_TRUE(patterns::compare_all("v", 10, [](std::int64_t i, patterns::Comparison& c) { c.add(i, 1, 1, 0); }).ok());
}

TEST(PatternsInputs, SixteenthsAreExactAndSeeded) {
  std::vector<std::byte> a(4096 * 4), b(4096 * 4), c(4096 * 4);
  fill_values(InputValues::sixteenths, DType::f32, 7, 0, a);
  fill_values(InputValues::sixteenths, DType::f32, 7, 0, b);
  fill_values(InputValues::sixteenths, DType::f32, 7, 1, c);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  const std::vector<float> v = values_of<float>(a);
  bool both_ends = false;
  for (float x : v) {
    EXPECT_LE(std::fabs(x), 1.0f);
    EXPECT_EQ(x * 16, std::round(x * 16));
    both_ends = both_ends || x == 1.0f;
  }
  EXPECT_TRUE(both_ends);
}

TEST(PatternsInputs, GatherAndCsrIndices) {
  const std::int64_t n = std::int64_t{1} << 16;
  std::vector<std::byte> idx(n * 4), again(n * 4), col(n * 4), row_ptr((n / 8 + 1) * 4);
  fill_values(InputValues::indices, DType::i32, 5, 0, idx);
  fill_values(InputValues::indices, DType::i32, 5, 0, again);
  EXPECT_EQ(idx, again);
  fill_values(InputValues::csr_columns, DType::i32, 5, 1, col);
  fill_values(InputValues::csr_row_offsets, DType::i32, 5, 2, row_ptr);
  const auto i = values_of<std::int32_t>(idx), c = values_of<std::int32_t>(col),
             r = values_of<std::int32_t>(row_ptr);
  std::int32_t i_max = 0, c_max = 0;
  for (auto v : i) {
    EXPECT_GE(v, 0);
    i_max = std::max(i_max, v);
  }
  for (auto v : c) {
    EXPECT_GE(v, 0);
    c_max = std::max(c_max, v);
  }
  // Uniform over [0, n) and over [0, n / 8): the largest of 2^16 draws is near the top.
  EXPECT_LT(i_max, n);
  EXPECT_GT(i_max, n - n / 100);
  EXPECT_LT(c_max, n / 8);
  EXPECT_GT(c_max, n / 8 - n / 800);
  for (std::size_t k = 0; k < r.size(); ++k) EXPECT_EQ(r[k], static_cast<std::int32_t>(8 * k)) << k;
  EXPECT_THROW(fill_values(InputValues::indices, DType::f32, 5, 0, idx), Error);
}

TEST(PatternsInputs, HistogramKeysAndScatterTargets) {
  const std::int64_t n = std::int64_t{1} << 16;
  std::vector<std::byte> keys(n * 4), again(n * 4), targets(n * 4);
  fill_values(InputValues::bin_keys, DType::i32, 9, 0, keys);
  fill_values(InputValues::bin_keys, DType::i32, 9, 0, again);
  EXPECT_EQ(keys, again);
  fill_values(InputValues::scatter_indices, DType::i32, 9, 1, targets);
  // Keys uniform over [0, 1024): 64 per bin on average, every bin hit; targets over [0, n / 4).
  std::vector<std::int64_t> per_bin(1024);
  for (auto k : values_of<std::int32_t>(keys)) {
    ASSERT_GE(k, 0);
    ASSERT_LT(k, 1024);
    ++per_bin[static_cast<std::size_t>(k)];
  }
  for (std::size_t b = 0; b < per_bin.size(); ++b)
    EXPECT_NEAR(static_cast<double>(per_bin[b]), 64, 48) << b;  // 6 sigma of 8
  std::int32_t t_max = 0;
  for (auto t : values_of<std::int32_t>(targets)) {
    EXPECT_GE(t, 0);
    t_max = std::max(t_max, t);
  }
  EXPECT_LT(t_max, n / 4);
  EXPECT_GT(t_max, n / 4 - n / 400);
  EXPECT_THROW(fill_values(InputValues::bin_keys, DType::f32, 9, 0, keys), Error);
  EXPECT_THROW(fill_values(InputValues::scatter_indices, DType::u8, 9, 0, keys), Error);
}

TEST(PatternsInputs, UnitIntervalAndWarpCsr) {
  const std::int64_t n = std::int64_t{1} << 16;
  std::vector<std::byte> unit(n * 4), again(n * 4), col(n * 4), row_ptr((n / 32 + 1) * 4);
  fill_values(InputValues::unit_interval, DType::f32, 3, 0, unit);
  fill_values(InputValues::unit_interval, DType::f32, 3, 0, again);
  EXPECT_EQ(unit, again);
  const std::vector<float> u = values_of<float>(unit);
  // Uniform in [0, 1) on a 2^-23 grid: never negative, mean 1/2.
  double mean = 0;
  for (float v : u) {
    ASSERT_GE(v, 0.0f);
    ASSERT_LT(v, 1.0f);
    ASSERT_EQ(v * 0x1p23f, std::floor(v * 0x1p23f));
    mean += v;
  }
  EXPECT_NEAR(mean / static_cast<double>(n), 0.5, 0.01);
  fill_values(InputValues::csr_warp_columns, DType::i32, 3, 1, col);
  fill_values(InputValues::csr_warp_row_offsets, DType::i32, 3, 2, row_ptr);
  const auto c = values_of<std::int32_t>(col), r = values_of<std::int32_t>(row_ptr);
  // Columns uniform over the n / 32 rows; offsets 32 r.
  std::int32_t c_max = 0;
  for (auto v : c) {
    EXPECT_GE(v, 0);
    c_max = std::max(c_max, v);
  }
  EXPECT_LT(c_max, n / 32);
  EXPECT_GT(c_max, n / 32 - n / 3200);
  for (std::size_t k = 0; k < r.size(); ++k) EXPECT_EQ(r[k], static_cast<std::int32_t>(32 * k)) << k;
  EXPECT_THROW(fill_values(InputValues::unit_interval, DType::f16, 3, 0, unit), Error);
  EXPECT_THROW(fill_values(InputValues::csr_warp_columns, DType::f32, 3, 1, col), Error);
}

TEST(PatternsInputs, BinDistributions) {
  const std::int64_t n = std::int64_t{1} << 20;
  std::vector<std::byte> uniform(n), skewed(n);
  fill_values(InputValues::bins_uniform, DType::u8, 3, 0, uniform);
  fill_values(InputValues::bins_skewed, DType::u8, 3, 0, skewed);
  const auto as_u8 = [](const std::vector<std::byte>& v) {
    return std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(v.data()), v.size());
  };
  const auto hu = patterns::histogram(as_u8(uniform));
  const auto hs = patterns::histogram(as_u8(skewed));
  for (int b = 0; b < patterns::kBins; ++b)
    EXPECT_NEAR(static_cast<double>(hu[b]), n / 256.0, 400) << b;  // ~6 sigma of 64
  EXPECT_NEAR(static_cast<double>(hs[0]) / n, 0.9 + 0.1 / 256, 0.003);
  EXPECT_NEAR(static_cast<double>(hs[200]) / n, 0.1 / 256, 0.0002);
  EXPECT_THROW(fill_values(InputValues::bins_skewed, DType::f32, 3, 0, uniform), Error);
}

}  // namespace
}  // namespace roofline::kernels

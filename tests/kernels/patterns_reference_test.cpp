// CPU tests of the patterns suite's references, input values and whole-array host checks,
// with hand-worked values (no device needed).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
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

// Runs kernel `name`'s host check on the given buffers (layout order).
HostCheckResult check(const char* name, std::int64_t n, const std::vector<std::vector<std::byte>>& buffers) {
  const KernelImpl* k = find_kernel_impl(name);
  EXPECT_NE(k, nullptr) << name;
  EXPECT_NE(k->host_check, nullptr) << name;
  return k->host_check(HostArrays{buffers, n});
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
  const HostCheckResult r = check("transpose_naive", 16, {bytes_of(in), bytes_of(out)});
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.worst_index, 1);
  EXPECT_EQ(r.detail, "out[1]: got 1, expected 4 (tolerance 0)");
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
  for (const char* name : {"histogram_shared", "histogram_global", "histogram_global_skewed", "histogram_shared_skewed"})
    EXPECT_TRUE(check(name, 7, {bytes_of(data), bytes_of(bins)}).ok()) << name;
  bins[255] = 4;  // counts are exact: one too many fails
  const HostCheckResult r = check("histogram_shared", 7, {bytes_of(data), bytes_of(bins)});
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.worst_index, 255);
  EXPECT_EQ(r.detail, "bins[255]: got 4, expected 3 (tolerance 0)");
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
  const HostCheckResult r = check("sgemm_naive", 4, {bytes_of(a), bytes_of(b), bytes_of(wrong)});
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.worst_index, 2);
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
  const HostCheckResult r = check("softmax_row", kRowCols, {bytes_of(row), bytes_of(result)});
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.worst_index, 17);
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
  const HostCheckResult r =
      check("layernorm_row", 2 * kRowCols, {bytes_of(in), bytes_of(g), bytes_of(bt), bytes_of(res)});
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.worst_index, kRowCols + 3);
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
  std::vector<float> v(4096);
  std::memcpy(v.data(), a.data(), a.size());
  bool both_ends = false;
  for (float x : v) {
    EXPECT_LE(std::fabs(x), 1.0f);
    EXPECT_EQ(x * 16, std::round(x * 16));
    both_ends = both_ends || x == 1.0f;
  }
  EXPECT_TRUE(both_ends);
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
  for (int b = 0; b < patterns::kBins; ++b) EXPECT_NEAR(static_cast<double>(hu[b]), n / 256.0, 400) << b;  // ~6 sigma of 64
  EXPECT_NEAR(static_cast<double>(hs[0]) / n, 0.9 + 0.1 / 256, 0.003);
  EXPECT_NEAR(static_cast<double>(hs[200]) / n, 0.1 / 256, 0.0002);
  EXPECT_THROW(fill_values(InputValues::bins_skewed, DType::f32, 3, 0, uniform), Error);
}

}  // namespace
}  // namespace roofline::kernels

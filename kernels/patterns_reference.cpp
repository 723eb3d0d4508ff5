#include "kernels/patterns_reference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace roofline::kernels::patterns {

std::int64_t square_side(std::int64_t n) {
  if (n <= 0) return -1;
  auto s = static_cast<std::int64_t>(std::sqrt(static_cast<double>(n)));
  while (s * s > n) --s;
  while ((s + 1) * (s + 1) <= n) ++s;
  return s * s == n ? s : -1;
}

std::int64_t cube_side(std::int64_t n) {
  if (n <= 0) return -1;
  auto s = static_cast<std::int64_t>(std::cbrt(static_cast<double>(n)));
  while (s * s * s > n) --s;
  while ((s + 1) * (s + 1) * (s + 1) <= n) ++s;
  return s * s * s == n ? s : -1;
}

double float_sum_tolerance(std::int64_t length, double magnitude) {
  const double depth = std::max(1.0, std::ceil(std::log2(static_cast<double>(std::max<std::int64_t>(length, 2)))));
  return kFloatEpsilon * depth * magnitude;
}

double sum(std::span<const float> x) {
  const auto parts = parallel_chunks(static_cast<std::int64_t>(x.size()), [&](std::int64_t begin, std::int64_t end) {
    double s = 0;
    for (std::int64_t i = begin; i < end; ++i) s += x[static_cast<std::size_t>(i)];
    return s;
  });
  double s = 0;
  for (double p : parts) s += p;
  return s;
}

float stencil5_at(std::span<const float> in, std::int64_t side, std::int64_t r, std::int64_t c) {
  const auto at = [&](std::int64_t i, std::int64_t j) { return in[static_cast<std::size_t>(i * side + j)]; };
  if (r == 0 || c == 0 || r == side - 1 || c == side - 1) return at(r, c);
  return stencil5_point(at(r, c), at(r - 1, c), at(r + 1, c), at(r, c - 1), at(r, c + 1));
}

float conv7_at(std::span<const float> x, std::int64_t i) {
  const auto n = static_cast<std::int64_t>(x.size());
  const auto at = [&](std::int64_t k) { return x[static_cast<std::size_t>(std::clamp<std::int64_t>(k, 0, n - 1))]; };
  return conv7_point(at(i - 3), at(i - 2), at(i - 1), at(i), at(i + 1), at(i + 2), at(i + 3));
}

float gather_at(std::span<const std::int32_t> idx, std::span<const float> x, std::int64_t i) {
  return x[static_cast<std::size_t>(idx[static_cast<std::size_t>(i)])];
}

double spmv_row(std::span<const std::int32_t> row_ptr, std::span<const std::int32_t> col, std::span<const float> val,
                std::span<const float> x, std::int64_t row, double* magnitude) {
  double s = 0, m = 0;
  for (std::int64_t j = row_ptr[static_cast<std::size_t>(row)]; j < row_ptr[static_cast<std::size_t>(row + 1)]; ++j) {
    const auto k = static_cast<std::size_t>(j);
    const double p = static_cast<double>(val[k]) * static_cast<double>(x[static_cast<std::size_t>(col[k])]);
    s += p;
    m += std::fabs(p);
  }
  if (magnitude != nullptr) *magnitude = m;
  return s;
}

double gemv_row(std::span<const float> a, std::span<const float> x, std::int64_t row, double* magnitude) {
  const std::size_t cols = x.size();
  double s = 0, m = 0;
  for (std::size_t c = 0; c < cols; ++c) {
    const double p = static_cast<double>(a[static_cast<std::size_t>(row) * cols + c]) * static_cast<double>(x[c]);
    s += p;
    m += std::fabs(p);
  }
  if (magnitude != nullptr) *magnitude = m;
  return s;
}

double dot(std::span<const float> a, std::span<const float> b) {
  const auto parts = parallel_chunks(static_cast<std::int64_t>(a.size()), [&](std::int64_t begin, std::int64_t end) {
    double s = 0;
    for (std::int64_t i = begin; i < end; ++i)
      s += static_cast<double>(a[static_cast<std::size_t>(i)]) * static_cast<double>(b[static_cast<std::size_t>(i)]);
    return s;
  });
  double s = 0;
  for (double p : parts) s += p;
  return s;
}

void inclusive_scan(std::span<const float> x, std::span<double> out) {
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = s += x[i];
}

std::vector<double> weighted_histogram(std::span<const std::int32_t> keys, std::span<const float> w) {
  const auto parts =
      parallel_chunks(static_cast<std::int64_t>(keys.size()), [&](std::int64_t begin, std::int64_t end) {
        std::vector<double> h(static_cast<std::size_t>(kWeightedBins));
        for (std::int64_t i = begin; i < end; ++i)
          h[static_cast<std::size_t>(keys[static_cast<std::size_t>(i)])] += w[static_cast<std::size_t>(i)];
        return h;
      });
  std::vector<double> h(static_cast<std::size_t>(kWeightedBins));
  for (const auto& p : parts)
    for (std::size_t b = 0; b < h.size(); ++b) h[b] += p[b];
  return h;
}

std::vector<float> scatter_add(std::span<const std::int32_t> idx, std::span<const float> x, std::int64_t targets) {
  std::vector<float> out(static_cast<std::size_t>(targets));
  for (std::size_t i = 0; i < idx.size(); ++i) out[static_cast<std::size_t>(idx[i])] += x[i];
  return out;
}

float embedding_at(std::span<const std::int32_t> ids, std::span<const float> table, std::int64_t i) {
  const std::int64_t row = ids[static_cast<std::size_t>(i / kEmbeddingCols)];
  return table[static_cast<std::size_t>(row * kEmbeddingCols + i % kEmbeddingCols)];
}

float stencil7_at(std::span<const float> in, std::int64_t side, std::int64_t i) {
  const std::int64_t x = i % side, y = i / side % side, z = i / (side * side);
  const auto at = [&](std::int64_t k) { return in[static_cast<std::size_t>(k)]; };
  if (x == 0 || y == 0 || z == 0 || x == side - 1 || y == side - 1 || z == side - 1) return at(i);
  const std::int64_t plane = side * side;
  return stencil7_point(at(i), at(i - 1), at(i + 1), at(i - side), at(i + side), at(i - plane), at(i + plane));
}

double gelu(double v) { return 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0))); }

AdamConstants adam_constants() {
  AdamConstants c;
  c.lr = 1e-3f;
  c.beta1 = 0.9f;
  c.beta2 = 0.999f;
  c.eps = 1e-8f;
  // In double from the float betas, then rounded once: the kernel gets these floats.
  const double bc1 = 1.0 - std::pow(static_cast<double>(c.beta1), kAdamStep);
  const double bc2 = 1.0 - std::pow(static_cast<double>(c.beta2), kAdamStep);
  c.inv_bias_correction1 = static_cast<float>(1.0 / bc1);
  c.inv_sqrt_bias_correction2 = static_cast<float>(1.0 / std::sqrt(bc2));
  return c;
}

std::vector<double> column_sums(std::span<const float> a, std::int64_t cols) {
  const auto rows = static_cast<std::int64_t>(a.size()) / cols;
  const auto parts = parallel_chunks(
      rows,
      [&](std::int64_t begin, std::int64_t end) {
        std::vector<double> s(static_cast<std::size_t>(cols));
        for (std::int64_t r = begin; r < end; ++r)
          for (std::int64_t c = 0; c < cols; ++c)
            s[static_cast<std::size_t>(c)] += a[static_cast<std::size_t>(r * cols + c)];
        return s;
      },
      cols);
  std::vector<double> s(static_cast<std::size_t>(cols));
  for (const auto& p : parts)
    for (std::size_t c = 0; c < s.size(); ++c) s[c] += p[c];
  return s;
}

float upsample2x_at(std::span<const float> in, std::int64_t side, std::int64_t i) {
  const std::int64_t y = i / side, x = i % side;
  return in[static_cast<std::size_t>(y / 2 * (side / 2) + x / 2)];
}

float maxpool2x2_at(std::span<const float> in, std::int64_t side, std::int64_t i) {
  const std::int64_t y = i / side, x = i % side, width = 2 * side;
  const auto at = [&](std::int64_t r, std::int64_t c) { return in[static_cast<std::size_t>(r * width + c)]; };
  return std::max({at(2 * y, 2 * x), at(2 * y, 2 * x + 1), at(2 * y + 1, 2 * x), at(2 * y + 1, 2 * x + 1)});
}

double blur3x3_at(std::span<const float> in, std::int64_t side, std::int64_t i, double* magnitude) {
  const std::int64_t y = i / side, x = i % side;
  double sum = 0, scale = 0;
  for (std::int64_t dy = -1; dy <= 1; ++dy)
    for (std::int64_t dx = -1; dx <= 1; ++dx) {
      const std::int64_t r = std::clamp<std::int64_t>(y + dy, 0, side - 1);
      const std::int64_t c = std::clamp<std::int64_t>(x + dx, 0, side - 1);
      const double v = in[static_cast<std::size_t>(r * side + c)];
      sum += v;
      scale += std::fabs(v);
    }
  if (magnitude) *magnitude = scale / 9;
  return sum / 9;
}

float rope_at(std::span<const float> x, std::span<const float> cos_t, std::span<const float> sin_t, std::int64_t i) {
  const auto p = static_cast<std::size_t>(i / 2);
  const float2 r = rope_pair(x[2 * p], x[2 * p + 1], cos_t[p], sin_t[p]);
  return i % 2 == 0 ? r.x : r.y;
}

float permute0213_at(std::span<const float> in, std::int64_t i) {
  const std::int64_t seq = static_cast<std::int64_t>(in.size()) / (kPermuteHeads * kPermuteHeadDim);
  const std::int64_t h = i / (seq * kPermuteHeadDim), s = i / kPermuteHeadDim % seq, d = i % kPermuteHeadDim;
  return in[static_cast<std::size_t>((s * kPermuteHeads + h) * kPermuteHeadDim + d)];
}

float dequant_rowscale_at(std::span<const std::int8_t> q, std::span<const float> scale, std::int64_t i) {
  return scale[static_cast<std::size_t>(i / kDequantCols)] * static_cast<float>(q[static_cast<std::size_t>(i)]);
}

float embedding_bag_at(std::span<const std::int32_t> idx, std::span<const float> table, std::int64_t i) {
  const std::int64_t bag = i / kBagCols, d = i % kBagCols;
  float sum = 0.0f;
  for (int k = 0; k < kBagSize; ++k) {
    const std::int64_t row = idx[static_cast<std::size_t>(bag * kBagSize + k)];
    sum += table[static_cast<std::size_t>(row * kBagCols + d)];
  }
  return sum;
}

double swiglu_at(std::span<const float> x, std::int64_t i) {
  const std::int64_t r = i / kSwigluCols, j = i % kSwigluCols;
  const double gate = x[static_cast<std::size_t>(2 * kSwigluCols * r + j)];
  const double up = x[static_cast<std::size_t>(2 * kSwigluCols * r + kSwigluCols + j)];
  return gate / (1 + std::exp(-gate)) * up;
}

void rmsnorm_row(std::span<const float> x, std::span<const float> w, std::span<double> out) {
  double squares = 0;
  for (float v : x) squares += static_cast<double>(v) * v;
  const double scale =
      1 / std::sqrt(squares / static_cast<double>(x.size()) + static_cast<double>(kRmsNormEpsilon));
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = x[i] * scale * w[i];
}

double cross_entropy_row(std::span<const float> x, std::int32_t target) {
  const double max = *std::max_element(x.begin(), x.end());
  double total = 0;
  for (float v : x) total += std::exp(v - max);
  return std::log(total) + max - x[static_cast<std::size_t>(target)];
}

std::vector<double> column_means(std::span<const float> a, std::int64_t cols) {
  std::vector<double> means = column_sums(a, cols);
  const auto rows = static_cast<double>(static_cast<std::int64_t>(a.size()) / cols);
  for (double& m : means) m /= rows;
  return means;
}

float bias_relu_at(float x, float b) { return std::max(x + b, 0.0f); }

namespace {

// v rounded to the nearest FP16 value, ties to even, subnormals included (|v| below 65520).
double round_to_half(double v) {
  if (v == 0) return v;
  int e = 0;
  std::frexp(v, &e);                        // |v| = m 2^e, 0.5 <= m < 1
  const int ulp = std::max(e - 11, -24);    // 11 significant bits; subnormals' ulp 2^-24
  return std::nearbyint(std::ldexp(v, -ulp)) * std::ldexp(1.0, ulp);
}

}  // namespace

float poly_f16_at(float x) {
  // t = x / 8 is exact in FP16 for the suite's inputs; acc t + c of two FP16 values and an FP16
  // coefficient is exact in double (at most 51 bits apart), so rounding it once is HFMA2's result.
  const double t = round_to_half(static_cast<double>(x) * kPolyF16Scale);
  double acc = round_to_half(poly_coefficient(kPolyF16Degree));
  for (int k = kPolyF16Degree - 1; k >= 0; --k) acc = round_to_half(acc * t + round_to_half(poly_coefficient(k)));
  return static_cast<float>(acc);
}

double normalize_vec3_at(std::span<const float> v, std::int64_t j) {
  const auto first = static_cast<std::size_t>(j / 3 * 3);
  double dot = 0;
  for (std::size_t c = 0; c < 3; ++c) dot += static_cast<double>(v[first + c]) * v[first + c];
  return v[static_cast<std::size_t>(j)] / std::sqrt(std::max(dot, static_cast<double>(kNormalizeEpsilonSquared)));
}

namespace {

// One side's source coordinate (scale 1/2, align_corners = false, as PyTorch's
// area_pixel_compute_source_index): the first neighbour, the second (clamped to the side) and
// the second's weight.
struct BilinearSource {
  std::int64_t first, second;
  double weight;
};
BilinearSource bilinear_source(std::int64_t d, std::int64_t in_side) {
  const double s = std::max(0.5 * (static_cast<double>(d) + 0.5) - 0.5, 0.0);
  const auto first = static_cast<std::int64_t>(s);
  return {first, std::min(first + 1, in_side - 1), s - static_cast<double>(first)};
}

}  // namespace

double bilinear_up2x_at(std::span<const float> in, std::int64_t side, std::int64_t i, double* magnitude) {
  const std::int64_t in_side = side / 2;
  const BilinearSource y = bilinear_source(i / side, in_side), x = bilinear_source(i % side, in_side);
  const auto at = [&](std::int64_t r, std::int64_t c) -> double {
    return in[static_cast<std::size_t>(r * in_side + c)];
  };
  const double terms[] = {(1 - y.weight) * (1 - x.weight) * at(y.first, x.first),
                          (1 - y.weight) * x.weight * at(y.first, x.second),
                          y.weight * (1 - x.weight) * at(y.second, x.first),
                          y.weight * x.weight * at(y.second, x.second)};
  double sum = 0, scale = 0;
  for (double t : terms) {
    sum += t;
    scale += std::fabs(t);
  }
  if (magnitude != nullptr) *magnitude = scale;
  return sum;
}

std::int64_t argmax_row(std::span<const float> row) {
  // std::max_element returns the first of equal largest elements.
  return std::max_element(row.begin(), row.end()) - row.begin();
}

float im2col3x3_at(std::span<const float> in, std::int64_t side, std::int64_t i) {
  const std::int64_t n = side * side, tap = i / n, p = i % n;
  const std::int64_t y = p / side + tap / 3 - 1, x = p % side + tap % 3 - 1;
  if (y < 0 || y >= side || x < 0 || x >= side) return 0.0f;
  return in[static_cast<std::size_t>(y * side + x)];
}

std::array<std::int64_t, kBins> histogram(std::span<const std::uint8_t> data) {
  const auto parts =
      parallel_chunks(static_cast<std::int64_t>(data.size()), [&](std::int64_t begin, std::int64_t end) {
        std::array<std::int64_t, kBins> h{};
        for (std::int64_t i = begin; i < end; ++i) ++h[data[static_cast<std::size_t>(i)]];
        return h;
      });
  std::array<std::int64_t, kBins> h{};
  for (const auto& p : parts)
    for (int b = 0; b < kBins; ++b) h[b] += p[b];
  return h;
}

double gemm_element(std::span<const float> a, std::span<const float> b, std::int64_t side, std::int64_t r,
                    std::int64_t c, double* magnitude) {
  double s = 0, m = 0;
  for (std::int64_t k = 0; k < side; ++k) {
    const double p = static_cast<double>(a[static_cast<std::size_t>(r * side + k)]) *
                     static_cast<double>(b[static_cast<std::size_t>(k * side + c)]);
    s += p;
    m += std::fabs(p);
  }
  if (magnitude != nullptr) *magnitude = m;
  return s;
}

void softmax_row(std::span<const float> x, std::span<double> out) {
  const double max = *std::max_element(x.begin(), x.end());
  double total = 0;
  for (std::size_t i = 0; i < x.size(); ++i) total += out[i] = std::exp(static_cast<double>(x[i]) - max);
  for (double& v : out) v /= total;
}

void layernorm_row(std::span<const float> x, std::span<const float> gamma, std::span<const float> beta,
                   std::span<double> out) {
  double mean = 0, var = 0;
  for (float v : x) mean += v;
  mean /= static_cast<double>(x.size());
  for (float v : x) var += (v - mean) * (v - mean);
  var /= static_cast<double>(x.size());
  const double rstd = 1.0 / std::sqrt(var + static_cast<double>(kLayerNormEpsilon));
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = (x[i] - mean) * rstd * gamma[i] + beta[i];
}

void Comparison::add(std::int64_t index, double got, double expected, double tolerance) {
  const double error = std::fabs(got - expected);
  const bool bad = !(error <= tolerance);  // NaN (a poisoned float) fails
  if (bad) ++result_.mismatches;
  const double ratio = std::isnan(error) ? std::numeric_limits<double>::infinity()
                                         : error / std::max(tolerance, std::numeric_limits<double>::min());
  if (ratio > worst_ratio_) {  // a failing element (ratio > 1) always outranks a passing one
    worst_ratio_ = ratio;
    result_.worst_index = index;
    result_.worst_error = error;
    result_.detail = std::isnan(got) ? fmt::format("{}[{}]: never written (still poisoned), expected {}", buffer_,
                                                   index, expected)
                                     : fmt::format("{}[{}]: got {}, expected {} (tolerance {:.3g})", buffer_, index,
                                                   got, expected, tolerance);
  }
}

void Comparison::merge(const Comparison& other) {
  const std::int64_t mismatches = result_.mismatches + other.result_.mismatches;
  if (other.worst_ratio_ > worst_ratio_) {
    result_ = other.result_;
    worst_ratio_ = other.worst_ratio_;
  }
  result_.mismatches = mismatches;
}

}  // namespace roofline::kernels::patterns

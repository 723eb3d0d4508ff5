#pragma once
// CPU references of the `patterns` suite (whole arrays, not per element) and the comparison
// that turns them into a HostCheckResult. Plain C++: the CPU tests call them with
// hand-worked values; the family .cu files build their HostCheck from them.
#include <array>
#include <cmath>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "kernels/host_values.hpp"
#include "kernels/kernel_impl.hpp"

#ifdef __CUDACC__
#define ROOFLINE_HOST_DEVICE __host__ __device__
#else
#define ROOFLINE_HOST_DEVICE
#endif

namespace roofline::kernels::patterns {

inline constexpr int kBins = 256;
inline constexpr float kLayerNormEpsilon = 1e-5f;
inline constexpr double kFloatEpsilon = 0x1p-24;  // unit roundoff of f32

// One interior point of the 5-point Jacobi stencil, in the order the kernel adds (both sides
// call this, so the CPU result is bit for bit the device's).
ROOFLINE_HOST_DEVICE inline float stencil5_point(float centre, float up, float down, float left, float right) {
  return 0.2f * ((((centre + up) + down) + left) + right);
}

// 1-D 7-point convolution (radius 3) with the constant binomial weights 1, 6, 15, 20, 15, 6, 1
// over 64 (exact in f32): v holds x[i - 3] .. x[i + 3]. One multiply then six fmaf in this
// order on both sides, so the CPU result is bit for bit the device's.
inline constexpr int kConvRadius = 3;
ROOFLINE_HOST_DEVICE inline float conv7_point(float m3, float m2, float m1, float c, float p1, float p2, float p3) {
  float s = (1.0f / 64) * m3;
  s = fmaf(6.0f / 64, m2, s);
  s = fmaf(15.0f / 64, m1, s);
  s = fmaf(20.0f / 64, c, s);
  s = fmaf(15.0f / 64, p1, s);
  s = fmaf(6.0f / 64, p2, s);
  return fmaf(1.0f / 64, p3, s);
}

// One interior point of the 7-point 3-D Jacobi stencil (stencil7_3d_f32): the mean of the
// point and its six neighbours, added in this order on both sides (bit for bit the device's).
ROOFLINE_HOST_DEVICE inline float stencil7_point(float centre, float west, float east, float north, float south,
                                                 float below, float above) {
  return (1.0f / 7) * ((((((centre + west) + east) + north) + south) + below) + above);
}

// Rows of the embedding table and of the gathered output (embedding_gather_f32): 128 floats,
// one float4 per lane of a warp.
inline constexpr std::int64_t kEmbeddingCols = 128;
// Columns of bias_gelu_f32's rows (and elements of its bias).
inline constexpr std::int64_t kGeluCols = 4096;

// Adam (adam_step_f32): the hyperparameters the kernel takes as arguments and one element's
// update, the same code on both sides. Every rounding step is explicit (fmaf, products, one
// sqrtf, one division; IEEE on the device, which builds without fast math), so the CPU result
// is bit for bit the device's.
struct AdamConstants {
  float lr = 0, beta1 = 0, beta2 = 0, eps = 0;
  float inv_bias_correction1 = 0;       // 1 / (1 - beta1^t)
  float inv_sqrt_bias_correction2 = 0;  // 1 / sqrt(1 - beta2^t)
};
// lr 1e-3, beta1 0.9, beta2 0.999, eps 1e-8, at step t = 10.
inline constexpr int kAdamStep = 10;
AdamConstants adam_constants();
struct AdamState {
  float param, m, v;
};
// m' = beta1 m + (1 - beta1) g, v' = beta2 v + (1 - beta2) g^2,
// param' = param - lr / bc1 x m' / (sqrt(v') / sqrt(bc2) + eps).
ROOFLINE_HOST_DEVICE inline AdamState adam_update(float param, float g, float m, float v, const AdamConstants& c) {
  const float m1 = fmaf(c.beta1, m, (1.0f - c.beta1) * g);
  const float v1 = fmaf(c.beta2, v, (1.0f - c.beta2) * (g * g));
  const float denom = fmaf(sqrtf(v1), c.inv_sqrt_bias_correction2, c.eps);
  const float step = c.lr * c.inv_bias_correction1;
  return {fmaf(-step, m1 / denom, param), m1, v1};
}

// Columns of column_sum_f32's matrix (rows = n / 4096): one thread per column.
inline constexpr std::int64_t kColumnSumCols = 4096;
// Segment of bitonic_sort_block_f32: 1024 floats sorted by a block of 512 threads.
inline constexpr std::int64_t kSortSegment = 1024;

// saxpy_stride2_f32's a (exact in binary).
inline constexpr float kSaxpyA = 1.5f;
// blur3x3_shared_f32's tile: up to 32 rows of 32 outputs (blocks of up to 1024), each with a
// row and a column of halo either side; its mean's scale.
inline constexpr int kBlurMaxRows = 32;
inline constexpr int kBlurTileCols = 34;
inline constexpr float kBlurScale = 1.0f / 9.0f;

// rope_f32: rows of 128 floats (a head's dimension), 64 pairs per row, and one cosine and one
// sine per pair (tables of 64 per row). One pair's rotation, (x0 c - x1 s, x0 s + x1 c), each a
// product then an fmaf, the same code on both sides (bit for bit the device's: the device
// builds without fast math).
inline constexpr std::int64_t kRopeCols = 128;
ROOFLINE_HOST_DEVICE inline float2 rope_pair(float x0, float x1, float c, float s) {
  return make_float2(fmaf(x0, c, -(x1 * s)), fmaf(x0, s, x1 * c));
}
// permute_0213_f32: [1, S, 16, 64] -> [1, 16, S, 64] (batch 1, 16 heads of 64, S = n / 1024).
inline constexpr std::int64_t kPermuteHeads = 16;
inline constexpr std::int64_t kPermuteHeadDim = 64;
// dequant_int8_rowscale_f32: rows of 4096 int8 values, one scale per row.
inline constexpr std::int64_t kDequantCols = 4096;
// embedding_bag_sum_f32: bags of 8 indices into a table of rows of 128 floats.
inline constexpr int kBagSize = 8;
inline constexpr std::int64_t kBagCols = 128;
// swiglu_f32: rows of x of 2 x 4096 floats (the gate's half, then the up projection's), rows of
// out of 4096.
inline constexpr std::int64_t kSwigluCols = 4096;
// rmsnorm_row_f32: rows of 4096 floats, one weight per column, and the epsilon under the root.
inline constexpr std::int64_t kRmsNormCols = 4096;
inline constexpr float kRmsNormEpsilon = 1e-6f;
// cross_entropy_row_f32: rows of 1024 logits, one target class per row.
inline constexpr std::int64_t kCrossEntropyCols = 1024;
// col_mean_tiled_f32: the mean of every column of a rows x 1024 matrix, in strips of 32 columns.
inline constexpr std::int64_t kColMeanCols = 1024;
inline constexpr int kColMeanStrip = 32;
// bias_relu_f16x2: rows of 4096 halves, one bias per column.
inline constexpr std::int64_t kBiasReluCols = 4096;
// argmax_row_f32: rows of 1024 floats, one int32 index per row.
inline constexpr std::int64_t kArgmaxCols = 1024;
// im2col3x3_f32: the rows of its output matrix, one per tap of the 3x3 window, n each.
inline constexpr std::int64_t kIm2colTaps = 9;

// poly_horner_f32 and poly_horner_f16x2: p(t) = sum over k of (-1)^k t^k / (k + 1) (the series
// of ln(1 + t) / t, bounded for |t| <= 1), of degree kPolyF32Degree in FP32 and kPolyF16Degree in
// FP16, by Horner's rule; the FP16 kernel takes t = x kPolyF16Scale (the suite's FP16 inputs lie
// in [-8, 8]). Coefficient k as a float, the one expression both sides evaluate.
inline constexpr int kPolyF32Degree = 128;
inline constexpr int kPolyF16Degree = 64;
inline constexpr float kPolyF16Scale = 0.125f;
ROOFLINE_HOST_DEVICE constexpr float poly_coefficient(int k) {
  return (k % 2 != 0 ? -1.0f : 1.0f) / static_cast<float>(k + 1);
}
// acc t + c_K, then on down to c_0, each step one fused multiply-add in float (fmaf rounds once
// on both sides, so the CPU result is bit for bit the device's).
template <int K>
ROOFLINE_HOST_DEVICE inline float horner_f32(float acc, float t) {
  if constexpr (K < 0) {
    return acc;
  } else {
    constexpr float c = poly_coefficient(K);
    return horner_f32<K - 1>(fmaf(acc, t, c), t);
  }
}
// poly_horner_f32's p(t).
ROOFLINE_HOST_DEVICE inline float poly_f32_point(float t) {
  return horner_f32<kPolyF32Degree - 1>(poly_coefficient(kPolyF32Degree), t);
}
// normalize_vec3_f32: each 3-vector v / sqrt(max(v . v, kNormalizeEpsilonSquared)), PyTorch's
// F.normalize with eps = 1e-12.
inline constexpr float kNormalizeEpsilonSquared = 1e-24f;

// sqrt(n) for a square kernel's n; -1 when n is no perfect square.
std::int64_t square_side(std::int64_t n);
// cbrt(n) for a cube kernel's n; -1 when n is no perfect cube.
std::int64_t cube_side(std::int64_t n);

// Allowance for a float sum of `length` terms added in an unknown order (atomics, block
// trees): the tree-order rounding bound, unit roundoff x ceil(log2 length) x magnitude.
double float_sum_tolerance(std::int64_t length, double magnitude);

double sum(std::span<const float> x);  // in double, exact for the suite's inputs
// Point (r, c) of a stencil step on a side x side grid: interior points by stencil5_point,
// the boundary ring copied from the input.
float stencil5_at(std::span<const float> in, std::int64_t side, std::int64_t r, std::int64_t c);
std::array<std::int64_t, kBins> histogram(std::span<const std::uint8_t> data);
// C[r][c] of C = A B (side x side, row-major) in double, and sum |A[r][k] B[k][c]| (its scale).
double gemm_element(std::span<const float> a, std::span<const float> b, std::int64_t side, std::int64_t r,
                    std::int64_t c, double* magnitude = nullptr);
// Point i of the 7-point convolution, neighbours past either end clamped to the end element.
float conv7_at(std::span<const float> x, std::int64_t i);
// out[i] = x[idx[i]] (exact).
float gather_at(std::span<const std::int32_t> idx, std::span<const float> x, std::int64_t i);
// y[row] of a CSR matrix times x, in double, and sum |val x| over the row (its scale).
double spmv_row(std::span<const std::int32_t> row_ptr, std::span<const std::int32_t> col, std::span<const float> val,
                std::span<const float> x, std::int64_t row, double* magnitude = nullptr);
// y[row] of A x for A of x.size() columns (row-major), in double, and sum |A[row][c] x[c]|.
double gemv_row(std::span<const float> a, std::span<const float> x, std::int64_t row, double* magnitude = nullptr);
double dot(std::span<const float> a, std::span<const float> b);  // in double, exact for the suite's inputs
// Inclusive prefix sum of one segment, in double.
void inclusive_scan(std::span<const float> x, std::span<double> out);
// The 1024 bins of a weighted histogram: bins[keys[i]] += w[i], in double.
std::vector<double> weighted_histogram(std::span<const std::int32_t> keys, std::span<const float> w);
// out[idx[i]] += x[i] over `targets` outputs. In float: exact for the suite's inputs (multiples
// of 1/16, a few per target), and half the host memory of doubles at n = 2^28.
std::vector<float> scatter_add(std::span<const std::int32_t> idx, std::span<const float> x, std::int64_t targets);
// Element i of the gathered rows: table[ids[i / 128]][i % 128] (exact).
float embedding_at(std::span<const std::int32_t> ids, std::span<const float> table, std::int64_t i);
// Point i of the 7-point stencil on a side^3 grid (x fastest, then y, then z): interior points
// by stencil7_point, the boundary faces copied from the input.
float stencil7_at(std::span<const float> in, std::int64_t side, std::int64_t i);
// GELU (erf form) of v, in double: 0.5 v (1 + erf(v / sqrt 2)).
double gelu(double v);
// The sums of the columns of a row-major matrix of `cols` columns (a.size() / cols rows), in
// double.
std::vector<double> column_sums(std::span<const float> a, std::int64_t cols);
// Element i of a nearest-neighbour 2x upsampling of a (side / 2)^2 image into side^2 (row-major):
// out[y][x] = in[y / 2][x / 2] (exact).
float upsample2x_at(std::span<const float> in, std::int64_t side, std::int64_t i);
// Element i of a 2x2 max pooling of a (2 side)^2 image into side^2 (row-major): the largest of
// in[2y][2x], in[2y][2x + 1], in[2y + 1][2x], in[2y + 1][2x + 1] (exact).
float maxpool2x2_at(std::span<const float> in, std::int64_t side, std::int64_t i);
// Element i of a 3x3 box blur of a side^2 image, neighbours past an edge clamped to it, in
// double, and the mean of the nine |terms| (its scale).
double blur3x3_at(std::span<const float> in, std::int64_t side, std::int64_t i, double* magnitude = nullptr);
// Element i of the rotated rows (rows of kRopeCols): pair i / 2 of x rotated by cos_t[i / 2] and
// sin_t[i / 2] (rope_pair; exact).
float rope_at(std::span<const float> x, std::span<const float> cos_t, std::span<const float> sin_t, std::int64_t i);
// Element i of the permuted array [16, S, 64] from in [S, 16, 64], S = in.size() / 1024 (exact).
float permute0213_at(std::span<const float> in, std::int64_t i);
// Element i of the dequantised rows (rows of kDequantCols): scale[row] x q[i], one rounding (exact).
float dequant_rowscale_at(std::span<const std::int8_t> q, std::span<const float> scale, std::int64_t i);
// Element i = (bag b, column d) of the bag sums: table[idx[8 b + k]][d] over k = 0..7 added to
// 0 in float in that order, as the device adds them (exact).
float embedding_bag_at(std::span<const std::int32_t> idx, std::span<const float> table, std::int64_t i);
// Element i = (row r, column j) of SwiGLU over rows of x of 2 kSwigluCols: silu(x[r][j]) x
// x[r][kSwigluCols + j], silu(v) = v / (1 + e^-v), in double.
double swiglu_at(std::span<const float> x, std::int64_t i);
// One row of RMS normalisation in double: x / sqrt(mean(x^2) + kRmsNormEpsilon) x w.
void rmsnorm_row(std::span<const float> x, std::span<const float> w, std::span<double> out);
// One row's cross-entropy loss in double: log(sum exp(x)) - x[target], the sum taken as
// exp(x - max) (as the device takes it).
double cross_entropy_row(std::span<const float> x, std::int32_t target);
// The means of the columns of a row-major matrix of `cols` columns (a.size() / cols rows), in
// double.
std::vector<double> column_means(std::span<const float> a, std::int64_t cols);
// max(x + b, 0), the sum in float (exact for the suite's f16 inputs, k / 64 with |k| <= 512).
float bias_relu_at(float x, float b);
// poly_horner_f16x2's p(x kPolyF16Scale) for one FP16 input, each Horner step x t + c rounded
// once to FP16 as HFMA2 rounds it (the coefficients rounded to FP16; exact in double before
// that rounding): bit for bit the device's.
float poly_f16_at(float x);
// Float j of normalize_vec3_f32's output (component j % 3 of vector j / 3 of v, 3-vectors
// stored one after another), in double.
double normalize_vec3_at(std::span<const float> v, std::int64_t j);
// Element i of a 2x bilinear upsampling of a (side / 2)^2 image into side^2 (row-major) with
// PyTorch's align_corners = false: source coordinate (d + 0.5) / 2 - 0.5 along each side,
// clamped at 0, its two neighbours (the second clamped to the side) weighted 1 - l and l. In
// double, and the sum of the four |weight x input| terms (its scale).
double bilinear_up2x_at(std::span<const float> in, std::int64_t side, std::int64_t i,
                        double* magnitude = nullptr);
// The index of a row's largest element, the lowest of equal ones.
std::int64_t argmax_row(std::span<const float> row);
// Element i of im2col's kIm2colTaps x side^2 matrix for a 3x3 window, stride 1, padding 1: row
// 3 ky + kx, column y side + x holds in[y + ky - 1][x + kx - 1], 0 outside the image (exact).
float im2col3x3_at(std::span<const float> in, std::int64_t side, std::int64_t i);
// One row, in double.
void softmax_row(std::span<const float> x, std::span<double> out);
void layernorm_row(std::span<const float> x, std::span<const float> gamma, std::span<const float> beta,
                   std::span<double> out);

// Accumulates checked elements; the worst is the largest error relative to its tolerance.
class Comparison {
 public:
  explicit Comparison(std::string_view buffer = {}) : buffer_(buffer) {}
  void add(std::int64_t index, double got, double expected, double tolerance);
  void merge(const Comparison& other);
  const HostCheckResult& result() const { return result_; }

 private:
  std::string_view buffer_;
  HostCheckResult result_;
  double worst_ratio_ = -1;
};

// Checks items [0, count) on every core: element(i, comparison) adds item i's checks, each of
// item_elements elements' work (a row's columns: parallel_chunks).
template <typename F>
HostCheckResult compare_all(std::string_view buffer, std::int64_t count, F element, std::int64_t item_elements = 1) {
  const auto chunks = parallel_chunks(
      count,
      [&](std::int64_t begin, std::int64_t end) {
        Comparison c(buffer);
        for (std::int64_t i = begin; i < end; ++i) element(i, c);
        return c;
      },
      item_elements);
  Comparison all(buffer);
  for (const auto& c : chunks) all.merge(c);
  return all.result();
}

// Checks the first n elements of an indexed copy exactly: out[i] = reference(index, source, i)
// (a gather's, an embedding lookup's).
template <typename Reference>
HostCheckResult compare_indexed_copy(std::int64_t n, std::span<const std::int32_t> index, std::span<const float> source,
                                     std::span<const float> out, Reference reference) {
  return compare_all("out", n, [&](std::int64_t i, Comparison& cmp) {
    cmp.add(i, out[static_cast<std::size_t>(i)], reference(index, source, i), 0.0);
  });
}

// Checks every row of `out` against reference(the same row of `x`, expected), the row in
// double (rows of `cols` floats); tolerance(c, e) is the allowance of column c's value e.
template <typename Reference, typename Tolerance>
HostCheckResult compare_rows(std::string_view buffer, std::span<const float> x, std::span<const float> out,
                             std::int64_t cols, Reference reference, Tolerance tolerance) {
  const auto rows = static_cast<std::int64_t>(x.size()) / cols;
  return compare_all(
      buffer, rows,
      [&](std::int64_t r, Comparison& cmp) {
        std::vector<double> expected(static_cast<std::size_t>(cols));
        reference(x.subspan(static_cast<std::size_t>(r * cols), static_cast<std::size_t>(cols)),
                  std::span<double>(expected));
        for (std::int64_t c = 0; c < cols; ++c) {
          const auto k = static_cast<std::size_t>(c);
          cmp.add(r * cols + c, out[static_cast<std::size_t>(r * cols + c)], expected[k], tolerance(k, expected[k]));
        }
      },
      cols);
}

}  // namespace roofline::kernels::patterns

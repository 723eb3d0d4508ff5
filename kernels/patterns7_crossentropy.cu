// Patterns suite (seventh held-out batch), cross-entropy loss per row of 1024 logits:
// loss[r] = log(sum_c exp(x[r][c])) - x[r][target[r]], one block per row. Thread 0 loads the
// row's target first (its latency hidden behind the row's passes); each thread walks its columns
// (c = threadIdx.x, c + blockDim.x, ...: 4 at 256 threads) for the row's max, the block reduces
// it, the same walk sums exp(x - max), the block reduces that, and thread 0 reads x[r][target]
// and stores loss[r] = log(sum) + (max - x[r][target]). Spec: patterns7_crossentropy.toml.
#include <array>
#include <cmath>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void cross_entropy_row_kernel(const float* __restrict__ x, const int* __restrict__ target,
                                         float* __restrict__ loss, I /*n: gridDim.x rows*/) {
  constexpr unsigned kCols = patterns::kCrossEntropyCols;
  const float* row = x + static_cast<I>(blockIdx.x) * static_cast<I>(kCols);
  const int t = threadIdx.x == 0 ? target[blockIdx.x] : 0;
  float m = -INFINITY;
  for (unsigned c = threadIdx.x; c < kCols; c += blockDim.x) m = fmaxf(m, row[c]);
  m = patterns::block_reduce(m, patterns::Max{}, -INFINITY);
  float s = 0.0f;
  for (unsigned c = threadIdx.x; c < kCols; c += blockDim.x) s += expf(row[c] - m);
  s = patterns::block_reduce(s, patterns::Sum{}, 0.0f);
  if (threadIdx.x != 0) return;
  // max - x[t] is exact for the suite's inputs (both on a 2^-23 grid in [-1, 1)).
  const float picked = row[t];
  loss[blockIdx.x] = logf(s) + (m - picked);
}

namespace {

// Rows in double. The sum's error is relative (positive terms: expf within 2 ulp, then the
// additions; 4 x the tree-order bound of a row, as the row kernels allow), which log turns into
// an absolute one; logf within 1 ulp and the last addition round on the loss's own scale.
HostCheckResult check_cross_entropy(const HostArrays& a) {
  const auto x = a.as<float>(0), loss = a.as<float>(2);
  const auto target = a.as<std::int32_t>(1);
  const std::int64_t cols = patterns::kCrossEntropyCols;
  const double absolute = 4 * patterns::float_sum_tolerance(cols, 1.0);
  return patterns::compare_all("loss", a.n / cols, [&](std::int64_t r, patterns::Comparison& cmp) {
    const auto k = static_cast<std::size_t>(r);
    const double expected =
        patterns::cross_entropy_row(x.subspan(k * static_cast<std::size_t>(cols), static_cast<std::size_t>(cols)),
                                    target[k]);
    cmp.add(r, loss[k], expected, absolute + 8 * patterns::kFloatEpsilon * std::fabs(expected));
  }, cols);
}

// InputValues::bin_keys draws uniformly over [0, kWeightedBins): the row's columns.
static_assert(patterns::kCrossEntropyCols == kWeightedBins);

// x: n logits (rows of 1024), uniform in [-1, 1); target: one class per row (n / 1024), uniform
// over the row's columns; loss: one per row.
constexpr std::array<BufferLayout, 3> kLayout{{
    {"x", DType::f32, BufferRole::input},
    {"target", DType::i32, BufferRole::input, 1, 0, InputValues::bin_keys, patterns::kCrossEntropyCols},
    {"loss", DType::f32, BufferRole::output, 1, 0, InputValues::random, patterns::kCrossEntropyCols},
}};

ROOFLINE_KERNEL_SELECTOR(CrossEntropy, cross_entropy_row_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("cross_entropy_row_f32", kLayout, &device_function_of<CrossEntropy>,
                                 &patterns::launch_block_per_row<CrossEntropy, patterns::kCrossEntropyCols>,
                                 check_cross_entropy, ProblemShape::rows, 0, patterns::kCrossEntropyCols),
}};

}  // namespace

std::span<const KernelImpl> patterns7_crossentropy_impls() { return kImpls; }

}  // namespace roofline::kernels

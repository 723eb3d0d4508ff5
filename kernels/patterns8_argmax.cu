// Patterns suite (eighth held-out batch), the index of the largest float of every row of 1024:
// out[r] = argmax_c x[r][c] (int32), ties to the lowest index. One warp per row (8 rows per
// block of 256): lane l walks columns l, l + 32, ..., l + 992 (each access coalesced across the
// warp) keeping its largest value and where it was, then a 5-step __shfl_down_sync tree carries
// (value, index) pairs and lane 0 stores the row's index. Spec: patterns8_argmax.toml.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void argmax_row_kernel(const float* __restrict__ x, int* __restrict__ out, I n) {
  constexpr unsigned kCols = patterns::kArgmaxCols;
  const I rows = n / static_cast<I>(kCols);
  const I row = global_thread_index<I>() / 32;
  if (row >= rows) return;  // whole warps: blockDim is a multiple of 32
  const unsigned lane = threadIdx.x % 32;
  const float* r = x + row * static_cast<I>(kCols);
  float best = -INFINITY;
  int at = 0;
  // A lane meets its columns in increasing order: only a larger value moves it, so it keeps the
  // lowest index of its largest.
  for (unsigned c = lane; c < kCols; c += 32) {
    const float v = r[c];
    if (v > best) {
      best = v;
      at = static_cast<int>(c);
    }
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    const float v = __shfl_down_sync(0xffffffffu, best, offset);
    const int j = __shfl_down_sync(0xffffffffu, at, offset);
    if (v > best || (v == best && j < at)) {
      best = v;
      at = j;
    }
  }
  if (lane == 0) out[row] = at;
}

namespace {

// A selection: exact. An element still holding the poison (0xFFFFFFFF, -1: no index) reads as
// never written.
HostCheckResult check_argmax(const HostArrays& a) {
  const auto x = a.as<float>(0);
  const auto out = a.as<std::int32_t>(1);
  const std::int64_t cols = patterns::kArgmaxCols;
  return patterns::compare_all("out", a.n / cols, [&](std::int64_t r, patterns::Comparison& cmp) {
    const auto k = static_cast<std::size_t>(r);
    const bool poisoned = is_poison(reinterpret_cast<const std::byte*>(&out[k]), sizeof(std::int32_t));
    const double got = poisoned ? std::numeric_limits<double>::quiet_NaN() : out[k];
    const auto row = x.subspan(k * static_cast<std::size_t>(cols), static_cast<std::size_t>(cols));
    cmp.add(r, got, static_cast<double>(patterns::argmax_row(row)), 0.0);
  }, cols);
}

// x: n floats (rows of 1024), uniform in [-1, 1); out: one int32 per row.
constexpr std::array<BufferLayout, 2> kLayout{{
    {"x", DType::f32, BufferRole::input},
    {"out", DType::i32, BufferRole::output, 1, 0, InputValues::random, patterns::kArgmaxCols},
}};

ROOFLINE_KERNEL_SELECTOR(Argmax, argmax_row_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("argmax_row_f32", kLayout, &device_function_of<Argmax>,
                                 &patterns::launch_warp_per_row<Argmax, patterns::kArgmaxCols>, check_argmax,
                                 ProblemShape::rows, 0, patterns::kArgmaxCols),
}};

}  // namespace

std::span<const KernelImpl> patterns8_argmax_impls() { return kImpls; }

}  // namespace roofline::kernels

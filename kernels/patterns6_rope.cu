// Patterns suite (sixth held-out batch), rotary position embedding in the interleaved-pairs form:
// x and out are rows of 128 floats (a token's head), pair j of row r is (x[r][2j], x[r][2j + 1]),
// rotated by c = cos_t[r][j] and s = sin_t[r][j] from two tables of 64 floats per row:
// out[r][2j] = x0 c - x1 s, out[r][2j + 1] = x0 s + x1 c. One pair per thread (n / 2 threads),
// x and out through float2. Spec: patterns6_rope.toml.
#include <array>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

// Pair p is pair p % 64 of row p / 64: it is float2 p of x and out and element p of each table.
template <typename I>
__global__ void rope_kernel(const float* __restrict__ x, const float* __restrict__ cos_t,
                            const float* __restrict__ sin_t, float* __restrict__ out, I n) {
  const I p = global_thread_index<I>();
  if (p >= n / 2) return;
  const float2 v = reinterpret_cast<const float2*>(x)[p];
  reinterpret_cast<float2*>(out)[p] = patterns::rope_pair(v.x, v.y, cos_t[p], sin_t[p]);
}

namespace {

// The same products and fmaf on both sides: exact.
HostCheckResult check_rope(const HostArrays& a) {
  const auto x = a.as<float>(0), cos_t = a.as<float>(1), sin_t = a.as<float>(2), out = a.as<float>(3);
  return patterns::compare_all("out", a.n, [&](std::int64_t i, patterns::Comparison& cmp) {
    cmp.add(i, out[static_cast<std::size_t>(i)], patterns::rope_at(x, cos_t, sin_t, i), 0.0);
  });
}

// x and out: n floats (rows of 128); the tables: n / 2 (rows of 64). The tables hold the runner's
// random values in [-1, 1), not cosines and sines: the arithmetic is the same.
constexpr std::array<BufferLayout, 4> kLayout{{
    {"x", DType::f32, BufferRole::input},
    {"cos_t", DType::f32, BufferRole::input, 1, 0, InputValues::random, 2},
    {"sin_t", DType::f32, BufferRole::input, 1, 0, InputValues::random, 2},
    {"out", DType::f32, BufferRole::output},
}};

ROOFLINE_KERNEL_SELECTOR(Rope, rope_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("rope_f32", kLayout, &device_function_of<Rope>, &launch_selected<Rope>, check_rope,
                                 ProblemShape::rows, 0, patterns::kRopeCols),
}};

}  // namespace

std::span<const KernelImpl> patterns6_rope_impls() { return kImpls; }

}  // namespace roofline::kernels

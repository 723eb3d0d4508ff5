// Patterns suite (fifth held-out batch), 2x2 max pooling of a square image: out (side x side,
// n = side^2) from in ((2 side) x (2 side), 4n), out[y][x] = the largest of in[2y][2x],
// in[2y][2x + 1], in[2y + 1][2x], in[2y + 1][2x + 1]. One output element per thread in blocks of
// 32 x (blockDim / 32) (32 x 8 at 256); a thread reads its two input rows with one 8-byte load
// each. Spec: patterns5_pool.toml.
#include <array>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void maxpool2x2_kernel(const float* __restrict__ in, float* __restrict__ out, I side) {
  const I x = static_cast<I>(blockIdx.x) * 32 + threadIdx.x;
  const I y = static_cast<I>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (x >= side || y >= side) return;
  const I width = 2 * side;
  const float2 top = *reinterpret_cast<const float2*>(in + 2 * y * width + 2 * x);
  const float2 bottom = *reinterpret_cast<const float2*>(in + (2 * y + 1) * width + 2 * x);
  out[y * side + x] = fmaxf(fmaxf(top.x, top.y), fmaxf(bottom.x, bottom.y));
}

namespace {

// A selection: exact.
HostCheckResult check_maxpool(const HostArrays& a) {
  const std::int64_t side = patterns::square_side(a.n);
  const auto in = a.as<float>(0), out = a.as<float>(1);
  return patterns::compare_all("out", a.n, [&](std::int64_t i, patterns::Comparison& cmp) {
    cmp.add(i, out[static_cast<std::size_t>(i)], patterns::maxpool2x2_at(in, side, i), 0.0);
  });
}

// in: four times n ((2 side)^2); out: n.
constexpr std::array<BufferLayout, 2> kLayout{{
    {"in", DType::f32, BufferRole::input, 4},
    {"out", DType::f32, BufferRole::output},
}};

ROOFLINE_KERNEL_SELECTOR(MaxPool, maxpool2x2_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("maxpool2x2_f32", kLayout, &device_function_of<MaxPool>,
                                 &patterns::launch_matrix_in_out<MaxPool>, check_maxpool, ProblemShape::square),
}};

}  // namespace

std::span<const KernelImpl> patterns5_pool_impls() { return kImpls; }

}  // namespace roofline::kernels

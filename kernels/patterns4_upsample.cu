// Patterns suite (fourth held-out batch), nearest-neighbour 2x upsampling of a square image:
// out (side x side, n = side^2, side even) from in ((side / 2) x (side / 2)), out[y][x] =
// in[y / 2][x / 2]. One output element per thread in blocks of 32 x (blockDim / 32) (32 x 8 at
// 256); each input element is read by 4 threads: two neighbouring lanes of one warp (the same
// word) and the same two lanes of the warp one output row below. Spec: patterns4_upsample.toml.
#include <array>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void upsample2x_nearest_kernel(const float* __restrict__ in, float* __restrict__ out, I side) {
  const I x = static_cast<I>(blockIdx.x) * 32 + threadIdx.x;
  const I y = static_cast<I>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (x >= side || y >= side) return;
  out[y * side + x] = in[y / 2 * (side / 2) + x / 2];
}

namespace {

// A copy: exact.
HostCheckResult check_upsample(const HostArrays& a) {
  const std::int64_t side = patterns::square_side(a.n);
  const auto in = a.as<float>(0), out = a.as<float>(1);
  return patterns::compare_all("out", a.n, [&](std::int64_t i, patterns::Comparison& cmp) {
    cmp.add(i, out[static_cast<std::size_t>(i)], patterns::upsample2x_at(in, side, i), 0.0);
  });
}

// in: a quarter of n ((side / 2)^2; n a multiple of 4 makes the side even); out: n.
constexpr std::array<BufferLayout, 2> kLayout{{
    {"in", DType::f32, BufferRole::input, 1, 0, InputValues::random, 4},
    {"out", DType::f32, BufferRole::output},
}};

ROOFLINE_KERNEL_SELECTOR(Upsample, upsample2x_nearest_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("upsample2x_nearest_f32", kLayout, &device_function_of<Upsample>,
                                 &patterns::launch_matrix_in_out<Upsample>, check_upsample, ProblemShape::square),
}};

}  // namespace

std::span<const KernelImpl> patterns4_upsample_impls() { return kImpls; }

}  // namespace roofline::kernels

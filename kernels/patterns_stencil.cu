// Patterns suite, 2-D 5-point Jacobi step on a square grid: each interior point becomes the
// mean of itself and its four neighbours, the boundary ring copies the input. Each input
// element is read by five threads; four of those reads hit L1 (the neighbours' rows were just
// loaded by the same or the adjacent warp). Spec: patterns_stencil.toml.
#include <array>
#include <cmath>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

// One point per thread; blocks of 32 x (blockDim / 32).
template <typename I>
__global__ void stencil5_2d_kernel(const float* __restrict__ in, float* __restrict__ out, I side) {
  const I c = static_cast<I>(blockIdx.x) * 32 + threadIdx.x;
  const I r = static_cast<I>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (r >= side || c >= side) return;
  const I i = r * side + c;
  out[i] = (r == 0 || c == 0 || r == side - 1 || c == side - 1)
               ? in[i]
               : patterns::stencil5_point(in[i], in[i - side], in[i + side], in[i - 1], in[i + 1]);
}

namespace {

// The CPU computes each point by the same stencil5_point: the results match bit for bit
// (the tolerance only absorbs a compiler that contracted differently).
HostCheckResult check_stencil(const HostArrays& a) {
  const std::int64_t side = patterns::square_side(a.n);
  const auto in = a.as<float>(0);
  const auto out = a.as<float>(1);
  return patterns::compare_all("out", a.n, [&](std::int64_t i, patterns::Comparison& cmp) {
    const float expected = patterns::stencil5_at(in, side, i / side, i % side);
    cmp.add(i, out[static_cast<std::size_t>(i)], expected, 1e-6 * std::fabs(expected));
  });
}

constexpr std::array<BufferLayout, 2> kLayout{{{"in", DType::f32, BufferRole::input},
                                               {"out", DType::f32, BufferRole::output}}};

ROOFLINE_KERNEL_SELECTOR(Stencil, stencil5_2d_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("stencil5_2d", kLayout, &device_function_of<Stencil>,
                                 &patterns::launch_matrix_in_out<Stencil>, check_stencil, ProblemShape::square),
}};

}  // namespace

std::span<const KernelImpl> patterns_stencil_impls() { return kImpls; }

}  // namespace roofline::kernels

// Patterns suite, 3-D 7-point Jacobi step on a cube of side^3 floats (n = side^3, x fastest,
// then y, then z): each interior point becomes the mean of itself and its six neighbours, the
// six boundary faces copy the input. Blocks of 32 x (blockDim / 32) threads tile an x-y plane,
// one point each; grid.z walks the planes. The x and y neighbours are in the rows this block
// (or the adjacent one) loads; the z neighbours are a plane (side^2 floats) away, in rows that
// other blocks load. Spec: patterns_stencil3d.toml.
#include <array>
#include <cmath>
#include <string>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void stencil7_3d_kernel(const float* __restrict__ in, float* __restrict__ out, I side) {
  const I x = static_cast<I>(blockIdx.x) * 32 + threadIdx.x;
  const I y = static_cast<I>(blockIdx.y) * blockDim.y + threadIdx.y;
  const I z = blockIdx.z;
  if (x >= side || y >= side) return;
  const I plane = side * side;
  const I i = z * plane + y * side + x;
  out[i] = (x == 0 || y == 0 || z == 0 || x == side - 1 || y == side - 1 || z == side - 1)
               ? in[i]
               : patterns::stencil7_point(in[i], in[i - 1], in[i + 1], in[i - side], in[i + side], in[i - plane],
                                          in[i + plane]);
}

namespace {

// The CPU computes each point by the same stencil7_point: the results match bit for bit
// (the tolerance only absorbs a compiler that contracted differently).
HostCheckResult check_stencil7(const HostArrays& a) {
  const std::int64_t side = patterns::cube_side(a.n);
  const auto in = a.as<float>(0), out = a.as<float>(1);
  return patterns::compare_all("out", a.n, [&](std::int64_t i, patterns::Comparison& cmp) {
    const float expected = patterns::stencil7_at(in, side, i);
    cmp.add(i, out[static_cast<std::size_t>(i)], expected, 1e-6 * std::fabs(expected));
  });
}

constexpr std::array<BufferLayout, 2> kLayout{{{"in", DType::f32, BufferRole::input},
                                               {"out", DType::f32, BufferRole::output}}};

ROOFLINE_KERNEL_SELECTOR(Stencil7, stencil7_3d_kernel);

// Blocks of 32 x (block / 32) over each x-y plane, one grid layer per plane (prepare() has
// checked n is a perfect cube).
void launch_stencil7(const LaunchContext& c) {
  const std::int64_t side = patterns::cube_side(c.n);
  if (side > 65535)
    throw Error("a cube of side " + std::to_string(side) + " needs " + std::to_string(side) +
                " grid planes, more than a grid's 65535: use a smaller n");
  const dim3 block = patterns::matrix_block(c.block);
  dim3 grid = patterns::matrix_grid(side, 32, block.y);
  grid.z = static_cast<unsigned>(side);
  with_index_type(c.extent, [&]<typename I>() {
    stencil7_3d_kernel<I><<<grid, block, 0, c.stream>>>(static_cast<const float*>(c.buffers[0]),
                                                        static_cast<float*>(c.buffers[1]), static_cast<I>(side));
  });
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
}

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("stencil7_3d_f32", kLayout, &device_function_of<Stencil7>, &launch_stencil7,
                                 check_stencil7, ProblemShape::cube),
}};

}  // namespace

std::span<const KernelImpl> patterns_stencil3d_impls() { return kImpls; }

}  // namespace roofline::kernels

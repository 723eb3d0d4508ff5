// Patterns suite (eighth held-out batch), im2col for a 3x3 convolution with stride 1 and padding
// 1 on a single-channel side x side image (n = side^2): the 9 x n matrix out[3 ky + kx][y side
// + x] = in[y + ky - 1][x + kx - 1], 0 outside the image. One output column (y, x) per thread
// in blocks of 32 x (blockDim / 32) (32 x 8 at 256), as PyTorch's im2col kernel gives a thread
// one position and has it walk the window: nine loads of the 3x3 neighbourhood (those outside
// the image not made) and nine stores, each into its own row of out (a warp's store is 128
// contiguous bytes). Spec: patterns8_im2col.toml.
#include <array>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void im2col3x3_kernel(const float* __restrict__ in, float* __restrict__ out, I side) {
  const I x = static_cast<I>(blockIdx.x) * 32 + threadIdx.x;
  const I y = static_cast<I>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (x >= side || y >= side) return;
  const I n = side * side;
  float* col = out + y * side + x;
  for (int ky = 0; ky < 3; ++ky) {
    const I sy = y + ky - 1;
    for (int kx = 0; kx < 3; ++kx) {
      const I sx = x + kx - 1;
      const bool inside = sy >= 0 && sy < side && sx >= 0 && sx < side;
      col[(3 * ky + kx) * n] = inside ? in[sy * side + sx] : 0.0f;
    }
  }
}

namespace {

// A copy with zeros: exact. Every one of the 9 n outputs is checked.
HostCheckResult check_im2col(const HostArrays& a) {
  const std::int64_t side = patterns::square_side(a.n);
  const auto in = a.as<float>(0), out = a.as<float>(1);
  return patterns::compare_all("out", patterns::kIm2colTaps * a.n, [&](std::int64_t i, patterns::Comparison& cmp) {
    cmp.add(i, out[static_cast<std::size_t>(i)], patterns::im2col3x3_at(in, side, i), 0.0);
  });
}

// in: n floats (side^2); out: 9 n (a spread of 9 sizes it, and its useful bytes count n of
// them, as a spread buffer's do).
constexpr std::array<BufferLayout, 2> kLayout{{
    {"in", DType::f32, BufferRole::input},
    {"out", DType::f32, BufferRole::output, patterns::kIm2colTaps},
}};

ROOFLINE_KERNEL_SELECTOR(Im2col, im2col3x3_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("im2col3x3_f32", kLayout, &device_function_of<Im2col>,
                                 &patterns::launch_matrix_in_out<Im2col>, check_im2col, ProblemShape::square),
}};

}  // namespace

std::span<const KernelImpl> patterns8_im2col_impls() { return kImpls; }

}  // namespace roofline::kernels

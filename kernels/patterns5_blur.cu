// Patterns suite (fifth held-out batch), 3x3 box blur of a square image through a shared-memory
// tile: out[y][x] = the mean of in's 3 x 3 neighbourhood, edges clamped. Blocks of 32 x
// (blockDim / 32) outputs (32 x 8 at 256) stage their (rows + 2) x 34 input tile, halo included,
// in shared memory (consecutive threads load consecutive tile words, row after row), wait at one
// barrier, then each thread adds its nine tile words. Spec: patterns5_blur.toml.
#include <array>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void blur3x3_shared_kernel(const float* __restrict__ in, float* __restrict__ out, I side) {
  __shared__ float tile[patterns::kBlurMaxRows + 2][patterns::kBlurTileCols];
  const int rows = static_cast<int>(blockDim.y);
  const I x0 = static_cast<I>(blockIdx.x) * 32, y0 = static_cast<I>(blockIdx.y) * rows;
  const int count = (rows + 2) * patterns::kBlurTileCols;
  for (int k = static_cast<int>(threadIdx.y * 32 + threadIdx.x); k < count; k += 32 * rows) {
    const int r = k / patterns::kBlurTileCols, c = k % patterns::kBlurTileCols;
    const I gy = min(max(y0 + r - 1, I{0}), side - 1), gx = min(max(x0 + c - 1, I{0}), side - 1);
    tile[r][c] = in[gy * side + gx];
  }
  __syncthreads();
  const I x = x0 + threadIdx.x, y = y0 + threadIdx.y;
  if (x >= side || y >= side) return;
  float s = 0.0f;
#pragma unroll
  for (int dy = 0; dy < 3; ++dy)
#pragma unroll
    for (int dx = 0; dx < 3; ++dx) s += tile[threadIdx.y + dy][threadIdx.x + dx];
  out[y * side + x] = s * patterns::kBlurScale;
}

namespace {

HostCheckResult check_blur(const HostArrays& a) {
  const std::int64_t side = patterns::square_side(a.n);
  const auto in = a.as<float>(0), out = a.as<float>(1);
  return patterns::compare_all("out", a.n, [&](std::int64_t i, patterns::Comparison& cmp) {
    double magnitude = 0;
    const double expected = patterns::blur3x3_at(in, side, i, &magnitude);
    // Eight float adds, then the product with a rounded 1/9: ten roundings at most.
    cmp.add(i, out[static_cast<std::size_t>(i)], expected, 10 * patterns::kFloatEpsilon * 9 * magnitude);
  });
}

constexpr std::array<BufferLayout, 2> kLayout{{
    {"in", DType::f32, BufferRole::input},
    {"out", DType::f32, BufferRole::output},
}};

ROOFLINE_KERNEL_SELECTOR(Blur, blur3x3_shared_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("blur3x3_shared_f32", kLayout, &device_function_of<Blur>,
                                 &patterns::launch_matrix_in_out<Blur>, check_blur, ProblemShape::square),
}};

}  // namespace

std::span<const KernelImpl> patterns5_blur_impls() { return kImpls; }

}  // namespace roofline::kernels

// Patterns suite (eighth held-out batch), 2x bilinear upsampling of a square image with PyTorch's
// align_corners = false: out (side x side, n = side^2, side even) from in ((side / 2)^2). Output
// (y, x) samples the input at ((y + 0.5) / 2 - 0.5, (x + 0.5) / 2 - 0.5), clamped at 0, from
// its four neighbours (the lower one clamped at the last row or column) with weights 1 - l and
// l (0, 0.25 or 0.75). One output element per thread in blocks of 32 x (blockDim / 32) (32 x 8
// at 256): four loads, six multiplies and adds, one store. Spec: patterns8_bilinear.toml.
#include <array>
#include <cmath>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

// The source coordinate of output index d along a side of `in_side` inputs, as PyTorch's
// area_pixel_compute_source_index with a scale of 1/2: the first neighbour, the second (clamped
// to the side), and the second's weight.
template <typename I>
__device__ __forceinline__ void bilinear_source(I d, I in_side, I& i0, I& i1, float& l) {
  const float s = fmaxf(0.5f * (static_cast<float>(d) + 0.5f) - 0.5f, 0.0f);
  i0 = static_cast<I>(s);
  i1 = i0 + (i0 < in_side - 1 ? 1 : 0);
  l = s - static_cast<float>(i0);
}

template <typename I>
__global__ void bilinear_up2x_kernel(const float* __restrict__ in, float* __restrict__ out, I side) {
  const I x = static_cast<I>(blockIdx.x) * 32 + threadIdx.x;
  const I y = static_cast<I>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (x >= side || y >= side) return;
  const I in_side = side / 2;
  I y0, y1, x0, x1;
  float ly, lx;
  bilinear_source(y, in_side, y0, y1, ly);
  bilinear_source(x, in_side, x0, x1, lx);
  const float* r0 = in + y0 * in_side;
  const float* r1 = in + y1 * in_side;
  out[y * side + x] = (1.0f - ly) * ((1.0f - lx) * r0[x0] + lx * r0[x1]) + ly * ((1.0f - lx) * r1[x0] + lx * r1[x1]);
}

namespace {

// In double from the same four inputs and weights (0, 0.25, 0.75 or 1 and their complements:
// exact on both sides). The device rounds six products and three sums (fewer where it contracts
// them into fmas); each rounding is at most a unit roundoff of its partial result, and those
// results, weighted by the weights applied after them, add up to at most 4 M, where M is the sum
// of the four |weight x input| terms: an allowance of 8 M covers it. A wrong convention is far
// outside it: align_corners = true or nearest-neighbour sampling moves a weight by about 1/4,
// an error of about a quarter of the difference of two neighbours.
HostCheckResult check_bilinear(const HostArrays& a) {
  const std::int64_t side = patterns::square_side(a.n);
  const auto in = a.as<float>(0), out = a.as<float>(1);
  return patterns::compare_all("out", a.n, [&](std::int64_t i, patterns::Comparison& cmp) {
    double magnitude = 0;
    const double expected = patterns::bilinear_up2x_at(in, side, i, &magnitude);
    cmp.add(i, out[static_cast<std::size_t>(i)], expected, 8 * patterns::kFloatEpsilon * magnitude);
  });
}

// in: a quarter of n ((side / 2)^2; n a multiple of 4 makes the side even); out: n.
constexpr std::array<BufferLayout, 2> kLayout{{
    {"in", DType::f32, BufferRole::input, 1, 0, InputValues::random, 4},
    {"out", DType::f32, BufferRole::output},
}};

ROOFLINE_KERNEL_SELECTOR(Bilinear, bilinear_up2x_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("bilinear_up2x_f32", kLayout, &device_function_of<Bilinear>,
                                 &patterns::launch_matrix_in_out<Bilinear>, check_bilinear, ProblemShape::square),
}};

}  // namespace

std::span<const KernelImpl> patterns8_bilinear_impls() { return kImpls; }

}  // namespace roofline::kernels

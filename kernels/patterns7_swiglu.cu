// Patterns suite (seventh held-out batch), SwiGLU: out[r][j] = silu(x[r][j]) x x[r][4096 + j]
// over rows of x of 2 x 4096 floats (the gate projection's half, then the up projection's),
// silu(v) = v / (1 + expf(-v)). One output element per thread: a warp loads 128 contiguous bytes
// of each half of one row and stores 128 contiguous bytes of out. Spec: patterns7_swiglu.toml.
#include <array>
#include <cmath>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void swiglu_kernel(const float* __restrict__ x, float* __restrict__ out, I n) {
  constexpr I kHalf = static_cast<I>(patterns::kSwigluCols);
  const I i = global_thread_index<I>();
  if (i >= n) return;
  const float* row = x + i / kHalf * (2 * kHalf);
  const I j = i % kHalf;
  const float gate = row[j], up = row[kHalf + j];
  out[i] = gate / (1.0f + expf(-gate)) * up;
}

namespace {

// In double from the same inputs. Every step on the device is a relative error with no
// cancellation (1 + e^-v adds two positive terms): expf within 2 ulp (4 roundings' worth), its
// share of 1 + e^-v below that, the sum, the IEEE division and the product one rounding each:
// about 9 roundings of the result; 16 allow for it and still tell a swapped gate and up apart.
HostCheckResult check_swiglu(const HostArrays& a) {
  const auto x = a.as<float>(0), out = a.as<float>(1);
  return patterns::compare_all("out", a.n, [&](std::int64_t i, patterns::Comparison& cmp) {
    const double expected = patterns::swiglu_at(x, i);
    cmp.add(i, out[static_cast<std::size_t>(i)], expected, 16 * patterns::kFloatEpsilon * std::fabs(expected));
  });
}

// x: 2 n floats (rows of 2 x 4096; a spread of 2 sizes it, and its useful bytes count n of
// them), uniform in [-1, 1); out: n.
constexpr std::array<BufferLayout, 2> kLayout{{
    {"x", DType::f32, BufferRole::input, 2},
    {"out", DType::f32, BufferRole::output},
}};

ROOFLINE_KERNEL_SELECTOR(Swiglu, swiglu_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("swiglu_f32", kLayout, &device_function_of<Swiglu>, &launch_selected<Swiglu>,
                                 check_swiglu, ProblemShape::rows, 0, patterns::kSwigluCols),
}};

}  // namespace

std::span<const KernelImpl> patterns7_swiglu_impls() { return kImpls; }

}  // namespace roofline::kernels

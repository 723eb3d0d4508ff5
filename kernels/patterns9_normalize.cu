// Patterns suite (ninth held-out batch), each 3-vector of an array of structures scaled to unit
// length: out[i] = v[i] / sqrt(max(v[i] . v[i], 1e-24)), PyTorch's F.normalize(v, dim = -1)
// with eps = 1e-12, v and out n float3 one after another (12 bytes each). One vector per thread:
// three 4-byte loads 12 bytes apart per lane (a warp's first brings the 384 bytes all three
// read), rsqrtf (the SFU), three multiplies, three 4-byte stores 12 bytes apart.
// Spec: patterns9_normalize.toml.
#include <array>
#include <cmath>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void normalize_vec3_kernel(const float* __restrict__ v, float* __restrict__ out, I n) {
  const I i = global_thread_index<I>();
  if (i >= n) return;
  const float x = v[3 * i], y = v[3 * i + 1], z = v[3 * i + 2];
  const float r = rsqrtf(fmaxf(x * x + y * y + z * z, patterns::kNormalizeEpsilonSquared));
  out[3 * i] = x * r;
  out[3 * i + 1] = y * r;
  out[3 * i + 2] = z * r;
}

namespace {

// In double from the same inputs. The squares' sum has no cancellation: three roundings; its
// reciprocal square root halves their share (1.5) and rsqrtf adds at most 2 ulp (4 roundings'
// worth); the product one more: about 7 roundings of the result, 16 allowed. A vector of
// zeros stays zero (0 times a finite scale).
HostCheckResult check_normalize(const HostArrays& a) {
  const auto v = a.as<float>(0), out = a.as<float>(1);
  return patterns::compare_all("out", 3 * a.n, [&](std::int64_t j, patterns::Comparison& cmp) {
    const double expected = patterns::normalize_vec3_at(v, j);
    cmp.add(j, out[static_cast<std::size_t>(j)], expected, 16 * patterns::kFloatEpsilon * std::fabs(expected));
  });
}

// v and out: n 3-vectors, 3 n floats each (a spread of 3 sizes them; their useful bytes count n
// floats of each).
constexpr std::array<BufferLayout, 2> kLayout{{
    {"v", DType::f32, BufferRole::input, 3},
    {"out", DType::f32, BufferRole::output, 3},
}};

ROOFLINE_KERNEL_SELECTOR(NormalizeVec3, normalize_vec3_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("normalize_vec3_f32", kLayout, &device_function_of<NormalizeVec3>,
                                 &launch_selected<NormalizeVec3>, check_normalize),
}};

}  // namespace

std::span<const KernelImpl> patterns9_normalize_impls() { return kImpls; }

}  // namespace roofline::kernels

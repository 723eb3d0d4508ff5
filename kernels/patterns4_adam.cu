// Patterns suite (fourth held-out batch), one Adam optimizer step over n parameters, one element
// per thread, in place: param, m and v are read and written back, grad is read. The
// hyperparameters (lr, beta1, beta2, eps and the two bias corrections of step t = 10) are kernel
// arguments; each element's update is patterns::adam_update (one sqrtf, one division). Spec:
// patterns4_adam.toml.
#include <array>
#include <cmath>
#include <initializer_list>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void adam_step_kernel(float* __restrict__ param, const float* __restrict__ grad, float* __restrict__ m,
                                 float* __restrict__ v, I n, patterns::AdamConstants c) {
  const I i = global_thread_index<I>();
  if (i >= n) return;
  const patterns::AdamState s = patterns::adam_update(param[i], grad[i], m[i], v[i], c);
  param[i] = s.param;
  m[i] = s.m;
  v[i] = s.v;
}

namespace {

// The worst of several buffers' checks: every mismatch counted, the detail of the first buffer
// that has one (or of the first buffer when none has).
HostCheckResult first_failing(std::initializer_list<HostCheckResult> results) {
  HostCheckResult out = *results.begin();
  std::int64_t mismatches = 0;
  bool found = false;
  for (const HostCheckResult& r : results) {
    mismatches += r.mismatches;
    if (!found && r.mismatches > 0) {
      out = r;
      found = true;
    }
  }
  out.mismatches = mismatches;
  return out;
}

// Each element from its seeded values by the same adam_update: m and v bit for bit (fmaf and
// products only). param too, as long as sqrtf and the division are correctly rounded (IEEE, the
// build's default); an allowance of 4 roundings on the scale |param'| + |update| covers a build
// whose sqrt or division is approximate (a few ulp of the update) and still tells a missing bias
// correction or eps apart.
HostCheckResult check_adam(const HostArrays& a) {
  const auto p0 = a.initial_as<float>(0), m0 = a.initial_as<float>(2), v0 = a.initial_as<float>(3);
  const auto g = a.as<float>(1);
  const auto p = a.as<float>(0), m = a.as<float>(2), v = a.as<float>(3);
  const patterns::AdamConstants c = patterns::adam_constants();
  const auto expected = [&](std::int64_t i) {
    const auto k = static_cast<std::size_t>(i);
    return patterns::adam_update(p0[k], g[k], m0[k], v0[k], c);
  };
  return first_failing({
      patterns::compare_all("param", a.n,
                            [&](std::int64_t i, patterns::Comparison& cmp) {
                              const auto k = static_cast<std::size_t>(i);
                              const float e = expected(i).param;
                              const double update = std::fabs(static_cast<double>(e) - p0[k]);
                              cmp.add(i, p[k], e, 4 * patterns::kFloatEpsilon * (std::fabs(e) + update));
                            }),
      patterns::compare_all("m", a.n,
                            [&](std::int64_t i, patterns::Comparison& cmp) {
                              cmp.add(i, m[static_cast<std::size_t>(i)], expected(i).m, 0.0);
                            }),
      patterns::compare_all("v", a.n,
                            [&](std::int64_t i, patterns::Comparison& cmp) {
                              cmp.add(i, v[static_cast<std::size_t>(i)], expected(i).v, 0.0);
                            }),
  });
}

// param, m: uniform in [-1, 1); grad likewise; v in [0, 1) (a second moment is never negative).
constexpr std::array<BufferLayout, 4> kLayout{{
    {"param", DType::f32, BufferRole::in_place},
    {"grad", DType::f32, BufferRole::input},
    {"m", DType::f32, BufferRole::in_place},
    {"v", DType::f32, BufferRole::in_place, 1, 0, InputValues::unit_interval},
}};

ROOFLINE_KERNEL_SELECTOR(Adam, adam_step_kernel);

// One element per thread: ceil(n / block) blocks, and the hyperparameters as arguments.
void launch_adam(const LaunchContext& c) {
  const std::int64_t blocks = (c.n + c.block - 1) / c.block;
  const patterns::AdamConstants h = patterns::adam_constants();
  with_index_type(c.extent, [&]<typename I>() {
    adam_step_kernel<I><<<dim3(static_cast<unsigned>(blocks)), dim3(static_cast<unsigned>(c.block)), 0, c.stream>>>(
        static_cast<float*>(c.buffers[0]), static_cast<const float*>(c.buffers[1]), static_cast<float*>(c.buffers[2]),
        static_cast<float*>(c.buffers[3]), static_cast<I>(c.n), h);
  });
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
}

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("adam_step_f32", kLayout, &device_function_of<Adam>, &launch_adam, check_adam),
}};

}  // namespace

std::span<const KernelImpl> patterns4_adam_impls() { return kImpls; }

}  // namespace roofline::kernels

// Patterns suite, float atomics at addresses read from an index stream: a weighted histogram
// (1024 float bins, grid-stride over one wave of blocks) and a scatter-add (n / 4 float
// targets, one element per thread). Both add an f32 weight or value with atomicAdd at the
// address an i32 load gives; the result is unused, so each is a fire-and-forget reduction in L2.
// The data are multiples of 1/16 (InputValues::sixteenths): every sum is exact whatever order
// the atomics land in. Specs: patterns_scatter.toml.
#include <array>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

// bins[keys[i]] += w[i]; keys uniform over [0, 1024) (InputValues::bin_keys).
template <typename I>
__global__ void histogram_weighted_kernel(const int* __restrict__ keys, const float* __restrict__ w,
                                          float* __restrict__ bins, I n) {
  for (I i = global_thread_index<I>(); i < n; i += grid_threads<I>()) atomicAdd(&bins[keys[i]], w[i]);
}

// out[idx[i]] += x[i], one element per thread; idx uniform over [0, n / 4)
// (InputValues::scatter_indices), out of n / 4 elements.
template <typename I>
__global__ void scatter_add_kernel(const int* __restrict__ idx, const float* __restrict__ x, float* __restrict__ out,
                                   I n) {
  const I i = global_thread_index<I>();
  if (i < n) atomicAdd(&out[idx[i]], x[i]);
}

namespace {

// A bin receives about n / 1024 weights of magnitude at most 1 (2^18 at n = 2^28): its partial
// sums are multiples of 1/16 below 2^20 in magnitude, exact in f32 in any order.
HostCheckResult check_histogram_weighted(const HostArrays& a) {
  const auto expected = patterns::weighted_histogram(a.as<std::int32_t>(0), a.as<float>(1));
  const auto got = a.as<float>(2);
  patterns::Comparison c("bins");
  for (std::size_t b = 0; b < expected.size(); ++b) c.add(static_cast<std::int64_t>(b), got[b], expected[b], 0.0);
  return c.result();
}

// A few multiples of 1/16 per target: exact in any order.
HostCheckResult check_scatter_add(const HostArrays& a) {
  const std::int64_t targets = a.n / kScatterFanIn;
  const auto expected = patterns::scatter_add(a.as<std::int32_t>(0), a.as<float>(1), targets);
  const auto got = a.as<float>(2);
  return patterns::compare_all("out", targets, [&](std::int64_t t, patterns::Comparison& cmp) {
    const auto k = static_cast<std::size_t>(t);
    cmp.add(t, got[k], expected[k], 0.0);
  });
}

constexpr std::array<BufferLayout, 3> kHistogram{{
    {"keys", DType::i32, BufferRole::input, 1, 0, InputValues::bin_keys},
    {"w", DType::f32, BufferRole::input, 1, 0, InputValues::sixteenths},
    {"bins", DType::f32, BufferRole::accumulator, 1, kWeightedBins},
}};
// out: one target per kScatterFanIn (4) elements of n, zeroed before every launch.
constexpr std::array<BufferLayout, 3> kScatter{{
    {"idx", DType::i32, BufferRole::input, 1, 0, InputValues::scatter_indices},
    {"x", DType::f32, BufferRole::input, 1, 0, InputValues::sixteenths},
    {"out", DType::f32, BufferRole::accumulator, 1, 0, InputValues::random, kScatterFanIn},
}};

ROOFLINE_KERNEL_SELECTOR(Histogram, histogram_weighted_kernel);
ROOFLINE_KERNEL_SELECTOR(Scatter, scatter_add_kernel);

const std::array<KernelImpl, 2> kImpls{{
    patterns::whole_array_kernel("histogram_weighted_f32", kHistogram, &device_function_of<Histogram>,
                                 &launch_selected<Histogram>, check_histogram_weighted),
    patterns::whole_array_kernel("scatter_add_f32", kScatter, &device_function_of<Scatter>,
                                 &launch_selected<Scatter>, check_scatter_add),
}};

}  // namespace

std::span<const KernelImpl> patterns_scatter_impls() { return kImpls; }

}  // namespace roofline::kernels

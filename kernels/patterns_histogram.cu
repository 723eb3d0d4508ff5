// Patterns suite, 256-bin histograms of u8 data (grid-stride over one wave of blocks): bins
// in shared memory per block, then one global atomic per bin per block; or every element's
// atomic straight to the global bins. Each runs on uniform data (atomics spread over 256
// addresses) and on skewed data (InputValues::bins_skewed: 90 % of the elements in bin 0, the
// rest uniform, so bin 0 holds ~90.04 %: the atomics serialise on one address).
// Specs: patterns_histogram.toml.
#include <array>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void histogram_shared_kernel(const unsigned char* __restrict__ data, unsigned* __restrict__ bins, I n) {
  __shared__ unsigned local[patterns::kBins];
  for (unsigned b = threadIdx.x; b < patterns::kBins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (I i = global_thread_index<I>(); i < n; i += grid_threads<I>()) atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  // Every bin, empty or not: a fixed 256 global atomics per block.
  for (unsigned b = threadIdx.x; b < patterns::kBins; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

template <typename I>
__global__ void histogram_global_kernel(const unsigned char* __restrict__ data, unsigned* __restrict__ bins, I n) {
  for (I i = global_thread_index<I>(); i < n; i += grid_threads<I>()) atomicAdd(&bins[data[i]], 1u);
}

namespace {

// Counts are exact.
HostCheckResult check_histogram(const HostArrays& a) {
  const auto expected = patterns::histogram(a.as<std::uint8_t>(0));
  const auto got = a.as<std::uint32_t>(1);
  patterns::Comparison c("bins");
  for (int b = 0; b < patterns::kBins; ++b)
    c.add(b, static_cast<double>(got[static_cast<std::size_t>(b)]), static_cast<double>(expected[b]), 0.0);
  return c.result();
}

template <InputValues V>
constexpr std::array<BufferLayout, 2> kLayout{{
    {"data", DType::u8, BufferRole::input, 1, 0, V},
    {"bins", DType::i32, BufferRole::accumulator, 1, patterns::kBins},
}};

ROOFLINE_KERNEL_SELECTOR(Shared, histogram_shared_kernel);
ROOFLINE_KERNEL_SELECTOR(Global, histogram_global_kernel);

template <typename Sel, InputValues V>
constexpr KernelImpl histogram(std::string_view name) {
  return patterns::whole_array_kernel(name, kLayout<V>, &device_function_of<Sel>, &launch_selected<Sel>,
                                      check_histogram);
}

const std::array<KernelImpl, 4> kImpls{{
    histogram<Shared, InputValues::bins_uniform>("histogram_shared"),
    histogram<Global, InputValues::bins_uniform>("histogram_global"),
    histogram<Global, InputValues::bins_skewed>("histogram_global_skewed"),
    histogram<Shared, InputValues::bins_skewed>("histogram_shared_skewed"),
}};

}  // namespace

std::span<const KernelImpl> patterns_histogram_impls() { return kImpls; }

}  // namespace roofline::kernels

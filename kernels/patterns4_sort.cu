// Patterns suite (fourth held-out batch), a bitonic sort of every 1024-float segment, in place:
// one block of 512 threads per segment loads it into shared memory (two elements per thread, a
// block apart), runs the bitonic network there (55 compare-exchange steps, each thread one pair
// per step, a barrier after each) and writes the sorted segment back where it came from.
// Spec: patterns4_sort.toml.
#include <algorithm>
#include <array>
#include <vector>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

inline constexpr unsigned kSortThreads = 512;  // threads per segment (block), two elements each
static_assert(2 * kSortThreads == patterns::kSortSegment);

template <typename I>
__global__ void bitonic_sort_block_kernel(float* __restrict__ x, I /*n: gridDim.x segments*/) {
  constexpr unsigned segment = static_cast<unsigned>(patterns::kSortSegment);
  __shared__ float s[segment];
  const unsigned t = threadIdx.x;
  float* const at = x + static_cast<I>(blockIdx.x) * static_cast<I>(segment);
  s[t] = at[t];
  s[t + kSortThreads] = at[t + kSortThreads];
  __syncthreads();
  // Bitonic sequences of length k, merged by compare-exchanges j apart: pair (lo, lo + j) with
  // lo = t + j (t / j); ascending where bit k of lo is 0 (the last merge, k = 1024: everywhere).
  for (unsigned k = 2; k <= segment; k *= 2) {
    for (unsigned j = k / 2; j > 0; j /= 2) {
      const unsigned lo = 2 * t - (t & (j - 1));
      const unsigned hi = lo + j;
      const float a = s[lo], b = s[hi];
      const bool ascending = (lo & k) == 0;
      s[lo] = ascending ? fminf(a, b) : fmaxf(a, b);
      s[hi] = ascending ? fmaxf(a, b) : fminf(a, b);
      __syncthreads();
    }
  }
  at[t] = s[t];
  at[t + kSortThreads] = s[t + kSortThreads];
}

namespace {

// Each segment against std::sort of its seeded values: exact (the values are no NaN, and no
// -0: the inputs are k 2^-23 with k an integer).
HostCheckResult check_sort(const HostArrays& a) {
  const auto x0 = a.initial_as<float>(0), x = a.as<float>(0);
  const std::int64_t segments = a.n / patterns::kSortSegment;
  return patterns::compare_all("x", segments, [&](std::int64_t g, patterns::Comparison& cmp) {
    const auto first = static_cast<std::size_t>(g * patterns::kSortSegment);
    std::vector<float> sorted(x0.begin() + static_cast<std::ptrdiff_t>(first),
                              x0.begin() + static_cast<std::ptrdiff_t>(first + patterns::kSortSegment));
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t k = 0; k < sorted.size(); ++k)
      cmp.add(static_cast<std::int64_t>(first + k), x[first + k], sorted[k], 0.0);
  }, patterns::kSortSegment);
}

// x: n floats uniform in [-1, 1), sorted in place.
constexpr std::array<BufferLayout, 1> kLayout{{{"x", DType::f32, BufferRole::in_place}}};

ROOFLINE_KERNEL_SELECTOR(Sort, bitonic_sort_block_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("bitonic_sort_block_f32", kLayout, &device_function_of<Sort>,
                                 &patterns::launch_block_per_row<Sort, patterns::kSortSegment>, check_sort,
                                 ProblemShape::rows, static_cast<int>(kSortThreads), patterns::kSortSegment),
}};

}  // namespace

std::span<const KernelImpl> patterns4_sort_impls() { return kImpls; }

}  // namespace roofline::kernels

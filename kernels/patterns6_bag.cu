// Patterns suite (sixth held-out batch), embedding bag (sum): out[b][d] = the sum over k < 8 of
// table[idx[8b + k]][d], rows of 128 floats, bags of 8 indices uniform over the table's rows.
// The table has as many rows as the bags hold indices (n / 16 rows: 8 n floats), so each row is
// read about once. One output element per thread: a warp is 32 columns of one bag; it loads the
// bag's 8 indices (every lane the same word), then 8 pieces of 128 bytes of the rows they name,
// added in order. Spec: patterns6_bag.toml.
#include <array>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void embedding_bag_sum_kernel(const int* __restrict__ idx, const float* __restrict__ table,
                                         float* __restrict__ out, I n) {
  constexpr I kCols = patterns::kBagCols;
  const I i = global_thread_index<I>();
  if (i >= n) return;
  const int* bag = idx + i / kCols * patterns::kBagSize;
  const I d = i % kCols;
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < patterns::kBagSize; ++k) sum += table[static_cast<I>(bag[k]) * kCols + d];
  out[i] = sum;
}

namespace {

// The same float additions in the same order on both sides: exact.
HostCheckResult check_embedding_bag(const HostArrays& a) {
  const auto idx = a.as<std::int32_t>(0);
  const auto table = a.as<float>(1), out = a.as<float>(2);
  return patterns::compare_all("out", a.n, [&](std::int64_t i, patterns::Comparison& cmp) {
    cmp.add(i, out[static_cast<std::size_t>(i)], patterns::embedding_bag_at(idx, table, i), 0.0);
  });
}

// idx: 8 per bag of 128 outputs (n / 16), uniform over [0, n / 16) (InputValues::indices: over the
// buffer's own elements, which are the table's rows); table: 8 n floats (n / 16 rows of 128); out: n.
constexpr std::array<BufferLayout, 3> kLayout{{
    {"idx", DType::i32, BufferRole::input, 1, 0, InputValues::indices, patterns::kBagCols / patterns::kBagSize},
    {"table", DType::f32, BufferRole::input, patterns::kBagSize},
    {"out", DType::f32, BufferRole::output},
}};

ROOFLINE_KERNEL_SELECTOR(EmbeddingBag, embedding_bag_sum_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("embedding_bag_sum_f32", kLayout, &device_function_of<EmbeddingBag>,
                                 &launch_selected<EmbeddingBag>, check_embedding_bag, ProblemShape::rows, 0,
                                 patterns::kBagCols),
}};

}  // namespace

std::span<const KernelImpl> patterns6_bag_impls() { return kImpls; }

}  // namespace roofline::kernels

// Patterns suite, embedding lookup: out[r][:] = table[ids[r]][:] for rows of 128 floats, one
// warp per row, lane l copying float4 l (a row is 512 contiguous bytes). The ids are uniform
// over the table's rows, and the table has as many rows as there are ids (n / 128 of each): the
// table is the output's size, so it crosses the L2 with the other arrays. Spec:
// patterns_embed.toml.
#include <algorithm>
#include <array>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

inline constexpr int kEmbeddingVectors = patterns::kEmbeddingCols / 4;  // float4 per row
static_assert(kEmbeddingVectors == 32, "one float4 per lane");

// n = rows x 128 output elements; ids and the table's rows: n / 128 each.
template <typename I>
__global__ void embedding_gather_kernel(const int* __restrict__ ids, const float* __restrict__ table,
                                        float* __restrict__ out, I n) {
  const I rows = n / static_cast<I>(patterns::kEmbeddingCols);
  const I row = global_thread_index<I>() / 32;
  if (row >= rows) return;  // whole warps: blockDim is a multiple of 32
  const unsigned lane = threadIdx.x % 32;
  const I id = ids[row];
  const float4 v = reinterpret_cast<const float4*>(table + id * static_cast<I>(patterns::kEmbeddingCols))[lane];
  reinterpret_cast<float4*>(out + row * static_cast<I>(patterns::kEmbeddingCols))[lane] = v;
}

namespace {

// A copy: exact.
HostCheckResult check_embedding(const HostArrays& a) {
  return patterns::compare_indexed_copy(a.n, a.as<std::int32_t>(0), a.as<float>(1), a.as<float>(2),
                                        patterns::embedding_at);
}

// ids: one per row of 128 (n / 128), uniform over [0, n / 128) (InputValues::indices: over the
// buffer's own elements, which are the table's rows); table and out: n floats.
constexpr std::array<BufferLayout, 3> kLayout{{
    {"ids", DType::i32, BufferRole::input, 1, 0, InputValues::indices, patterns::kEmbeddingCols},
    {"table", DType::f32, BufferRole::input},
    {"out", DType::f32, BufferRole::output},
}};

ROOFLINE_KERNEL_SELECTOR(Embedding, embedding_gather_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("embedding_gather_f32", kLayout, &device_function_of<Embedding>,
                                 &patterns::launch_warp_per_row<Embedding, patterns::kEmbeddingCols>, check_embedding),
}};

}  // namespace

std::span<const KernelImpl> patterns_embed_impls() { return kImpls; }

}  // namespace roofline::kernels

// Patterns suite (sixth held-out batch), the attention reshape [B, S, H, D] -> [B, H, S, D] with
// B = 1, H = 16 heads, D = 64 and S = n / 1024 tokens: out[h][s][d] = in[s][h][d]. One element
// per thread in input order: a warp reads 128 contiguous bytes and writes them as half of one
// 256-byte row of out, whose rows lie S x 256 bytes apart from head to head. Spec:
// patterns6_permute.toml.
#include <array>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void permute_0213_kernel(const float* __restrict__ in, float* __restrict__ out, I n) {
  constexpr I kHeads = patterns::kPermuteHeads, kDim = patterns::kPermuteHeadDim;
  const I i = global_thread_index<I>();
  if (i >= n) return;
  const I seq = n / (kHeads * kDim);
  const I s = i / (kHeads * kDim), h = i / kDim % kHeads, d = i % kDim;
  out[(h * seq + s) * kDim + d] = in[i];
}

namespace {

// A copy: exact.
HostCheckResult check_permute(const HostArrays& a) {
  const auto in = a.as<float>(0), out = a.as<float>(1);
  return patterns::compare_all("out", a.n, [&](std::int64_t i, patterns::Comparison& cmp) {
    cmp.add(i, out[static_cast<std::size_t>(i)], patterns::permute0213_at(in, i), 0.0);
  });
}

constexpr std::array<BufferLayout, 2> kLayout{{
    {"in", DType::f32, BufferRole::input},
    {"out", DType::f32, BufferRole::output},
}};

ROOFLINE_KERNEL_SELECTOR(Permute0213, permute_0213_kernel);

// Rows of one token's 16 x 64: n a multiple of 1024.
const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("permute_0213_f32", kLayout, &device_function_of<Permute0213>,
                                 &launch_selected<Permute0213>, check_permute, ProblemShape::rows, 0,
                                 patterns::kPermuteHeads * patterns::kPermuteHeadDim),
}};

}  // namespace

std::span<const KernelImpl> patterns6_permute_impls() { return kImpls; }

}  // namespace roofline::kernels

// Patterns suite (eighth held-out batch), bias then ReLU in FP16 over rows of 4096 halves:
// out[r][c] = max(x[r][c] + b[c], 0), x, b and out __half. One __half2 per thread: a 4-byte load
// of x and of b, __hadd2 and __hmax2 against zero, a 4-byte store (a warp moves 128 contiguous
// bytes of each). The bias (8 KiB) is read by every row. Spec: patterns8_biasrelu.toml.
#include <cuda_fp16.h>

#include <array>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

// Thread t: halves 2t and 2t + 1. Rows of 4096 are even and n is a whole number of rows, so a
// pair never straddles two rows, i % 4096 is even (b's pair is 4-byte aligned) and no thread has
// half a pair.
template <typename I>
__global__ void bias_relu_f16x2_kernel(const __half* __restrict__ x, const __half* __restrict__ b,
                                       __half* __restrict__ out, I n) {
  const I i = 2 * global_thread_index<I>();
  if (i >= n) return;
  const __half2 v = *reinterpret_cast<const __half2*>(x + i);
  const __half2 bias = *reinterpret_cast<const __half2*>(b + i % static_cast<I>(patterns::kBiasReluCols));
  *reinterpret_cast<__half2*>(out + i) = __hmax2(__hadd2(v, bias), __float2half2_rn(0.0f));
}

namespace {

// The suite's f16 inputs are k / 64 with |k| <= 512, so x + b is k / 64 with |k| <= 1024:
// exact in f16 (11 significant bits), and so is its max with 0: compared exactly. The sum is
// taken in float from the decoded halves (exact too).
HostCheckResult check_bias_relu(const HostArrays& a) {
  const auto x = a.as<std::byte>(0), b = a.as<std::byte>(1), out = a.as<std::byte>(2);
  const auto half_at = [](std::span<const std::byte> buffer, std::int64_t i) {
    return decode_value(DType::f16, buffer.data() + 2 * i);
  };
  return patterns::compare_all("out", a.n, [&](std::int64_t i, patterns::Comparison& cmp) {
    cmp.add(i, half_at(out, i), patterns::bias_relu_at(half_at(x, i), half_at(b, i % patterns::kBiasReluCols)), 0.0);
  });
}

// x and out: n halves (rows of 4096); b: 4096, read by every row.
constexpr std::array<BufferLayout, 3> kLayout{{
    {"x", DType::f16, BufferRole::input},
    {"b", DType::f16, BufferRole::input, 1, patterns::kBiasReluCols},
    {"out", DType::f16, BufferRole::output},
}};

ROOFLINE_KERNEL_SELECTOR(BiasRelu, bias_relu_f16x2_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("bias_relu_f16x2", kLayout, &device_function_of<BiasRelu>,
                                 &launch_selected<BiasRelu>, check_bias_relu, ProblemShape::rows, 0,
                                 patterns::kBiasReluCols),
}};

}  // namespace

std::span<const KernelImpl> patterns8_biasrelu_impls() { return kImpls; }

}  // namespace roofline::kernels

// Memory-system probes from a published memory-bandwidth blog experiment on an RTX 4060:
// read-only and write-only halves of the add, the stride-8
// write that touches one float per 32-byte sector (L2 write-validate), and float4 adds with
// the `.cs` (evict-first streaming) store and `.lu` (last-use) load hints. Specs:
// memory_probes.toml.
#include <array>

#include "kernels/launch_helpers.cuh"

namespace roofline::kernels {

// Reads a and b and does nothing visible with them. To keep the loads (a compiler may drop
// loads whose values are unused, and sink them into a branch they feed), the sum is compared
// with kReadOnlySentinel, a value the inputs (|x| < 1) can never sum to, and only then stored
// to the one-element sink. So each element costs two loads, an add and a compare; the store
// never executes and the sink stays poisoned (the runner checks that).
template <typename I>
__global__ void read_only_f32_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                     float* __restrict__ sink, I n) {
  const I i = global_thread_index<I>();
  if (i < n) {
    const float v = a[i] + b[i];
    if (v == kReadOnlySentinel) sink[0] = v;
  }
}

template <typename I>
__global__ void write_only_f32_kernel(float* __restrict__ out, I n) {
  const I i = global_thread_index<I>();
  if (i < n) out[i] = kWriteValue;
}

// Thread i writes element 8 i: every 32-byte sector gets 4 of its 32 bytes written.
template <typename I>
__global__ void write_only_f32_stride8_kernel(float* __restrict__ out, I n) {
  const I i = global_thread_index<I>();
  if (i < n) out[8 * i] = kWriteValue;
}

template <typename I>
__global__ void add_f32x4_streaming_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                           float* __restrict__ c, I n) {
  const I i = 4 * global_thread_index<I>();
  if (i + 3 < n) {
    const float4 x = *reinterpret_cast<const float4*>(a + i);
    const float4 y = *reinterpret_cast<const float4*>(b + i);
    __stcs(reinterpret_cast<float4*>(c + i), add4(x, y));
  } else {
#pragma unroll 1
    for (I k = i; k < n; ++k) __stcs(c + k, a[k] + b[k]);
  }
}

template <typename I>
__global__ void add_f32x4_lastuse_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                         float* __restrict__ c, I n) {
  const I i = 4 * global_thread_index<I>();
  if (i + 3 < n) {
    const float4 x = __ldlu(reinterpret_cast<const float4*>(a + i));
    const float4 y = __ldlu(reinterpret_cast<const float4*>(b + i));
    *reinterpret_cast<float4*>(c + i) = add4(x, y);
  } else {
#pragma unroll 1
    for (I k = i; k < n; ++k) c[k] = __ldlu(a + k) + __ldlu(b + k);
  }
}

namespace {

void no_outputs(const float*, float*) {}
void write_value(const float*, float* out) { out[0] = kWriteValue; }

constexpr auto kAdd = binary_layout(DType::f32);
constexpr std::array<BufferLayout, 3> kReadOnly{
    {{"a", DType::f32, BufferRole::input}, {"b", DType::f32, BufferRole::input}, {"sink", DType::f32, BufferRole::sink}}};
constexpr std::array<BufferLayout, 1> kWrite{{{"out", DType::f32, BufferRole::output}}};
constexpr std::array<BufferLayout, 1> kWriteStride8{{{"out", DType::f32, BufferRole::output, 8}}};

ROOFLINE_KERNEL_SELECTOR(ReadOnly, read_only_f32_kernel);
ROOFLINE_KERNEL_SELECTOR(WriteOnly, write_only_f32_kernel);
ROOFLINE_KERNEL_SELECTOR(WriteOnlyStride8, write_only_f32_stride8_kernel);
ROOFLINE_KERNEL_SELECTOR(Streaming, add_f32x4_streaming_kernel);
ROOFLINE_KERNEL_SELECTOR(LastUse, add_f32x4_lastuse_kernel);

const std::array<KernelImpl, 5> kImpls{{
    single_pass<ReadOnly>("read_only_f32", kReadOnly, no_outputs, ReferenceOp::none),
    single_pass<WriteOnly>("write_only_f32", kWrite, write_value, ReferenceOp::write_value),
    single_pass<WriteOnlyStride8>("write_only_f32_stride8", kWriteStride8, write_value, ReferenceOp::write_value),
    single_pass<Streaming>("add_f32x4_streaming", kAdd, add_reference, ReferenceOp::add),
    single_pass<LastUse>("add_f32x4_lastuse", kAdd, add_reference, ReferenceOp::add),
}};

}  // namespace

std::span<const KernelImpl> memory_probe_impls() { return kImpls; }

}  // namespace roofline::kernels

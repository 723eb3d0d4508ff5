// Patterns suite, segmented scan: the inclusive prefix sum of every segment of kRowCols (1024)
// floats, one block of 256 threads per segment. Each thread scans its 4 consecutive elements
// in registers (one float4 load), the 256 thread totals are scanned in shared memory by
// Hillis-Steele (8 steps over ping-pong buffers, one barrier each), and each thread adds the
// total of the threads before it and stores its float4. Spec: patterns_scan.toml.
#include <array>
#include <vector>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

inline constexpr int kScanThreads = 256;  // threads per segment (block), 4 elements each
static_assert(kScanThreads * 4 == kRowCols);

template <typename I>
__global__ void scan_block_kernel(const float* __restrict__ x, float* __restrict__ out, I /*n: gridDim.x segments*/) {
  __shared__ float totals[2][kScanThreads];
  const unsigned t = threadIdx.x;
  const I at = static_cast<I>(blockIdx.x) * kRowCols + 4 * t;
  float4 v = *reinterpret_cast<const float4*>(x + at);
  v.y += v.x;
  v.z += v.y;
  v.w += v.z;
  // Hillis-Steele inclusive scan of the thread totals: after the step of offset d, thread t
  // holds the sum of the totals of threads t - 2d + 1 .. t. Reads from one buffer, writes to
  // the other, so each step needs one barrier.
  float s = v.w;
  totals[0][t] = s;
  __syncthreads();
  int from = 0;
#pragma unroll
  for (unsigned d = 1; d < kScanThreads; d *= 2) {
    if (t >= d) s += totals[from][t - d];
    totals[from ^ 1][t] = s;
    from ^= 1;
    __syncthreads();
  }
  const float before = t > 0 ? totals[from][t - 1] : 0.0f;  // the threads before this one
  v.x += before;
  v.y += before;
  v.z += before;
  v.w += before;
  *reinterpret_cast<float4*>(out + at) = v;
}

namespace {

// The inputs are multiples of 1/16 (InputValues::sixteenths) of at most 1: every prefix sum of
// a segment is a multiple of 1/16 below 1024 in magnitude, exact in f32 whatever the order.
HostCheckResult check_scan(const HostArrays& a) {
  const auto x = a.as<float>(0), out = a.as<float>(1);
  return patterns::compare_rows("out", x, out, kRowCols, patterns::inclusive_scan,
                                [](std::size_t, double) { return 0.0; });
}

constexpr std::array<BufferLayout, 2> kLayout{{
    {"x", DType::f32, BufferRole::input, 1, 0, InputValues::sixteenths},
    {"out", DType::f32, BufferRole::output},
}};

ROOFLINE_KERNEL_SELECTOR(Scan, scan_block_kernel);

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("scan_block", kLayout, &device_function_of<Scan>,
                                 &patterns::launch_block_per_row<Scan, kRowCols>, check_scan, ProblemShape::rows,
                                 kScanThreads),
}};

}  // namespace

std::span<const KernelImpl> patterns_scan_impls() { return kImpls; }

}  // namespace roofline::kernels

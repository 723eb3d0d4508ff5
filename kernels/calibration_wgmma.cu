// The tensor cores through Hopper's warpgroup MMA (kernels/calibration_wgmma.hpp). Built for
// sm_90a alone (kernels/CMakeLists.txt): wgmma has no other target.
#include "kernels/calibration_wgmma.hpp"

#include <cuda_fp16.h>

#include <cstdint>

#include "kernels/cuda_check.hpp"

namespace roofline::calib::wgmma {
namespace {

constexpr int kAHalves = 64 * 16, kBHalves = 16 * 128;  // one m64n128k16's A and B

// A shared-memory matrix descriptor without swizzling: the start address and the byte offsets
// between 8 x 16-byte core matrices along K (leading) and along M or N (stride), each in 16 bytes.
__device__ std::uint64_t descriptor(const void* smem, std::uint32_t leading, std::uint32_t stride) {
  const auto address = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem));
  return static_cast<std::uint64_t>((address & 0x3FFFF) >> 4) | static_cast<std::uint64_t>(leading >> 4) << 16 |
         static_cast<std::uint64_t>(stride >> 4) << 32;
}

// d += A B for one warpgroup: A 64 x 16 and B 16 x 128 halves from shared memory, d its 64 x 128
// floats, 64 a thread. The immediates after the descriptors: accumulate into d, A and B not
// negated, neither transposed.
__device__ __forceinline__ void mma(float (&d)[64], std::uint64_t a, std::uint64_t b) {
  asm volatile(
      "{\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
      "{"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
      "}, %64, %65, 1, 1, 1, 0, 0;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(a), "l"(b));
}

// 16 wgmma a trip into one accumulator, as a GEMM's K steps go; the operands are fixed small
// values, as only the rate matters.
__global__ void __launch_bounds__(kThreadsPerBlock) wgmma_kernel(int trips, float* out, detail::ClockRecord* rec) {
  __shared__ __align__(128) __half smem[kAHalves + kBHalves];
  detail::BlockClock clk;
  clk.start(rec);
  for (int i = threadIdx.x; i < kAHalves + kBHalves; i += kThreadsPerBlock) smem[i] = __float2half(0.0009765625f);
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // the generic stores, seen by the tensor cores
  const std::uint64_t a = descriptor(smem, 128, 256), b = descriptor(smem + kAHalves, 128, 256);
  float d[64];
#pragma unroll
  for (float& x : d) x = 0.0f;
#pragma unroll 1
  for (int t = 0; t < trips; ++t) {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int k = 0; k < 16; ++k) mma(d, a, b);
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  }
  float s = 0.0f;
#pragma unroll
  for (float x : d) s += x;
  out[blockIdx.x * kThreadsPerBlock + threadIdx.x] = s;
  clk.stop(rec);
}

}  // namespace

bool supported(int device) {
  int major = 0, minor = 0;
  ROOFLINE_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  ROOFLINE_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return major == 9 && minor == 0;
}

int blocks_per_sm() {
  int n = 0;
  ROOFLINE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, wgmma_kernel, kThreadsPerBlock, 0));
  return n;
}

void launch(int blocks, int trips, float* out, detail::ClockRecord* records, cudaStream_t stream) {
  wgmma_kernel<<<blocks, kThreadsPerBlock, 0, stream>>>(trips, out, records);
}

}  // namespace roofline::calib::wgmma

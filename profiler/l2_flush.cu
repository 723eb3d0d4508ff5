#include "profiler/l2_flush.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "kernels/cuda_check.hpp"

namespace roofline {
namespace {

// Reads every 16-byte word; writes only when the (never true) sum condition holds.
__global__ void l2_flush_read(const uint4* __restrict__ data, std::size_t words, unsigned* sink) {
  unsigned acc = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < words; i += stride) {
    const uint4 v = data[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9e3779b9u) *sink = acc;
}

// Straight-line code larger than an SM's and a GPC's instruction caches, run by a warp on every
// SM: the next kernel fetches its code through L2 again, as it does in every pass of ncu's replay.
constexpr int kCodeEvictInstructions = 16384;  // 16 bytes each: 256 KiB

__global__ void l2_flush_evict_code(unsigned* sink) {
  float x = static_cast<float>(threadIdx.x);
#pragma unroll
  for (int i = 0; i < kCodeEvictInstructions; ++i) asm volatile("fma.rn.f32 %0, %0, 0f3F800001, 0f3F800000;" : "+f"(x));
  if (x == 1.2345f) *sink = 1;
}

}  // namespace

int L2Flush::kernel_launches(bool evict_code) const { return (mode_ == Mode::write ? 0 : 1) + (evict_code ? 1 : 0); }

L2Flush::L2Flush(double factor, Mode mode) : mode_(mode) {
  int device = 0;
  ROOFLINE_CUDA_CHECK(cudaGetDevice(&device));
  int l2 = 0;
  ROOFLINE_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  ROOFLINE_CUDA_CHECK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device));
  l2_bytes_ = static_cast<std::size_t>(l2);
  const double f = std::max(factor, 2.0);
  const std::size_t minimum = std::size_t{32} << 20;
  bytes_ = std::max(static_cast<std::size_t>(f * static_cast<double>(l2_bytes_)), minimum);
  bytes_ = (bytes_ + 4095) / 4096 * 4096;
  ROOFLINE_CUDA_CHECK(cudaMalloc(&buffer_, bytes_));
  ROOFLINE_CUDA_CHECK(cudaMalloc(&sink_, sizeof(unsigned)));
  ROOFLINE_CUDA_CHECK(cudaMemset(buffer_, 0, bytes_));
}

L2Flush::~L2Flush() {
  if (buffer_ != nullptr) (void)cudaFree(buffer_);
  if (sink_ != nullptr) (void)cudaFree(sink_);
}

void L2Flush::flush(void* stream, bool evict_code) {
  auto s = static_cast<cudaStream_t>(stream);
  value_ = static_cast<unsigned char>(value_ + 1);
  if (mode_ != Mode::read) ROOFLINE_CUDA_CHECK(cudaMemsetAsync(buffer_, value_, bytes_, s));
  if (mode_ != Mode::write) {
    l2_flush_read<<<sms_ * 4, 512, 0, s>>>(static_cast<const uint4*>(buffer_), bytes_ / sizeof(uint4),
                                           static_cast<unsigned*>(sink_));
    ROOFLINE_CUDA_CHECK(cudaGetLastError());
  }
  // ROOFLINE_FLUSH_DIRTY_BYTES overrides the residue, for scripts/device/l2_state_vs_ncu.sh.
  static const std::size_t dirty = [] {
    const char* v = std::getenv("ROOFLINE_FLUSH_DIRTY_BYTES");
    return v != nullptr && *v != '\0' ? static_cast<std::size_t>(std::strtoull(v, nullptr, 10)) : kDirtyResidueBytes;
  }();
  if (mode_ == Mode::write_then_read && dirty > 0)
    ROOFLINE_CUDA_CHECK(cudaMemsetAsync(buffer_, value_, std::min(dirty, bytes_), s));
  if (evict_code) {
    l2_flush_evict_code<<<sms_, 32, 0, s>>>(static_cast<unsigned*>(sink_));
    ROOFLINE_CUDA_CHECK(cudaGetLastError());
  }
}

}  // namespace roofline

#include "kernels/stream_blocker.hpp"

#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/cuda_check.hpp"
#include "kernels/detail/block_clock.cuh"

namespace roofline {
namespace {

using calib::detail::global_ns;

__global__ void hold_stream(volatile int* words, std::uint64_t timeout_ns) {
  const std::uint64_t start = global_ns();
  while (words[0] == 0) {
    if (global_ns() - start > timeout_ns) {
      words[1] = 1;
      return;
    }
  }
}

}  // namespace

StreamBlocker::StreamBlocker() {
  void* host = nullptr;
  ROOFLINE_CUDA_CHECK(cudaHostAlloc(&host, 2 * sizeof(int), cudaHostAllocMapped));
  words_ = static_cast<volatile int*>(host);
  words_[0] = 1;
  words_[1] = 0;
  ROOFLINE_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_words_), host, 0));
}

StreamBlocker::~StreamBlocker() {
  if (words_ != nullptr) (void)cudaFreeHost(const_cast<int*>(words_));
}

bool StreamBlocker::run_held(void* stream, const std::function<void()>& enqueue) {
  auto s = static_cast<cudaStream_t>(stream);
  words_[0] = 0;
  words_[1] = 0;
  hold_stream<<<1, 1, 0, s>>>(device_words_, static_cast<std::uint64_t>(kTimeoutS * 1e9));
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
  {
    struct Release {  // also when enqueue throws: the stream must not stay held
      volatile int* go;
      ~Release() { *go = 1; }
    } release{words_};
    enqueue();
  }
  ROOFLINE_CUDA_CHECK(cudaStreamSynchronize(s));
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
  return words_[1] == 0;
}

}  // namespace roofline

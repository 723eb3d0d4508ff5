#include "profiler/inject/host_staging.hpp"

#include <cuda.h>

#include <cstdlib>

namespace roofline::inject {

HostStaging::~HostStaging() { release(); }

void HostStaging::release() {
  if (data_ == nullptr) return;
  if (pinned_) cuMemHostUnregister(data_);
  std::free(data_);
  data_ = nullptr;
  bytes_ = 0;
  pinned_ = false;
}

unsigned char* HostStaging::reserve(std::size_t bytes) {
  if (bytes <= bytes_) return data_;
  release();
  constexpr std::size_t page = 4096;
  const std::size_t size = (bytes + page - 1) / page * page;
  data_ = static_cast<unsigned char*>(std::aligned_alloc(page, size));
  if (data_ == nullptr) return nullptr;
  bytes_ = size;
  // Pinning may fail (a locked-memory limit); the copies then stage through the driver's buffers.
  pinned_ = cuMemHostRegister(data_, size, 0) == CUDA_SUCCESS;
  return data_;
}

}  // namespace roofline::inject

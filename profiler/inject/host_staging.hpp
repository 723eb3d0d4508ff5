#pragma once
// The host memory that holds the part of a replay's saved memory the device has no room for: kept
// from one batch to the next and pinned. A program holding most of the GPU's memory (47 GiB of an
// H100's 80) saved it into fresh pageable memory at about 1.3 GB/s, 30-38 s a batch, where the
// copies themselves take a few seconds; reusing the buffer skips the first touch of every page, and
// pinning it lets the copies run at the link's speed.
#include <cstddef>

namespace roofline::inject {

class HostStaging {
 public:
  HostStaging() = default;
  ~HostStaging();
  HostStaging(const HostStaging&) = delete;
  HostStaging& operator=(const HostStaging&) = delete;
  // At least `bytes`, uninitialised; grows (and pins again) when a snapshot needs more. nullptr
  // when the host cannot allocate it.
  unsigned char* reserve(std::size_t bytes);
  bool pinned() const { return pinned_; }

 private:
  void release();
  unsigned char* data_ = nullptr;
  std::size_t bytes_ = 0;
  bool pinned_ = false;
};

}  // namespace roofline::inject

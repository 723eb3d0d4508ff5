#pragma once
// L2 flush: leaves the L2 cache holding none of the caller's data, as Nsight Compute's
// `--cache-control all` does before each pass. Never timed.
//
// The scratch buffer is >= 2 x cudaDevAttrL2CacheSize. A flush writes it (cudaMemsetAsync),
// which evicts every line of the caller's data (dirty lines are written back now, not during
// the next kernel), and then, in the default mode, reads it back with a streaming kernel so
// that L2 is left holding clean lines: without the read, the next kernel's misses would evict
// the memset's dirty lines and dram__bytes_write would count up to one L2 of write-backs that
// `ncu` (which invalidates L2) does not see. Seen on the H100 for a read-only 64 MiB kernel:
// memset-only flush 23 MB of DRAM writes, memset + read 3.0 MB, read only 3.1 MB, ncu 2.35 MB.
//
// ncu's cache control does not leave the L2 clean, though: a read-only kernel that reads 32 MiB
// or more writes back 67-75 thousand sectors (2.1-2.4 MB) under `ncu --cache-control all` at
// every size up to 1 GiB, and every other kernel's DRAM writes are higher by the same amount
// (scripts/device/l2_state_vs_ncu.sh, docs/results/h100/l2-state.md). So the default flush ends
// by writing kDirtyResidueBytes of its buffer, leaving that many dirty lines in L2 as ncu does:
// with 2 MiB every DRAM write count of those kernels at 2^24..2^28 elements came within 1.6 %
// of ncu's (0 MiB: up to 6 % low, and 97 % low for the read-only kernel).
#include <cstddef>

namespace roofline {

class L2Flush {
 public:
  // write: cudaMemsetAsync only; write_then_read: memset, then a read sweep; read: read sweep of
  // the (clean) buffer only.
  enum class Mode { write, write_then_read, read };
  // Allocates the scratch buffer on the current device: factor x L2 size (factor >= 2).
  explicit L2Flush(double factor = 4.0, Mode mode = Mode::write_then_read);
  // Dirty bytes a write_then_read flush leaves in L2, as ncu's cache control does (see above).
  static constexpr std::size_t kDirtyResidueBytes = std::size_t{2} << 20;
  ~L2Flush();
  L2Flush(const L2Flush&) = delete;
  L2Flush& operator=(const L2Flush&) = delete;

  // Enqueues the flush on stream (a cudaStream_t; nullptr = default stream). evict_code: also
  // evicts the SMs' and GPCs' instruction caches, so that the next kernel fetches its code (and
  // its constants) through L2, as in every pass of ncu's replay, whatever its cache control
  // (about 640 more L2 read sectors for a small kernel on the H100: docs/results/h100/l2-code-reads/).
  // Counter passes do; timing does not, as back-to-back launches of a kernel find its code.
  void flush(void* stream = nullptr, bool evict_code = false);
  std::size_t bytes() const { return bytes_; }
  // Kernel launches one flush() makes (the read sweep, the code eviction; the memset is not a
  // kernel launch).
  int kernel_launches(bool evict_code = false) const;
  std::size_t l2_bytes() const { return l2_bytes_; }

 private:
  void* buffer_ = nullptr;
  void* sink_ = nullptr;  // one word the read kernel may write, so it is not optimised away
  std::size_t bytes_ = 0, l2_bytes_ = 0;
  Mode mode_;
  int sms_ = 0;
  unsigned char value_ = 0;
};

}  // namespace roofline

#pragma once
// Calibration micro-benchmarks: one kernel per ceiling, behind a
// CUDA-free interface. profiler/calibrate.cpp repeats them and turns the numbers into a
// Calibration. Everything runs on the device current at construction; every CUDA failure
// throws roofline::Error naming the call.
//
// Kernels (block 256, grid = SMs x resident blocks per SM from the occupancy API, so every
// thread launched is resident):
// - read16 / write16 / copy16: 16-byte accesses, grid-stride, 4 independent accesses per thread
//   per iteration (64 B in flight per thread). read16 XORs what it loads into a register that is
//   stored only when it equals a run-time sentinel, so the loads cannot be removed.
// - read16 over a working set S: thread t reads elements (t + k x threads) mod S/16 with
//   ld.global.cg (served by L2, never by L1), `total` bytes per launch.
// - one-shot variants of read16 / write16 / copy16 and of read4: one element per thread.
// - read4_in_flight: one (or two, or four) 4-byte loads in flight per thread (#pragma unroll 1,
//   the loads feed the XORs before the next are issued): the Little's-law quantity of the model's
//   latency bound.
// - chase: one thread, dependent loads through a random cyclic permutation of slots `stride`
//   bytes apart; clock64() and %globaltimer around the timed steps.
// - fma: 8 independent accumulators per thread, 128 FMA per loop trip (fp32 fmaf, half2 and
//   bfloat162 __hfma2); mma_f16: 8 independent mma.sync m16n8k16 accumulators (f16 sources, f32
//   accumulate) per warp, 128 per loop trip, 64 multiply-adds a thread each; wgmma_f16: one
//   warpgroup per block, 16 wgmma m64n128k16 a trip into one accumulator (sm_90a code:
//   warpgroup_mma_supported() says whether the device runs it).
// - random_read: 4-byte loads at hashed addresses over the whole buffer, 4 in flight per thread.
// - column_store: a naive transpose's stores, 32 x 8 blocks, one partial sector per store.
// - empty: nothing, for the launch floor.
// Streaming, L2 and FMA kernels record clock64() and %globaltimer per block (thread 0, after a
// __syncthreads at the end): the SM clock while the kernel ran.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace roofline::calib {

// One timed launch.
struct Sample {
  double seconds = 0.0;   // CUDA events around the launch
  double work = 0.0;      // bytes moved (reads + writes) or FMAs executed
  double clock_hz = 0.0;  // median over blocks of clock64 cycles / globaltimer ns; 0 when not recorded
  std::int64_t threads = 0;  // threads launched (all resident)
};

enum class Mix { read, write, copy };
// grid_stride: the kernels above, one resident grid; one_shot: one 16-byte element per thread,
// n / 256 blocks (as the suite's one-shot kernels); grid_stride_offset: grid_stride with the
// written (copy, write) or read (read) buffer shifted by 264 KiB, so that source and
// destination do not share their offsets modulo large powers of two.
enum class Pattern { grid_stride, one_shot, grid_stride_offset };
// The pipes time_fma times: FMA chains by type, the tensor cores' MMAs, rsqrt chains on the special
// function unit (sfu) and three-input xor chains on the ALU (alu).
enum class FmaType { fp32, fp16x2, bf16x2, fp64, mma_f16, wgmma_f16, sfu, alu };

struct LaunchTimes {
  std::vector<double> event_s;    // event pair around each launch, back-to-back (as the Timer times)
  std::vector<double> back_to_back_s;  // per launch of each chunk of back-to-back launches (an event pair around it)
  std::vector<double> isolated_s;  // host clock around launch + cudaStreamSynchronize
};

struct ChaseResult {
  double cycles_per_step = 0.0;  // clock64
  double ns_per_step = 0.0;      // %globaltimer
};

class CalibrationKernels {
 public:
  // Allocates two streaming buffers of stream_bytes each (rounded down to 64 KiB) on the current
  // device and fills them. Throws Error when they do not fit.
  explicit CalibrationKernels(std::size_t stream_bytes);
  ~CalibrationKernels();
  CalibrationKernels(const CalibrationKernels&) = delete;
  CalibrationKernels& operator=(const CalibrationKernels&) = delete;

  int sm_count() const;
  std::size_t stream_bytes() const;
  void* stream() const;  // the cudaStream_t every launch uses

  // DRAM streaming over the whole buffers: warmup untimed launches, then repetitions timed ones.
  std::vector<Sample> time_stream(Mix mix, Pattern pattern, int warmup, int repetitions);
  // cudaMemcpyAsync device-to-device between the two buffers; work = read + written bytes.
  std::vector<Sample> time_memcpy(int warmup, int repetitions);
  // Enqueues one read16 launch over the whole source buffer (untimed; for counters).
  void launch_stream_read(void* stream);
  // Enqueues one write16 launch over the whole destination buffer (untimed; for counters);
  // returns the bytes written.
  double launch_stream_write(void* stream);
  // Repeated ld.global.cg reads of a working set of ws bytes (<= stream_bytes), total bytes per launch.
  std::vector<Sample> time_l2_read(std::size_t ws, std::size_t total, int warmup, int repetitions);
  void launch_l2_read(std::size_t ws, std::size_t total, void* stream);
  // Scalar loads, in_flight (1, 2 or 4; 1 with l2_only) in flight per thread, over ws bytes, total
  // bytes per launch. l2_only: ld.global.cg. divisor > 1: 1 / divisor of the resident blocks (fewer
  // bytes in flight, DRAM less busy).
  std::vector<Sample> time_scalar_read(std::size_t ws, std::size_t total, bool l2_only, int warmup, int repetitions,
                                       int divisor = 1, int in_flight = 1);
  // One-shot scalar reads: one 4-byte load per thread over the whole source buffer, n / 256
  // blocks; Sample::threads is the resident thread count (SMs x resident blocks x 256).
  std::vector<Sample> time_scalar_read_one_shot(int warmup, int repetitions);
  // Random 4-byte loads over the whole source buffer, each in its own sector (work = loads);
  // table_bytes > 0: over the buffer's first table_bytes (rounded down to a power of two),
  // bypassing L1, so that a table the L2 holds is read from L2.
  std::vector<Sample> time_random_read(int warmup, int repetitions, std::size_t table_bytes = 0);
  // Enqueues one random-read launch (untimed; for counters), through L1, over the whole buffer
  // or its first table_bytes (rounded down to a power of two); returns its number of loads.
  double launch_random_read(void* stream, std::size_t table_bytes = 0);
  // Enqueues one launch (untimed; for counters) of four 4-byte stores per thread, each its own
  // instruction, into the thread's 16 bytes of up to 256 MiB of the destination buffer; returns
  // the sectors written.
  double launch_split_stores(void* stream);
  // Column stores into a square matrix in the destination buffer, every store a partial sector
  // that the block's other warps complete (work = stores).
  std::vector<Sample> time_column_stores(int warmup, int repetitions);
  // One resident wave of threads, each reading two 16-byte elements (one of each half of the
  // destination buffer's first bytes), every launch timed after an L2 eviction queued before it
  // (cold, as the suite's cold launches); work = bytes read.
  std::vector<Sample> time_cold_read_wave(int repetitions);
  // One-shot blocks whose threads each load one byte and store it again, `waves` times as many as
  // fit on the device at once (waves x resident bytes of each buffer); work = bytes read and
  // written; Sample::threads is the resident thread count. `resident`: the same copies from one
  // resident grid looping over them, a byte a thread a trip (the waves without their turnover).
  std::vector<Sample> time_copy_waves(int waves, int warmup, int repetitions, bool resident = false);
  // Enqueues one launch of those copies (untimed; for counters); returns the bytes written.
  double launch_copy_waves(int waves, void* stream);
  // One-shot write-only blocks (one 4-byte store per thread, into 4 MiB that stay in L2), `waves`
  // times as many as fit on the device at once; work = waves. Timed as the suite's Timer times
  // kernels (queued behind a blocking kernel), so that what a grid takes beyond its waves
  // compares with the empty kernel's launch overhead.
  std::vector<Sample> time_block_waves(int waves, int warmup, int repetitions);
  // Enqueues one empty kernel <<<1, 32>>> (untimed; for its own time on the GPU).
  void launch_empty(void* stream);
  // Enqueues one kernel <<<1, 32>>> whose threads each store one word (untimed; for what a store
  // adds to a kernel's own time on the GPU).
  void launch_store_word(void* stream);
  // Empty kernel launches.
  LaunchTimes time_empty_launches(int warmup, int back_to_back, int batch, int isolated);
  // Builds a random cyclic chain of bytes / stride slots (in its own buffer, reallocated when
  // larger than before), then chases it: l1 = ld.global.ca (L1-cached), else ld.global.cg.
  void prepare_chase(std::size_t bytes, std::size_t stride, std::uint64_t seed);
  ChaseResult chase(bool l1, int warm_steps, int steps);
  // Evicts the L2: one read16 launch over the source buffer (>= 2 x L2 expected).
  void evict_l2();
  // Every resident thread adds 1 (an unsigned or, floating, a float) to one word per_thread
  // times; work = the atomics.
  std::vector<Sample> time_one_address_atomics(bool floating, int per_thread, int warmup, int repetitions);
  // Every resident thread adds 1 per_thread times to words of a table of `words` (a power of
  // two): random (each lane a hashed word) or contiguous (a warp's lanes on one line's
  // consecutive words); work = the atomics.
  std::vector<Sample> time_spread_atomics(std::size_t words, bool contiguous, int per_thread, int warmup,
                                          int repetitions);
  // One 256-thread block per SM runs `steps` barrier-separated steps (shared store, barrier,
  // dependent shared load); work = steps.
  std::vector<Sample> time_barrier_steps(int steps, int warmup, int repetitions);
  // One-shot blocks of 256 threads, `waves` times as many as fit on the device at once (fewer
  // where the buffers hold fewer): each thread loads one float of the source buffer, runs 128
  // FMAs and stores one float into the destination; with `barrier`, its block meets at a barrier
  // between the load and the FMAs. work = the waves launched.
  std::vector<Sample> time_load_fma_store_waves(bool barrier, int waves, int warmup, int repetitions);
  // One 256-thread block per SM runs `reductions` dependent block-wide reductions (the patterns
  // suite's block_reduce); work = reductions.
  std::vector<Sample> time_block_reductions(int reductions, int warmup, int repetitions);
  // FMA peak: iterations x 128 FMA instructions per thread (mma_f16: 128 mma.sync; wgmma_f16: 16
  // wgmma a trip, on a device where warpgroup_mma_supported()).
  std::vector<Sample> time_fma(FmaType type, int iterations, int warmup, int repetitions);
  // Whether this device runs the warpgroup-MMA kernel (compute capability 9.0).
  bool warpgroup_mma_supported() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace roofline::calib

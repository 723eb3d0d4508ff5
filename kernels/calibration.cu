// Calibration micro-benchmarks: kernels and host launchers (see kernels/calibration.hpp).
#include "kernels/calibration.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "kernels/calibration_wgmma.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/detail/block_clock.cuh"
#include "kernels/detail/load_fma_store.cuh"
#include "kernels/patterns_device.cuh"
#include "kernels/queued_timing.hpp"
#include "kernels/stream_blocker.hpp"
#include "models/error.hpp"
#include "models/percentile.hpp"

namespace roofline::calib {
namespace {

using detail::BlockClock;
using detail::global_ns;
using detail::ClockRecord;

constexpr int kBlock = 256;

__device__ __forceinline__ unsigned wrap(unsigned i, unsigned n) { return i >= n ? i - n : i; }

// A plain load, or one cached in L2 only (ld.global.cg) for the L2 measurements.
template <bool kL2Only, typename T>
__device__ __forceinline__ T load(const T* p) {
  if constexpr (kL2Only)
    return __ldcg(p);
  else
    return *p;
}

__device__ __forceinline__ unsigned fold(uint4 v) { return v.x ^ v.y ^ v.z ^ v.w; }

// Thread t reads elements (t + k x threads) mod n, k < per_thread (a multiple of 4), four loads
// in flight. step = threads mod n.
template <bool kL2Only>
__global__ void __launch_bounds__(kBlock) read16_kernel(const uint4* __restrict__ src, unsigned n, unsigned per_thread,
                                                        unsigned step, unsigned sentinel, unsigned* sink,
                                                        ClockRecord* rec) {
  BlockClock clk;
  clk.start(rec);
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned i0 = tid % n;
  unsigned acc = 0;
  for (unsigned k = 0; k < per_thread; k += 4) {
    const unsigned i1 = wrap(i0 + step, n), i2 = wrap(i1 + step, n), i3 = wrap(i2 + step, n);
    const uint4 v0 = load<kL2Only>(src + i0);
    const uint4 v1 = load<kL2Only>(src + i1);
    const uint4 v2 = load<kL2Only>(src + i2);
    const uint4 v3 = load<kL2Only>(src + i3);
    acc ^= fold(v0) ^ fold(v1) ^ fold(v2) ^ fold(v3);
    i0 = wrap(i3 + step, n);
  }
  if (acc == sentinel) *sink = acc;
  clk.stop(rec);
}

// One pass: thread t writes elements t + k x threads, k < per_thread (a multiple of 4).
__global__ void __launch_bounds__(kBlock) write16_kernel(uint4* __restrict__ dst, unsigned per_thread, unsigned value,
                                                         ClockRecord* rec) {
  BlockClock clk;
  clk.start(rec);
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (unsigned k = 0; k < per_thread; k += 4) {
#pragma unroll
    for (int u = 0; u < 4; ++u) dst[i + u * threads] = make_uint4(value, k, u, value);
    i += 4 * threads;
  }
  clk.stop(rec);
}

__global__ void __launch_bounds__(kBlock) copy16_kernel(const uint4* __restrict__ src, uint4* __restrict__ dst,
                                                        unsigned per_thread, ClockRecord* rec) {
  BlockClock clk;
  clk.start(rec);
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (unsigned k = 0; k < per_thread; k += 4) {
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = src[i + u * threads];
#pragma unroll
    for (int u = 0; u < 4; ++u) dst[i + u * threads] = v[u];
    i += 4 * threads;
  }
  clk.stop(rec);
}

// One element per thread, n / 256 blocks.
__global__ void __launch_bounds__(kBlock) read16_one_shot_kernel(const uint4* __restrict__ src, unsigned sentinel,
                                                                 unsigned* sink) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned v = fold(src[i]);
  if (v == sentinel) *sink = v;
}
__global__ void __launch_bounds__(kBlock) write16_one_shot_kernel(uint4* __restrict__ dst, unsigned value) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  dst[i] = make_uint4(value, static_cast<unsigned>(i), 0u, value);
}
__global__ void __launch_bounds__(kBlock) copy16_one_shot_kernel(const uint4* __restrict__ src,
                                                                 uint4* __restrict__ dst) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  dst[i] = src[i];
}
// Two 16-byte loads per thread, one from each half of the source: the inputs of a one-shot
// add of two arrays.
__global__ void __launch_bounds__(kBlock) read32_one_shot_kernel(const uint4* __restrict__ src, std::size_t half,
                                                                 unsigned sentinel, unsigned* sink) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned v = fold(src[i]) ^ fold(src[i + half]);
  if (v == sentinel) *sink = v;
}
__global__ void __launch_bounds__(kBlock) read4_one_shot_kernel(const unsigned* __restrict__ src, unsigned sentinel,
                                                                unsigned* sink) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned v = src[i];
  if (v == sentinel) *sink = v;
}

// kInFlight 4-byte loads in flight per thread: the loads' values feed the XORs before the next
// loads (per_thread a multiple of kInFlight).
template <bool kL2Only, int kInFlight>
__global__ void __launch_bounds__(kBlock) read4_in_flight_kernel(const unsigned* __restrict__ src, unsigned n,
                                                                 unsigned per_thread, unsigned step, unsigned sentinel,
                                                                 unsigned* sink) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned i = tid % n;
  unsigned acc = 0;
#pragma unroll 1
  for (unsigned k = 0; k < per_thread; k += kInFlight) {
    unsigned v[kInFlight];
#pragma unroll
    for (int j = 0; j < kInFlight; ++j) {
      v[j] = load<kL2Only>(src + i);
      i = wrap(i + step, n);
    }
#pragma unroll
    for (int j = 0; j < kInFlight; ++j) acc ^= v[j];
  }
  if (acc == sentinel) *sink = acc;
}

// Random 4-byte loads over the whole buffer, four independent ones in flight per thread: every
// load its own sector, at addresses a multiplicative hash spreads over the buffer's n (a power of
// two) words, so almost every one misses L2. The DRAM's random-access rate and the sectors it
// fetches per miss.
// kL2: loads that bypass L1 (ld.global.cg), so that a table L1 could partly hold is read from L2.
template <bool kL2>
__global__ void __launch_bounds__(kBlock) random_read_kernel(const unsigned* __restrict__ src, unsigned mask,
                                                             unsigned per_thread, unsigned sentinel, unsigned* sink) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned acc = 0;
  for (unsigned k = 0; k < per_thread; ++k) {
    unsigned v[4];
#pragma unroll
    for (unsigned j = 0; j < 4; ++j) {
      const unsigned* at = src + (((tid * 4 + j) * 2654435761u + k * 40503u * 65536u) & mask);
      v[j] = kL2 ? __ldcg(at) : *at;
    }
#pragma unroll
    for (unsigned j = 0; j < 4; ++j) acc ^= v[j];
  }
  if (acc == sentinel) *sink = acc;
}

// Column stores, as a naive transpose writes: a block of 32 x 8 threads writes a 32-row x
// 8-column tile of a side x side matrix, lane x to its own row (its own sector), warp y the
// y-th float of each, so every store is a partial sector and the block's 8 warps complete each
// sector in L2.
__global__ void __launch_bounds__(kBlock) column_store_kernel(float* dst, unsigned side) {
  const unsigned row = blockIdx.x * 32 + threadIdx.x % 32, col = blockIdx.y * 8 + threadIdx.x / 32;
  dst[static_cast<std::size_t>(row) * side + col] = 1.0f;
}

__global__ void empty_kernel() {}

__global__ void store_word_kernel(float* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }

// Four 4-byte stores per thread, each its own instruction, into the thread's 16 bytes: each of a
// warp's four stores writes part of the same 16 sectors, as a kernel that stores a thread's
// elements one narrow piece at a time does (the PTX keeps the compiler from merging them).
__global__ void __launch_bounds__(kBlock) split_stores_kernel(unsigned* __restrict__ dst, unsigned value) {
  unsigned* p = dst + 4 * (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x);
#pragma unroll
  for (int k = 0; k < 4; ++k) asm volatile("st.global.u32 [%0], %1;" ::"l"(p + k), "r"(value + k) : "memory");
}

// One 4-byte store per thread, as the suite's one-shot write-only kernel, into a window of
// mask + 1 words that stays in L2: blocks that do almost nothing but start, store and retire.
__global__ void __launch_bounds__(kBlock) write4_one_shot_kernel(unsigned* __restrict__ dst, unsigned mask,
                                                                 unsigned value) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i & mask] = value;
}

// One byte loaded and stored again (plus one) per thread, one-shot: each block's store waits for
// its load, and the block retires after it, as a one-shot add's blocks do.
__global__ void __launch_bounds__(kBlock) copy1_one_shot_kernel(const unsigned char* __restrict__ src,
                                                                unsigned char* __restrict__ dst) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  dst[i] = static_cast<unsigned char>(src[i] + 1);
}

// The same copies from one resident grid looping over them, a byte a trip: a one-shot wave's
// work without its blocks' turnover. Not __restrict__, so that no trip's load is hoisted above
// the store before it, as in a grid-stride kernel whose output may alias its input.
__global__ void __launch_bounds__(kBlock) copy1_resident_kernel(const unsigned char* src, unsigned char* dst,
                                                                std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
#pragma unroll 1
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    dst[i] = static_cast<unsigned char>(src[i] + 1);
}

// Atomics that all meet on one word: `spread` is 0 at run time, so the compiler cannot prove
// the address uniform and aggregate them; every thread's atomics reach the L2 one by one.
template <typename T>
__global__ void __launch_bounds__(kBlock) one_address_atomics_kernel(T* counter, unsigned spread, int per_thread,
                                                                     ClockRecord* rec) {
  BlockClock clk;
  clk.start(rec);
  T* target = counter + (threadIdx.x & spread);
  for (int i = 0; i < per_thread; ++i) atomicAdd(target, T(1));
  clk.stop(rec);
}

// Atomics over a table of word_mask + 1 words. Random: each lane adds to a hashed word, so a
// warp's lanes scatter over the table as a histogram's do. Contiguous: lane l adds to word l of
// a line that moves with each step, so a warp's atomics are one request for one line.
__global__ void __launch_bounds__(kBlock) spread_atomics_kernel(unsigned* table, unsigned word_mask, bool contiguous,
                                                                int per_thread, ClockRecord* rec) {
  BlockClock clk;
  clk.start(rec);
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned h = tid * 2654435761u;
  for (int i = 0; i < per_thread; ++i) {
    h = h * 1664525u + 1013904223u;
    const unsigned word = contiguous ? (tid / 32 + 977u * static_cast<unsigned>(i)) * 32u + tid % 32 : h >> 7;
    atomicAdd(table + (word & word_mask), 1u);
  }
  clk.stop(rec);
}

// One barrier-separated step per trip: a shared store, __syncthreads(), a dependent shared load
// of another warp's word. Two buffers alternate, so no second barrier is needed before the
// next store.
__global__ void __launch_bounds__(kBlock) barrier_steps_kernel(int steps, unsigned* sink, ClockRecord* rec) {
  __shared__ unsigned buf[2][kBlock];
  BlockClock clk;
  clk.start(rec);
  unsigned v = threadIdx.x;
  for (int i = 0; i < steps; ++i) {
    buf[i & 1][threadIdx.x] = v;
    __syncthreads();
    v += buf[i & 1][(threadIdx.x + 32) % kBlock];
  }
  if (v == 0xFFFFFFFFu) *sink = v;  // keeps the chain live
  clk.stop(rec);
}

// The barrier-release step's threads: a load, enough FMAs that a wave's warps queue at their
// scheduler once their loads are back, a store.
constexpr int kReleaseFmas = 128;

// Block-wide reductions one after another: each depends on the last, so a block alone on its SM
// runs their chain (a warp's shuffle tree, two barriers, the tree over the partials, the
// broadcast) in series. The reduction is the patterns suite's own (patterns_device.cuh).
__global__ void __launch_bounds__(kBlock) block_reduce_chain_kernel(int reductions, float* sink, ClockRecord* rec) {
  BlockClock clk;
  clk.start(rec);
  float v = static_cast<float>(threadIdx.x) * 1e-3f;
  for (int r = 0; r < reductions; ++r)
    v = kernels::patterns::block_reduce(v, kernels::patterns::Sum{}, 0.0f) * 1e-3f;
  if (v == -1.0f) *sink = v;  // keeps the chain live
  clk.stop(rec);
}

__global__ void chase_init_kernel(unsigned* buf, const unsigned* order, unsigned m, unsigned stride_words) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) buf[static_cast<std::size_t>(order[i]) * stride_words] = order[i + 1 == m ? 0 : i + 1] * stride_words;
}

template <bool kL1>
__global__ void chase_kernel(const unsigned* buf, unsigned start, int warm_steps, int steps, unsigned long long* out) {
  unsigned j = start;
  for (int i = 0; i < warm_steps; ++i) j = kL1 ? __ldca(buf + j) : __ldcg(buf + j);
  const unsigned long long t0 = global_ns();
  const long long c0 = clock64();
  for (int i = 0; i < steps; ++i) j = kL1 ? __ldca(buf + j) : __ldcg(buf + j);
  // The last load's value is consumed before the clocks are read again.
  if (j == 0xffffffffu) out[3] = j;
  const long long c1 = clock64();
  const unsigned long long t1 = global_ns();
  out[0] = static_cast<unsigned long long>(c1 - c0);
  out[1] = t1 - t0;
  out[2] = j;
}

template <typename T>
struct Fma;
template <>
struct Fma<float> {
  static constexpr int kPerInst = 1;
  __device__ static float make(float x) { return x; }
  __device__ static float fma(float a, float b, float c) { return fmaf(a, b, c); }
  __device__ static float add(float a, float b) { return a + b; }
};
template <>
struct Fma<__half2> {
  static constexpr int kPerInst = 2;
  __device__ static __half2 make(float x) { return __floats2half2_rn(x, x + 0.5f); }
  __device__ static __half2 fma(__half2 a, __half2 b, __half2 c) { return __hfma2(a, b, c); }
  __device__ static __half2 add(__half2 a, __half2 b) { return __hadd2(a, b); }
};
template <>
struct Fma<__nv_bfloat162> {
  static constexpr int kPerInst = 2;
  __device__ static __nv_bfloat162 make(float x) { return __floats2bfloat162_rn(x, x + 0.5f); }
  __device__ static __nv_bfloat162 fma(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
    return __hfma2(a, b, c);
  }
  __device__ static __nv_bfloat162 add(__nv_bfloat162 a, __nv_bfloat162 b) { return __hadd2(a, b); }
};

template <>
struct Fma<double> {
  static constexpr int kPerInst = 1;
  __device__ static double make(float x) { return x; }
  __device__ static double fma(double a, double b, double c) { return ::fma(a, b, c); }
  __device__ static double add(double a, double b) { return a + b; }
};

constexpr int kFmaChains = 8, kFmaUnroll = 16;  // 128 FMA instructions per loop trip

// acc = acc * a + b on 8 independent chains (their start values differ, so they cannot be merged).
template <typename T>
__global__ void __launch_bounds__(kBlock) fma_kernel(float a, float b, int iterations, T* out, ClockRecord* rec) {
  BlockClock clk;
  clk.start(rec);
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  const T va = Fma<T>::make(a), vb = Fma<T>::make(b);
  T acc[kFmaChains];
#pragma unroll
  for (int c = 0; c < kFmaChains; ++c) acc[c] = Fma<T>::make(static_cast<float>((tid + c) & 15) * 0.0625f);
#pragma unroll 1
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int u = 0; u < kFmaUnroll; ++u) {
#pragma unroll
      for (int c = 0; c < kFmaChains; ++c) acc[c] = Fma<T>::fma(acc[c], va, vb);
    }
  }
  T s = acc[0];
#pragma unroll
  for (int c = 1; c < kFmaChains; ++c) s = Fma<T>::add(s, acc[c]);
  out[tid] = s;
  clk.stop(rec);
}

// One operation of a pipe beside the FMA pipes: rsqrt.approx.ftz is MUFU.RSQ alone (rsqrtf adds a
// guard against subnormals), on the special function unit; lop3 with the xor-of-three table is
// LOP3 alone, on the ALU.
template <FmaType Pipe>
__device__ __forceinline__ void side_pipe_op(unsigned& x, unsigned y) {
  if constexpr (Pipe == FmaType::sfu) {
    float f = __uint_as_float(x);
    asm("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(f));
    x = __float_as_uint(f);
  } else {
    asm("lop3.b32 %0, %0, %1, %0, 0x96;" : "+r"(x) : "r"(y));
  }
}

// 8 independent chains of the pipe's operation (rsqrt's converge on 1).
template <FmaType Pipe>
__global__ void __launch_bounds__(kBlock) side_pipe_kernel(int iterations, float* out, ClockRecord* rec) {
  BlockClock clk;
  clk.start(rec);
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned acc[kFmaChains];
#pragma unroll
  for (int c = 0; c < kFmaChains; ++c) acc[c] = __float_as_uint(1.0f + static_cast<float>((tid + c) & 15) * 0.0625f);
#pragma unroll 1
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int u = 0; u < kFmaUnroll; ++u) {
#pragma unroll
      for (int c = 0; c < kFmaChains; ++c) side_pipe_op<Pipe>(acc[c], tid + u);
    }
  }
  unsigned s = acc[0];
#pragma unroll
  for (int c = 1; c < kFmaChains; ++c) s ^= acc[c];
  out[tid] = __uint_as_float(s);
  clk.stop(rec);
}

// The tensor cores through warp-level MMA: mma.sync m16n8k16 (f16 sources, f32 accumulate) on
// 8 independent accumulators; the fragments are fixed small values, as only the rate matters.
constexpr int kMmaPerThread = 16 * 8 * 16 / 32;  // multiply-adds one mma.sync makes per thread

__global__ void __launch_bounds__(kBlock) mma_kernel(int iterations, float* out, ClockRecord* rec) {
  BlockClock clk;
  clk.start(rec);
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned a = 0x14001400u + (tid & 1u), b = 0x14001400u;  // half 2^-10 pairs
  float acc[kFmaChains][4];
#pragma unroll
  for (int c = 0; c < kFmaChains; ++c)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[c][j] = static_cast<float>((tid + c + j) & 15) * 0.0625f;
#pragma unroll 1
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int u = 0; u < kFmaUnroll; ++u) {
#pragma unroll
      for (int c = 0; c < kFmaChains; ++c)
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
            "{%0,%1,%2,%3};"
            : "+f"(acc[c][0]), "+f"(acc[c][1]), "+f"(acc[c][2]), "+f"(acc[c][3])
            : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
    }
  }
  float s = 0.0f;
#pragma unroll
  for (int c = 0; c < kFmaChains; ++c) s += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
  out[tid] = s;
  clk.stop(rec);
}

template <typename Kernel>
int resident_blocks(Kernel kernel, int sms) {
  int per_sm = 0;
  ROOFLINE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlock, 0));
  if (per_sm <= 0) throw Error("calibration: a micro-benchmark kernel cannot be resident on this device");
  return per_sm * sms;
}

}  // namespace

struct CalibrationKernels::Impl {
  int sms = 0;
  std::size_t bytes = 0;
  uint4* src = nullptr;
  uint4* dst = nullptr;
  unsigned* chase_buf = nullptr;
  std::size_t chase_capacity = 0;
  unsigned chase_start = 0;
  unsigned* sink = nullptr;
  unsigned long long* chase_out = nullptr;
  void* fma_out = nullptr;
  ClockRecord* records = nullptr;
  int max_blocks = 0;
  cudaStream_t stream = nullptr;
  cudaEvent_t ev0 = nullptr, ev1 = nullptr;
  std::vector<ClockRecord> host_records;

  // One resident wave of `kernel`'s blocks, at most max_blocks (the clock records' room).
  template <typename Kernel>
  int resident_wave(Kernel kernel) const {
    return std::min(resident_blocks(kernel, sms), max_blocks);
  }

  ~Impl() {
    for (void* p : {static_cast<void*>(src), static_cast<void*>(dst), static_cast<void*>(chase_buf),
                    static_cast<void*>(sink), static_cast<void*>(chase_out), fma_out, static_cast<void*>(records)})
      if (p != nullptr) (void)cudaFree(p);
    if (ev0 != nullptr) (void)cudaEventDestroy(ev0);
    if (ev1 != nullptr) (void)cudaEventDestroy(ev1);
    if (stream != nullptr) (void)cudaStreamDestroy(stream);
  }

  // Median over the blocks of a launch of cycles / ns, in Hz.
  double clock_of(int blocks) {
    host_records.resize(static_cast<std::size_t>(blocks));
    ROOFLINE_CUDA_CHECK(cudaMemcpy(host_records.data(), records, sizeof(ClockRecord) * host_records.size(),
                                   cudaMemcpyDeviceToHost));
    std::vector<double> hz;
    hz.reserve(host_records.size());
    for (const auto& r : host_records)
      if (r.t1 > r.t0 && r.c1 > r.c0)
        hz.push_back(static_cast<double>(r.c1 - r.c0) / static_cast<double>(r.t1 - r.t0) * 1e9);
    return median(hz);
  }

  // One 256-thread block per SM runs `steps` links of a dependent chain, so the launch is one
  // block's chain in series (work = steps).
  template <typename Kernel, typename Sink>
  std::vector<Sample> timed_chain(Kernel kernel, int steps, Sink* chain_sink, int warmup, int repetitions) {
    const int blocks = std::min(sms, max_blocks);
    return timed([&] { kernel<<<blocks, kBlock, 0, stream>>>(steps, chain_sink, records); }, warmup, repetitions,
                 static_cast<double>(steps), static_cast<std::int64_t>(blocks) * kBlock, blocks);
  }

  // Times `launch` (enqueues one kernel on `stream`), reading per-block clocks when blocks > 0;
  // `before`, when given, is enqueued ahead of each timed launch, outside its events.
  template <typename Launch>
  std::vector<Sample> timed(Launch&& launch, int warmup, int repetitions, double work, std::int64_t threads,
                            int clock_blocks, const std::function<void()>& before = {}) {
    warm_up(launch, warmup);
    std::vector<Sample> out;
    for (int i = 0; i < repetitions; ++i) {
      if (before) before();
      ROOFLINE_CUDA_CHECK(cudaEventRecord(ev0, stream));
      launch();
      ROOFLINE_CUDA_CHECK(cudaEventRecord(ev1, stream));
      ROOFLINE_CUDA_CHECK(cudaEventSynchronize(ev1));
      ROOFLINE_CUDA_CHECK(cudaGetLastError());
      float ms = 0.0f;
      ROOFLINE_CUDA_CHECK(cudaEventElapsedTime(&ms, ev0, ev1));
      Sample s{.seconds = static_cast<double>(ms) * 1e-3, .work = work, .threads = threads};
      if (clock_blocks > 0) s.clock_hz = clock_of(clock_blocks);
      out.push_back(s);
    }
    return out;
  }

  // timed, with the launches queued as the suite times its kernels (time_queued_launches), so that
  // what a grid takes is comparable with the launch overhead measured the same way.
  template <typename Launch>
  std::vector<Sample> queued(Launch&& launch, int warmup, int repetitions, double work, std::int64_t threads) {
    warm_up(launch, warmup);
    std::vector<Sample> out;
    for (const double seconds : time_queued_launches(stream, repetitions, launch))
      out.push_back({.seconds = seconds, .work = work, .threads = threads});
    return out;
  }

  template <typename Launch>
  void warm_up(Launch& launch, int warmup) {
    for (int i = 0; i < warmup; ++i) launch();
    ROOFLINE_CUDA_CHECK(cudaStreamSynchronize(stream));
    ROOFLINE_CUDA_CHECK(cudaGetLastError());
  }

  // The grid-stride write16 launch over the destination from element `shift`: one resident wave,
  // `per` elements a thread (a multiple of 4), `bytes` written.
  struct WriteStream {
    int blocks;
    unsigned per;
    double bytes;
  };
  WriteStream write_stream(std::size_t shift) const {
    const auto n = static_cast<unsigned>(bytes / 16 - shift);
    const int blocks = resident_wave(write16_kernel);
    const double threads = static_cast<double>(blocks) * kBlock;
    const unsigned per = static_cast<unsigned>(n / threads) / 4u * 4u;
    return {blocks, per, threads * per * 16.0};
  }

  // `waves` resident waves of one-byte copies: their blocks, the bytes of each buffer they cover,
  // and the threads resident at once.
  struct CopyWaves {
    unsigned blocks;
    std::size_t bytes;
    std::int64_t resident;
  };
  CopyWaves copy_waves(int waves) const {
    const std::int64_t resident = static_cast<std::int64_t>(resident_blocks(copy1_one_shot_kernel, sms)) * kBlock;
    const auto covered = static_cast<std::size_t>(resident) * static_cast<std::size_t>(waves);
    if (covered > bytes)
      throw Error("calibration: " + std::to_string(waves) + " waves of one-byte copies exceed the buffer");
    return {static_cast<unsigned>(covered / kBlock), covered, resident};
  }

  // Elements each thread reads of a working set of n elements for `total` elements per launch:
  // a multiple of 4 (at least 4).
  static unsigned per_thread_for(double total, double threads) {
    const auto k = static_cast<unsigned>(total / threads / 4.0) * 4u;
    return std::max(k, 4u);
  }
};

CalibrationKernels::CalibrationKernels(std::size_t stream_bytes) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  int device = 0;
  ROOFLINE_CUDA_CHECK(cudaGetDevice(&device));
  ROOFLINE_CUDA_CHECK(cudaDeviceGetAttribute(&m.sms, cudaDevAttrMultiProcessorCount, device));
  m.bytes = stream_bytes / 65536 * 65536;
  // read16 indexes 16-byte elements with 32-bit unsigned arithmetic (i + step < 2n).
  m.bytes = std::min<std::size_t>(m.bytes, std::size_t{1} << 34);
  if (m.bytes < (std::size_t{1} << 24)) throw Error("calibration: the streaming buffers need at least 16 MiB");
  std::size_t free_b = 0, total_b = 0;
  ROOFLINE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (2 * m.bytes + (std::size_t{64} << 20) > free_b)
    throw Error("calibration: two buffers of " + std::to_string(m.bytes >> 20) + " MiB do not fit the " +
                std::to_string(free_b >> 20) + " MiB free on the device");
  ROOFLINE_CUDA_CHECK(cudaStreamCreateWithFlags(&m.stream, cudaStreamNonBlocking));
  ROOFLINE_CUDA_CHECK(cudaEventCreate(&m.ev0));
  ROOFLINE_CUDA_CHECK(cudaEventCreate(&m.ev1));
  ROOFLINE_CUDA_CHECK(cudaMalloc(&m.src, m.bytes));
  ROOFLINE_CUDA_CHECK(cudaMalloc(&m.dst, m.bytes));
  ROOFLINE_CUDA_CHECK(cudaMemsetAsync(m.src, 0x5a, m.bytes, m.stream));
  ROOFLINE_CUDA_CHECK(cudaMemsetAsync(m.dst, 0, m.bytes, m.stream));
  ROOFLINE_CUDA_CHECK(cudaMalloc(&m.sink, sizeof(unsigned)));
  ROOFLINE_CUDA_CHECK(cudaMalloc(&m.chase_out, 4 * sizeof(unsigned long long)));
  int max_threads_per_sm = 0;
  ROOFLINE_CUDA_CHECK(cudaDeviceGetAttribute(&max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  m.max_blocks = m.sms * std::max(max_threads_per_sm / kBlock, 1);
  ROOFLINE_CUDA_CHECK(cudaMalloc(&m.records, sizeof(ClockRecord) * static_cast<std::size_t>(m.max_blocks)));
  ROOFLINE_CUDA_CHECK(cudaMalloc(&m.fma_out, sizeof(double) * static_cast<std::size_t>(m.max_blocks) * kBlock));
  ROOFLINE_CUDA_CHECK(cudaStreamSynchronize(m.stream));
}

CalibrationKernels::~CalibrationKernels() = default;

int CalibrationKernels::sm_count() const { return impl_->sms; }
std::size_t CalibrationKernels::stream_bytes() const { return impl_->bytes; }
void* CalibrationKernels::stream() const { return impl_->stream; }

std::vector<Sample> CalibrationKernels::time_stream(Mix mix, Pattern pattern, int warmup, int repetitions) {
  Impl& m = *impl_;
  if (pattern == Pattern::one_shot) {
    const auto n = m.bytes / 16;  // a multiple of 4096: bytes is a multiple of 64 KiB
    const auto blocks = static_cast<unsigned>(n / kBlock);
    const std::int64_t resident =
        static_cast<std::int64_t>(mix == Mix::read    ? resident_blocks(read16_one_shot_kernel, m.sms)
                                  : mix == Mix::write ? resident_blocks(write16_one_shot_kernel, m.sms)
                                                      : resident_blocks(copy16_one_shot_kernel, m.sms)) *
        kBlock;
    const double work = static_cast<double>(n) * 16.0 * (mix == Mix::copy ? 2.0 : 1.0);
    return m.timed(
        [&] {
          if (mix == Mix::read)
            read16_one_shot_kernel<<<blocks, kBlock, 0, m.stream>>>(m.src, 1u, m.sink);
          else if (mix == Mix::write)
            write16_one_shot_kernel<<<blocks, kBlock, 0, m.stream>>>(m.dst, 7u);
          else
            copy16_one_shot_kernel<<<blocks, kBlock, 0, m.stream>>>(m.src, m.dst);
        },
        warmup, repetitions, work, resident, 0);
  }
  // The shifted buffer loses its first 264 KiB (and the other one its last ones).
  const std::size_t shift = pattern == Pattern::grid_stride_offset ? 264 * 1024 / 16 : 0;
  const auto n = static_cast<unsigned>(m.bytes / 16 - shift);
  if (mix == Mix::read) {
    const int blocks = m.resident_wave(read16_kernel<false>);
    const double threads = static_cast<double>(blocks) * kBlock;
    const unsigned per = Impl::per_thread_for(n, threads);
    const unsigned step = static_cast<unsigned>(static_cast<std::uint64_t>(threads) % n);
    return m.timed(
        [&] { read16_kernel<false><<<blocks, kBlock, 0, m.stream>>>(m.src + shift, n, per, step, 1u, m.sink, m.records); },
        warmup, repetitions, threads * per * 16.0, static_cast<std::int64_t>(threads), blocks);
  }
  if (mix == Mix::write) {
    const Impl::WriteStream w = m.write_stream(shift);
    return m.timed([&] { write16_kernel<<<w.blocks, kBlock, 0, m.stream>>>(m.dst + shift, w.per, 7u, m.records); },
                   warmup, repetitions, w.bytes, static_cast<std::int64_t>(w.blocks) * kBlock, w.blocks);
  }
  const int blocks = m.resident_wave(copy16_kernel);
  const double threads = static_cast<double>(blocks) * kBlock;
  const unsigned per = static_cast<unsigned>(n / threads) / 4u * 4u;
  return m.timed([&] { copy16_kernel<<<blocks, kBlock, 0, m.stream>>>(m.src, m.dst + shift, per, m.records); },
                 warmup, repetitions, 2.0 * threads * per * 16.0, static_cast<std::int64_t>(threads), blocks);
}

std::vector<Sample> CalibrationKernels::time_memcpy(int warmup, int repetitions) {
  Impl& m = *impl_;
  return m.timed(
      [&] { ROOFLINE_CUDA_CHECK(cudaMemcpyAsync(m.dst, m.src, m.bytes, cudaMemcpyDeviceToDevice, m.stream)); },
      warmup, repetitions, 2.0 * static_cast<double>(m.bytes), 0, 0);
}

namespace {

// The random reads' grid: one resident wave, 16 loads per thread; the largest power-of-two
// count of words in the buffer's bytes, or in its first table_bytes when that is given.
struct RandomReadShape {
  int blocks = 0;
  unsigned mask = 0, per_thread = 16;
};

RandomReadShape random_read_shape(int sms, int max_blocks, std::size_t buffer_bytes, std::size_t table_bytes) {
  const std::size_t bytes = table_bytes > 0 ? std::min(table_bytes, buffer_bytes) : buffer_bytes;
  RandomReadShape s;
  s.blocks = std::min(resident_blocks(random_read_kernel<false>, sms), max_blocks);
  unsigned words = 1;
  while (static_cast<std::size_t>(words) * 2 * 4 <= bytes && words < 0x80000000u) words *= 2;
  s.mask = words - 1;
  return s;
}

}  // namespace

std::vector<Sample> CalibrationKernels::time_random_read(int warmup, int repetitions, std::size_t table_bytes) {
  Impl& m = *impl_;
  const RandomReadShape s = random_read_shape(m.sms, m.max_blocks, m.bytes, table_bytes);
  const auto kernel = table_bytes > 0 ? random_read_kernel<true> : random_read_kernel<false>;
  const double threads = static_cast<double>(s.blocks) * kBlock;
  const auto* src = reinterpret_cast<const unsigned*>(m.src);
  return m.timed([&] { kernel<<<s.blocks, kBlock, 0, m.stream>>>(src, s.mask, s.per_thread, 1u, m.sink); }, warmup,
                 repetitions, threads * s.per_thread * 4.0, static_cast<std::int64_t>(threads), 0);
}

double CalibrationKernels::launch_random_read(void* stream, std::size_t table_bytes) {
  Impl& m = *impl_;
  const RandomReadShape s = random_read_shape(m.sms, m.max_blocks, m.bytes, table_bytes);
  random_read_kernel<false><<<s.blocks, kBlock, 0, static_cast<cudaStream_t>(stream)>>>(
      reinterpret_cast<const unsigned*>(m.src), s.mask, s.per_thread, 1u, m.sink);
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
  return static_cast<double>(s.blocks) * kBlock * s.per_thread * 4.0;
}

double CalibrationKernels::launch_split_stores(void* stream) {
  Impl& m = *impl_;
  constexpr std::size_t kBlockBytes = 16 * kBlock;
  const std::size_t bytes = std::min(m.bytes, std::size_t{256} << 20) / kBlockBytes * kBlockBytes;
  split_stores_kernel<<<static_cast<unsigned>(bytes / kBlockBytes), kBlock, 0, static_cast<cudaStream_t>(stream)>>>(
      reinterpret_cast<unsigned*>(m.dst), 7u);
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
  return static_cast<double>(bytes) / 32.0;
}

std::vector<Sample> CalibrationKernels::time_column_stores(int warmup, int repetitions) {
  Impl& m = *impl_;
  unsigned side = 32;
  while (static_cast<std::size_t>(side) * 2 * side * 2 * 4 <= m.bytes && side < 16384) side *= 2;
  const dim3 grid(side / 32, side / 8);
  auto* dst = reinterpret_cast<float*>(m.dst);
  return m.timed([&] { column_store_kernel<<<grid, kBlock, 0, m.stream>>>(dst, side); }, warmup, repetitions,
                 static_cast<double>(side) * side, 0, 0);
}

std::vector<Sample> CalibrationKernels::time_cold_read_wave(int repetitions) {
  Impl& m = *impl_;
  const auto blocks = static_cast<unsigned>(resident_blocks(read32_one_shot_kernel, m.sms));
  const std::size_t half = static_cast<std::size_t>(blocks) * kBlock;  // uint4 elements per input
  if (2 * half * 16 > m.bytes) throw Error("calibration: one resident wave's reads exceed the buffer");
  // The eviction reads the source buffer; the timed kernel, queued behind it, reads the
  // destination's first bytes, which the eviction pushed out of L2.
  return m.timed([&] { read32_one_shot_kernel<<<blocks, kBlock, 0, m.stream>>>(m.dst, half, 1u, m.sink); }, 0,
                 repetitions, static_cast<double>(half) * 32.0, static_cast<std::int64_t>(half), 0,
                 [&] { launch_stream_read(m.stream); });
}

std::vector<Sample> CalibrationKernels::time_block_waves(int waves, int warmup, int repetitions) {
  Impl& m = *impl_;
  constexpr unsigned kWindowWords = 1u << 20;  // 4 MiB: the buffers are at least 16 MiB
  const auto blocks =
      static_cast<unsigned>(resident_blocks(write4_one_shot_kernel, m.sms)) * static_cast<unsigned>(waves);
  auto* dst = reinterpret_cast<unsigned*>(m.dst);
  return m.queued([&] { write4_one_shot_kernel<<<blocks, kBlock, 0, m.stream>>>(dst, kWindowWords - 1, 7u); }, warmup,
                  repetitions, waves, static_cast<std::int64_t>(blocks) * kBlock);
}

std::vector<Sample> CalibrationKernels::time_copy_waves(int waves, int warmup, int repetitions, bool resident) {
  Impl& m = *impl_;
  const Impl::CopyWaves w = m.copy_waves(waves);
  const auto* src = reinterpret_cast<const unsigned char*>(m.src);
  auto* dst = reinterpret_cast<unsigned char*>(m.dst);
  const double work = 2.0 * static_cast<double>(w.bytes);
  if (resident) {
    const auto blocks = static_cast<unsigned>(resident_blocks(copy1_resident_kernel, m.sms));
    return m.timed([&] { copy1_resident_kernel<<<blocks, kBlock, 0, m.stream>>>(src, dst, w.bytes); }, warmup,
                   repetitions, work, static_cast<std::int64_t>(blocks) * kBlock, 0);
  }
  return m.timed([&] { copy1_one_shot_kernel<<<w.blocks, kBlock, 0, m.stream>>>(src, dst); }, warmup, repetitions,
                 work, w.resident, 0);
}

double CalibrationKernels::launch_copy_waves(int waves, void* stream) {
  Impl& m = *impl_;
  const Impl::CopyWaves w = m.copy_waves(waves);
  copy1_one_shot_kernel<<<w.blocks, kBlock, 0, static_cast<cudaStream_t>(stream)>>>(
      reinterpret_cast<const unsigned char*>(m.src), reinterpret_cast<unsigned char*>(m.dst));
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
  return static_cast<double>(w.bytes);
}

std::vector<Sample> CalibrationKernels::time_scalar_read_one_shot(int warmup, int repetitions) {
  Impl& m = *impl_;
  const std::size_t n = m.bytes / 4;
  const auto blocks = static_cast<unsigned>(n / kBlock);
  const std::int64_t resident = static_cast<std::int64_t>(resident_blocks(read4_one_shot_kernel, m.sms)) * kBlock;
  const auto* src = reinterpret_cast<const unsigned*>(m.src);
  return m.timed([&] { read4_one_shot_kernel<<<blocks, kBlock, 0, m.stream>>>(src, 1u, m.sink); }, warmup, repetitions,
                 static_cast<double>(n) * 4.0, resident, 0);
}

void CalibrationKernels::launch_stream_read(void* stream) {
  Impl& m = *impl_;
  const auto n = static_cast<unsigned>(m.bytes / 16);
  const int blocks = m.resident_wave(read16_kernel<false>);
  const double threads = static_cast<double>(blocks) * kBlock;
  const unsigned per = Impl::per_thread_for(n, threads);
  const unsigned step = static_cast<unsigned>(static_cast<std::uint64_t>(threads) % n);
  read16_kernel<false><<<blocks, kBlock, 0, static_cast<cudaStream_t>(stream)>>>(m.src, n, per, step, 1u, m.sink,
                                                                                 nullptr);
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
}

double CalibrationKernels::launch_stream_write(void* stream) {
  Impl& m = *impl_;
  const Impl::WriteStream w = m.write_stream(0);
  write16_kernel<<<w.blocks, kBlock, 0, static_cast<cudaStream_t>(stream)>>>(m.dst, w.per, 7u, nullptr);
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
  return w.bytes;
}

void CalibrationKernels::evict_l2() {
  launch_stream_read(impl_->stream);
  ROOFLINE_CUDA_CHECK(cudaStreamSynchronize(impl_->stream));
}

namespace {
struct L2Plan {
  int blocks;
  unsigned n, per, step;
  double threads;
};
L2Plan l2_plan(int sms, int max_blocks, std::size_t bytes, std::size_t ws, std::size_t total) {
  if (ws < 16 || ws > bytes) throw Error("calibration: working set of " + std::to_string(ws) + " B outside the buffer");
  L2Plan p{};
  p.blocks = std::min(resident_blocks(read16_kernel<true>, sms), max_blocks);
  p.threads = static_cast<double>(p.blocks) * kBlock;
  p.n = static_cast<unsigned>(ws / 16);
  p.per = std::max(static_cast<unsigned>(static_cast<double>(total) / 16.0 / p.threads) / 4u * 4u, 4u);
  p.step = static_cast<unsigned>(static_cast<std::uint64_t>(p.threads) % p.n);
  return p;
}
}  // namespace

std::vector<Sample> CalibrationKernels::time_l2_read(std::size_t ws, std::size_t total, int warmup, int repetitions) {
  Impl& m = *impl_;
  const L2Plan p = l2_plan(m.sms, m.max_blocks, m.bytes, ws, total);
  return m.timed(
      [&] { read16_kernel<true><<<p.blocks, kBlock, 0, m.stream>>>(m.src, p.n, p.per, p.step, 1u, m.sink, m.records); },
      warmup, repetitions, p.threads * p.per * 16.0, static_cast<std::int64_t>(p.threads), p.blocks);
}

void CalibrationKernels::launch_l2_read(std::size_t ws, std::size_t total, void* stream) {
  Impl& m = *impl_;
  const L2Plan p = l2_plan(m.sms, m.max_blocks, m.bytes, ws, total);
  read16_kernel<true><<<p.blocks, kBlock, 0, static_cast<cudaStream_t>(stream)>>>(m.src, p.n, p.per, p.step, 1u,
                                                                                  m.sink, nullptr);
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
}

std::vector<Sample> CalibrationKernels::time_scalar_read(std::size_t ws, std::size_t total, bool l2_only, int warmup,
                                                         int repetitions, int divisor, int in_flight) {
  Impl& m = *impl_;
  if (ws < 4 || ws > m.bytes) throw Error("calibration: working set of " + std::to_string(ws) + " B outside the buffer");
  const auto timed = [&](auto kernel) {
    const int blocks = std::max(std::min(resident_blocks(kernel, m.sms), m.max_blocks) / std::max(divisor, 1), 1);
    const double threads = static_cast<double>(blocks) * kBlock;
    const auto n = static_cast<unsigned>(std::min<std::size_t>(ws / 4, 0x7fffffffu));
    const unsigned loads = std::max(static_cast<unsigned>(static_cast<double>(total) / 4.0 / threads), 1u);
    const unsigned per = (loads + in_flight - 1) / in_flight * in_flight;
    const unsigned step = static_cast<unsigned>(static_cast<std::uint64_t>(threads) % n);
    const auto* src = reinterpret_cast<const unsigned*>(m.src);
    return m.timed([&] { kernel<<<blocks, kBlock, 0, m.stream>>>(src, n, per, step, 1u, m.sink); }, warmup,
                   repetitions, threads * per * 4.0, static_cast<std::int64_t>(threads), 0);
  };
  if (l2_only && in_flight == 1) return timed(read4_in_flight_kernel<true, 1>);
  if (!l2_only && in_flight == 1) return timed(read4_in_flight_kernel<false, 1>);
  if (!l2_only && in_flight == 2) return timed(read4_in_flight_kernel<false, 2>);
  if (!l2_only && in_flight == 4) return timed(read4_in_flight_kernel<false, 4>);
  throw Error("calibration: scalar reads with " + std::to_string(in_flight) + " loads in flight" +
              (l2_only ? " from L2" : "") + " are not built");
}

void CalibrationKernels::launch_empty(void* stream) {
  empty_kernel<<<1, 32, 0, static_cast<cudaStream_t>(stream)>>>();
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
}

void CalibrationKernels::launch_store_word(void* stream) {
  store_word_kernel<<<1, 32, 0, static_cast<cudaStream_t>(stream)>>>(static_cast<float*>(impl_->fma_out));
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
}

LaunchTimes CalibrationKernels::time_empty_launches(int warmup, int back_to_back, int batch, int isolated) {
  LaunchTimes out;
  // The legacy default stream, as the Timer uses for suite kernels.
  cudaStream_t const s0 = nullptr;
  for (int i = 0; i < warmup; ++i) empty_kernel<<<1, 32, 0, s0>>>();
  ROOFLINE_CUDA_CHECK(cudaStreamSynchronize(s0));
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
  out.event_s = time_queued_launches(s0, back_to_back, [] { empty_kernel<<<1, 32, 0, nullptr>>>(); });
  // Throughput: chunks of launches with no events between them, queued the same way.
  if (batch > 0) {
    const int chunk = StreamBlocker::kMaxQueuedLaunches;
    out.back_to_back_s =
        time_back_to_back(s0, (batch + chunk - 1) / chunk, chunk, [] { empty_kernel<<<1, 32, 0, nullptr>>>(); });
  }
  // Isolated: the host waits for each launch.
  using Clock = std::chrono::steady_clock;
  for (int i = 0; i < isolated; ++i) {
    const auto t0 = Clock::now();
    empty_kernel<<<1, 32, 0, s0>>>();
    ROOFLINE_CUDA_CHECK(cudaStreamSynchronize(s0));
    out.isolated_s.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
  return out;
}

void CalibrationKernels::prepare_chase(std::size_t bytes, std::size_t stride, std::uint64_t seed) {
  Impl& m = *impl_;
  if (stride < 4 || stride % 4 != 0) throw Error("calibration: the chase stride must be a multiple of 4 bytes");
  const std::size_t slots = bytes / stride;
  if (slots < 2 || slots > 0xffffffffu / (stride / 4))
    throw Error("calibration: a chase over " + std::to_string(bytes) + " B with stride " + std::to_string(stride) +
                " B is out of range");
  if (bytes > m.chase_capacity) {
    if (m.chase_buf != nullptr) ROOFLINE_CUDA_CHECK(cudaFree(m.chase_buf));
    m.chase_buf = nullptr;
    ROOFLINE_CUDA_CHECK(cudaMalloc(&m.chase_buf, bytes));
    m.chase_capacity = bytes;
  }
  // A random cyclic order of the slots: slot order[i] points to slot order[i + 1].
  std::vector<unsigned> order(slots);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937_64 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  unsigned* d_order = nullptr;
  ROOFLINE_CUDA_CHECK(cudaMalloc(&d_order, slots * sizeof(unsigned)));
  struct Free {
    unsigned* p;
    ~Free() { (void)cudaFree(p); }
  } free_order{d_order};
  ROOFLINE_CUDA_CHECK(cudaMemcpy(d_order, order.data(), slots * sizeof(unsigned), cudaMemcpyHostToDevice));
  const auto stride_words = static_cast<unsigned>(stride / 4);
  const auto m_slots = static_cast<unsigned>(slots);
  chase_init_kernel<<<(m_slots + kBlock - 1) / kBlock, kBlock, 0, m.stream>>>(m.chase_buf, d_order, m_slots,
                                                                               stride_words);
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
  ROOFLINE_CUDA_CHECK(cudaStreamSynchronize(m.stream));
  m.chase_start = order[0] * stride_words;
}

ChaseResult CalibrationKernels::chase(bool l1, int warm_steps, int steps) {
  Impl& m = *impl_;
  if (m.chase_buf == nullptr) throw Error("calibration: chase before prepare_chase");
  if (l1)
    chase_kernel<true><<<1, 1, 0, m.stream>>>(m.chase_buf, m.chase_start, warm_steps, steps, m.chase_out);
  else
    chase_kernel<false><<<1, 1, 0, m.stream>>>(m.chase_buf, m.chase_start, warm_steps, steps, m.chase_out);
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
  unsigned long long out[4] = {};
  ROOFLINE_CUDA_CHECK(cudaMemcpyAsync(out, m.chase_out, 3 * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                      m.stream));
  ROOFLINE_CUDA_CHECK(cudaStreamSynchronize(m.stream));
  ChaseResult r;
  r.cycles_per_step = static_cast<double>(out[0]) / steps;
  r.ns_per_step = static_cast<double>(out[1]) / steps;
  return r;
}

std::vector<Sample> CalibrationKernels::time_one_address_atomics(bool floating, int per_thread, int warmup,
                                                                 int repetitions) {
  Impl& m = *impl_;
  auto run = [&](auto kernel, auto* counter) {
    const int blocks = m.resident_wave(kernel);
    const double threads = static_cast<double>(blocks) * kBlock;
    return m.timed([&] { kernel<<<blocks, kBlock, 0, m.stream>>>(counter, 0u, per_thread, m.records); }, warmup,
                   repetitions, threads * per_thread, static_cast<std::int64_t>(threads), blocks);
  };
  // The float counter reuses the sink's word: only the atomics' rate matters, not the sum.
  return floating ? run(one_address_atomics_kernel<float>, reinterpret_cast<float*>(m.sink))
                  : run(one_address_atomics_kernel<unsigned>, m.sink);
}

std::vector<Sample> CalibrationKernels::time_spread_atomics(std::size_t words, bool contiguous, int per_thread,
                                                            int warmup, int repetitions) {
  Impl& m = *impl_;
  if (words == 0 || (words & (words - 1)) != 0 || words * 4 > m.bytes)
    throw Error("calibration: an atomics table of " + std::to_string(words) + " words: a power of two within the buffer");
  const int blocks = m.resident_wave(spread_atomics_kernel);
  const double threads = static_cast<double>(blocks) * kBlock;
  auto* table = reinterpret_cast<unsigned*>(m.dst);
  const auto mask = static_cast<unsigned>(words - 1);
  return m.timed(
      [&] { spread_atomics_kernel<<<blocks, kBlock, 0, m.stream>>>(table, mask, contiguous, per_thread, m.records); },
      warmup, repetitions, threads * per_thread, static_cast<std::int64_t>(threads), blocks);
}

std::vector<Sample> CalibrationKernels::time_barrier_steps(int steps, int warmup, int repetitions) {
  return impl_->timed_chain(barrier_steps_kernel, steps, impl_->sink, warmup, repetitions);
}

std::vector<Sample> CalibrationKernels::time_load_fma_store_waves(bool barrier, int waves, int warmup,
                                                                  int repetitions) {
  Impl& m = *impl_;
  const auto kernel = barrier ? detail::load_fma_store_kernel<kReleaseFmas, true>
                              : detail::load_fma_store_kernel<kReleaseFmas, false>;
  const auto resident = static_cast<std::size_t>(resident_blocks(kernel, m.sms));
  // As many of the waves asked for as the buffers hold (smaller --stream-bytes), at least 16.
  waves = static_cast<int>(std::min<std::size_t>(waves, m.bytes / (resident * kBlock * sizeof(float))));
  if (waves < 16) throw Error("calibration: the streaming buffers hold fewer than 16 waves of one float per thread");
  const auto blocks = static_cast<unsigned>(resident) * static_cast<unsigned>(waves);
  const auto* x = reinterpret_cast<const float*>(m.src);
  auto* y = reinterpret_cast<float*>(m.dst);
  const auto n = static_cast<int>(blocks * kBlock);
  return m.timed([&] { kernel<<<blocks, kBlock, 0, m.stream>>>(x, y, n); }, warmup, repetitions, waves,
                 static_cast<std::int64_t>(blocks) * kBlock, 0);
}

std::vector<Sample> CalibrationKernels::time_block_reductions(int reductions, int warmup, int repetitions) {
  return impl_->timed_chain(block_reduce_chain_kernel, reductions, reinterpret_cast<float*>(impl_->sink), warmup,
                            repetitions);
}

bool CalibrationKernels::warpgroup_mma_supported() const {
  int device = 0;
  ROOFLINE_CUDA_CHECK(cudaGetDevice(&device));
  return wgmma::supported(device);
}

std::vector<Sample> CalibrationKernels::time_fma(FmaType type, int iterations, int warmup, int repetitions) {
  Impl& m = *impl_;
  const double per_thread = static_cast<double>(iterations) * kFmaChains * kFmaUnroll;
  // One wave of `blocks` blocks of `block` threads, each thread making work_per_thread of the rate's unit.
  auto wave = [&](int blocks, int block, double work_per_thread, auto&& launch) {
    const double threads = static_cast<double>(blocks) * block;
    return m.timed(launch, warmup, repetitions, threads * work_per_thread, static_cast<std::int64_t>(threads), blocks);
  };
  auto fma = [&](auto kernel, auto* out, int per_inst) {
    const int blocks = m.resident_wave(kernel);
    return wave(blocks, kBlock, per_thread * per_inst,
                [&] { kernel<<<blocks, kBlock, 0, m.stream>>>(0.999f, 0.001f, iterations, out, m.records); });
  };
  float* const out = static_cast<float*>(m.fma_out);
  switch (type) {
    case FmaType::fp32:
      return fma(fma_kernel<float>, out, Fma<float>::kPerInst);
    case FmaType::fp16x2:
      return fma(fma_kernel<__half2>, static_cast<__half2*>(m.fma_out), Fma<__half2>::kPerInst);
    case FmaType::bf16x2:
      return fma(fma_kernel<__nv_bfloat162>, static_cast<__nv_bfloat162*>(m.fma_out), Fma<__nv_bfloat162>::kPerInst);
    case FmaType::fp64:
      return fma(fma_kernel<double>, static_cast<double*>(m.fma_out), Fma<double>::kPerInst);
    case FmaType::sfu:
    case FmaType::alu: {
      const auto kernel = type == FmaType::sfu ? side_pipe_kernel<FmaType::sfu> : side_pipe_kernel<FmaType::alu>;
      const int blocks = m.resident_wave(kernel);
      return wave(blocks, kBlock, per_thread,
                  [&] { kernel<<<blocks, kBlock, 0, m.stream>>>(iterations, out, m.records); });
    }
    case FmaType::mma_f16: {
      const int blocks = m.resident_wave(mma_kernel);
      return wave(blocks, kBlock, per_thread * kMmaPerThread,
                  [&] { mma_kernel<<<blocks, kBlock, 0, m.stream>>>(iterations, out, m.records); });
    }
    case FmaType::wgmma_f16: {
      const int blocks = std::min(wgmma::blocks_per_sm() * m.sms, m.max_blocks);
      return wave(blocks, wgmma::kThreadsPerBlock, iterations * wgmma::kMultiplyAddsPerThreadPerTrip,
                  [&] { wgmma::launch(blocks, iterations, out, m.records, m.stream); });
    }
  }
  return {};
}

}  // namespace roofline::calib

// GPU input generation and verification (see device_values.hpp). The generator is the host
// generator of host_values.cpp, word for word: splitmix64 of (stream base + element index),
// mapped onto the same exact grids, so a CPU check of the same seed sees the same inputs.
#include "kernels/device_values.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "kernels/cuda_check.hpp"

namespace roofline::kernels {
namespace {

constexpr int kRecords = 256;

__host__ __device__ __forceinline__ std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t stream_base(std::uint64_t seed, std::uint64_t stream) { return splitmix64(seed ^ splitmix64(stream + 1)); }

// Element values: host_values.cpp's random_value(), constant divisors so no 64-bit division
// routine runs.
__device__ __forceinline__ float random_value(DType t, std::uint64_t r) {
  switch (t) {
    case DType::f16: return static_cast<float>(static_cast<int>(r % 1025u) - 512) / 64.0f;
    case DType::bf16: return static_cast<float>(static_cast<int>(r % 129u) - 64) / 16.0f;
    case DType::fp8_e4m3: return static_cast<float>(static_cast<int>(r % 17u) - 8) / 2.0f;
    default: return static_cast<float>(static_cast<long long>(r >> 40) - (1LL << 23)) * 0x1p-23f;
  }
}

__device__ __forceinline__ std::uint32_t encode_bits(DType t, float v) {
  switch (t) {
    case DType::f16: return __half_as_ushort(__float2half_rn(v));
    case DType::bf16: return __bfloat16_as_ushort(__float2bfloat16_rn(v));
    case DType::fp8_e4m3: return static_cast<std::uint32_t>(__nv_fp8_e4m3(v).__x);
    default: return __float_as_uint(v);
  }
}

__device__ __forceinline__ float decode_bits(DType t, std::uint32_t b) {
  switch (t) {
    case DType::f16: return __half2float(__ushort_as_half(static_cast<unsigned short>(b)));
    case DType::bf16: return __bfloat162float(__ushort_as_bfloat16(static_cast<unsigned short>(b)));
    case DType::fp8_e4m3: {
      __nv_fp8_e4m3 h;
      h.__x = static_cast<__nv_fp8_storage_t>(b);
      return static_cast<float>(h);
    }
    default: return __uint_as_float(b);
  }
}

__device__ __forceinline__ std::uint32_t load_bits(const void* p, DType t, std::int64_t i) {
  switch (t) {
    case DType::f16:
    case DType::bf16: return static_cast<const unsigned short*>(p)[i];
    case DType::fp8_e4m3: return static_cast<const unsigned char*>(p)[i];
    default: return static_cast<const std::uint32_t*>(p)[i];
  }
}

__device__ __forceinline__ void store_bits(void* p, DType t, std::int64_t i, std::uint32_t b) {
  switch (t) {
    case DType::f16:
    case DType::bf16: static_cast<unsigned short*>(p)[i] = static_cast<unsigned short>(b); break;
    case DType::fp8_e4m3: static_cast<unsigned char*>(p)[i] = static_cast<unsigned char>(b); break;
    default: static_cast<std::uint32_t*>(p)[i] = b;
  }
}

__device__ __forceinline__ bool poison_bits(DType t, std::uint32_t b) {
  switch (t) {
    case DType::f16:
    case DType::bf16: return b == 0xFFFFu;
    case DType::fp8_e4m3: return b == 0xFFu;
    default: return b == 0xFFFFFFFFu;
  }
}

// kernel_runner.cpp's relative_tolerance().
__device__ __forceinline__ double relative_tolerance(DType t) {
  switch (t) {
    case DType::f16: return 1e-3;
    case DType::bf16: return 8e-3;
    case DType::fp8_e4m3: return 0.07;
    default: return 1e-6;
  }
}

__global__ void fill_kernel(DType t, std::uint64_t base, void* out, std::int64_t count) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    store_bits(out, t, i, encode_bits(t, random_value(t, splitmix64(base + static_cast<std::uint64_t>(i)))));
}

struct Scratch {
  unsigned long long problems;
  unsigned int recorded;
  DeviceProblem records[kRecords];
};

struct KernelArgs {
  DeviceVerifyArgs a;
  std::uint64_t base[kMaxVerifyInputs];
};

__device__ void record(Scratch* s, unsigned long long& local, int kind, int layout, std::int64_t index, float got,
                       float expected) {
  ++local;
  if (*static_cast<volatile unsigned int*>(&s->recorded) >= kRecords) return;
  const unsigned int slot = atomicAdd(&s->recorded, 1u);
  if (slot >= kRecords) return;
  DeviceProblem& p = s->records[slot];
  p.kind = kind;
  p.layout_index = layout;
  p.index = index;
  p.got = got;
  p.expected = expected;
}

__global__ void verify_kernel(const __grid_constant__ KernelArgs k, Scratch* s) {
  const DeviceVerifyArgs& a = k.a;
  unsigned long long local = 0;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < a.n; i += stride) {
    float in[kMaxVerifyInputs] = {};
    for (int j = 0; j < a.inputs; ++j) {
      const DeviceCheckBuffer& b = a.in[j];
      const std::int64_t at = i * b.spread;
      const float v = random_value(b.type, splitmix64(k.base[j] + static_cast<std::uint64_t>(at)));
      const std::uint32_t bits = load_bits(b.ptr, b.type, at);
      if (bits != encode_bits(b.type, v)) record(s, local, DeviceProblem::input_changed, b.layout_index, at,
                                                 decode_bits(b.type, bits), v);
      in[j] = v;
    }
    float out[kMaxVerifyOutputs] = {};
    switch (a.op) {
      case ReferenceOp::copy: out[0] = in[0]; break;
      case ReferenceOp::add: out[0] = __fadd_rn(in[0], in[1]); break;
      case ReferenceOp::write_value: out[0] = kWriteValue; break;
      case ReferenceOp::mul_then_mul:
        out[0] = __fmul_rn(in[0], in[1]);
        out[1] = __fmul_rn(out[0], in[2]);
        break;
      case ReferenceOp::mul3: out[0] = __fmul_rn(__fmul_rn(in[0], in[1]), in[2]); break;
      default: break;
    }
    for (int j = 0; j < a.outputs; ++j) {
      const DeviceCheckBuffer& b = a.out[j];
      const std::int64_t at = i * b.spread;
      const float expected = decode_bits(b.type, encode_bits(b.type, out[j]));
      const std::uint32_t bits = load_bits(b.ptr, b.type, at);
      if (poison_bits(b.type, bits)) {
        record(s, local, DeviceProblem::never_written, b.layout_index, at, 0.0f, expected);
      } else {
        const float value = decode_bits(b.type, bits);
        const double tol = relative_tolerance(b.type) * fmax(1e-3, fabs(static_cast<double>(expected)));
        if (!(fabs(static_cast<double>(value) - expected) <= tol))
          record(s, local, DeviceProblem::wrong_value, b.layout_index, at, value, expected);
      }
      for (std::int64_t g = 1; g < b.spread; ++g)
        if (!poison_bits(b.type, load_bits(b.ptr, b.type, at + g)))
          record(s, local, DeviceProblem::gap_written, b.layout_index, at + g, 0.0f, 0.0f);
    }
  }
  if (local > 0) atomicAdd(&s->problems, local);
}

int grid_for(std::int64_t count) {
  static int cap = [] {
    int device = 0, sms = 0;
    ROOFLINE_CUDA_CHECK(cudaGetDevice(&device));
    ROOFLINE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return std::max(sms, 1) * 16;
  }();
  return static_cast<int>(std::clamp<std::int64_t>((count + 255) / 256, 1, cap));
}

}  // namespace

void fill_random_device(DType t, std::uint64_t seed, std::uint64_t stream, void* out, std::int64_t count,
                        cudaStream_t s) {
  if (count <= 0) return;
  fill_kernel<<<grid_for(count), 256, 0, s>>>(t, stream_base(seed, stream), out, count);
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
}

DeviceVerifyResult verify_on_device(const DeviceVerifyArgs& args) {
  // A few KB per check, allocated and freed each time: nothing outlives the call (a kept
  // block showed up in compute-sanitizer's leak check).
  Scratch* scratch = nullptr;
  ROOFLINE_CUDA_CHECK(cudaMalloc(&scratch, sizeof(Scratch)));
  const std::unique_ptr<Scratch, void (*)(Scratch*)> owner(scratch, [](Scratch* p) { (void)cudaFree(p); });

  KernelArgs k{};
  k.a = args;
  for (int j = 0; j < args.inputs; ++j) k.base[j] = stream_base(args.seed, args.in[j].stream);
  ROOFLINE_CUDA_CHECK(cudaMemsetAsync(scratch, 0, offsetof(Scratch, records)));
  verify_kernel<<<grid_for(args.n), 256>>>(k, scratch);
  ROOFLINE_CUDA_CHECK(cudaGetLastError());

  Scratch head{};
  ROOFLINE_CUDA_CHECK(cudaMemcpy(&head, scratch, offsetof(Scratch, records), cudaMemcpyDeviceToHost));
  DeviceVerifyResult r;
  r.problems = static_cast<std::int64_t>(head.problems);
  const unsigned int recorded = std::min<unsigned int>(head.recorded, kRecords);
  if (recorded > 0) {
    r.first.resize(recorded);
    ROOFLINE_CUDA_CHECK(cudaMemcpy(r.first.data(), reinterpret_cast<const char*>(scratch) + offsetof(Scratch, records), recorded * sizeof(DeviceProblem),
                                   cudaMemcpyDeviceToHost));
    std::sort(r.first.begin(), r.first.end(), [](const DeviceProblem& x, const DeviceProblem& y) {
      if (x.index != y.index) return x.index < y.index;
      return x.layout_index < y.layout_index;
    });
  }
  return r;
}

}  // namespace roofline::kernels

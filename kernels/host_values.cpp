#include "kernels/host_values.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>
#include <cstring>

#include "models/error.hpp"

namespace roofline::kernels {
namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// An integer in [-half_range, half_range].
float symmetric_int(std::uint64_t r, int half_range) {
  return static_cast<float>(static_cast<int>(r % static_cast<std::uint64_t>(2 * half_range + 1)) - half_range);
}

float random_value(DType t, std::uint64_t r) {
  switch (t) {
    case DType::f16: return symmetric_int(r, 512) / 64.0f;
    case DType::bf16: return symmetric_int(r, 64) / 16.0f;
    case DType::fp8_e4m3: return symmetric_int(r, 8) / 2.0f;
    default: return static_cast<float>(static_cast<std::int64_t>(r >> 40) - (std::int64_t{1} << 23)) * 0x1p-23f;
  }
}

// fill_values()' non-random kinds, one value from element i's random bits.
std::byte bin_index(InputValues v, std::uint64_t r) {
  // Skewed: the high bits pick the hot bin 0 for 9 elements in 10, the low byte the rest.
  if (v == InputValues::bins_skewed && (r >> 32) % 10 < 9) return std::byte{0};
  return static_cast<std::byte>(r & 0xFF);
}

}  // namespace

float decode_value(DType t, const std::byte* p) {
  switch (t) {
    case DType::f16: {
      __half h;
      std::memcpy(&h, p, sizeof h);
      return __half2float(h);
    }
    case DType::bf16: {
      __nv_bfloat16 h;
      std::memcpy(&h, p, sizeof h);
      return __bfloat162float(h);
    }
    case DType::fp8_e4m3: {
      __nv_fp8_e4m3 h;
      std::memcpy(&h, p, sizeof h);
      return static_cast<float>(h);
    }
    default: {
      float f;
      std::memcpy(&f, p, sizeof f);
      return f;
    }
  }
}

void encode_value(DType t, float v, std::byte* p) {
  switch (t) {
    case DType::f16: {
      const __half h = __float2half_rn(v);
      std::memcpy(p, &h, sizeof h);
      break;
    }
    case DType::bf16: {
      const __nv_bfloat16 h = __float2bfloat16_rn(v);
      std::memcpy(p, &h, sizeof h);
      break;
    }
    case DType::fp8_e4m3: {
      const __nv_fp8_e4m3 h(v);
      std::memcpy(p, &h, sizeof h);
      break;
    }
    default: std::memcpy(p, &v, sizeof v);
  }
}

float round_to(DType t, float v) {
  std::byte b[4];
  encode_value(t, v, b);
  return decode_value(t, b);
}

bool is_poison(const std::byte* p, int size) {
  for (int i = 0; i < size; ++i)
    if (p[i] != kPoisonByte) return false;
  return true;
}

void fill_random(DType t, std::uint64_t seed, std::uint64_t stream, std::span<std::byte> out) {
  fill_values(InputValues::random, t, seed, stream, out);
}

void fill_values(InputValues v, DType t, std::uint64_t seed, std::uint64_t stream, std::span<std::byte> out) {
  const bool indices = v == InputValues::indices || v == InputValues::csr_columns ||
                       v == InputValues::csr_row_offsets || v == InputValues::bin_keys ||
                       v == InputValues::scatter_indices || v == InputValues::csr_warp_columns ||
                       v == InputValues::csr_warp_row_offsets;
  if (((v == InputValues::sixteenths || v == InputValues::unit_interval) && t != DType::f32) ||
      ((v == InputValues::bins_uniform || v == InputValues::bins_skewed) && t != DType::u8) ||
      (indices && t != DType::i32))
    throw Error("fill_values: sixteenths and unit-interval values need an f32 buffer, bin indices a u8 buffer and "
                "gather, CSR, scatter indices or histogram keys an i32 buffer (the kernel's BufferLayout)");
  const int size = size_bytes(t);
  const auto n = static_cast<std::int64_t>(out.size()) / size;
  // The range the indices point into: the buffer's own elements (a gather over n), the rows
  // of a CSR matrix whose column indices this buffer holds (one per nonzero), the targets of a
  // scatter (a quarter of its elements), or a histogram's bins.
  std::int64_t range = n;
  if (v == InputValues::csr_columns) range = n / kCsrRowNonzeros;
  if (v == InputValues::csr_warp_columns) range = n / kCsrWarpRowNonzeros;
  if (v == InputValues::scatter_indices) range = n / kScatterFanIn;
  if (v == InputValues::bin_keys) range = kWeightedBins;
  range = std::max<std::int64_t>(range, 1);
  // Row offsets: element r is r x the nonzeros per row.
  std::int64_t offset_step = 1;
  if (v == InputValues::csr_row_offsets) offset_step = kCsrRowNonzeros;
  if (v == InputValues::csr_warp_row_offsets) offset_step = kCsrWarpRowNonzeros;
  if (indices && (n - 1) * offset_step > INT32_MAX)
    throw Error("fill_values: indices beyond the range of an i32 buffer");
  const std::uint64_t base = splitmix64(seed ^ splitmix64(stream + 1));
  parallel_chunks(n, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      const std::uint64_t r = splitmix64(base + static_cast<std::uint64_t>(i));
      std::byte* at = out.data() + i * size;
      std::int32_t index = 0;
      switch (v) {
        case InputValues::random: encode_value(t, random_value(t, r), at); break;
        case InputValues::sixteenths: encode_value(t, symmetric_int(r, 16) / 16.0f, at); break;
        case InputValues::unit_interval: encode_value(t, static_cast<float>(r >> 41) * 0x1p-23f, at); break;
        case InputValues::indices:
        case InputValues::csr_columns:
        case InputValues::csr_warp_columns:
        case InputValues::scatter_indices:
        case InputValues::bin_keys:
          index = static_cast<std::int32_t>(r % static_cast<std::uint64_t>(range));
          std::memcpy(at, &index, sizeof index);
          break;
        case InputValues::csr_row_offsets:
        case InputValues::csr_warp_row_offsets:
          index = static_cast<std::int32_t>(i * offset_step);
          std::memcpy(at, &index, sizeof index);
          break;
        default: *at = bin_index(v, r);
      }
    }
    return 0;
  });
}

}  // namespace roofline::kernels

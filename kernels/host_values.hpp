#pragma once
// Host-side element values: encoding floats into each suite dtype's bytes and back, the
// seeded random inputs, the poison pattern, and a small parallel loop for large buffers.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <thread>
#include <vector>

#include "kernels/kernel_impl.hpp"
#include "models/dtype.hpp"

namespace roofline::kernels {

// 0xFF in every byte is a NaN in f32, f16, bf16 and fp8_e4m3: an output element still
// holding it was never written.
inline constexpr std::byte kPoisonByte{0xFF};

float decode_value(DType t, const std::byte* p);
void encode_value(DType t, float v, std::byte* p);
// v rounded to t (round to nearest even, saturating for fp8) and back to float.
float round_to(DType t, float v);
bool is_poison(const std::byte* p, int size);

// Input values exactly representable in t whose pairwise sums are exact in t too:
// f32 uniform in [-1, 1) on a 2^-23 grid; f16 k/64, |k| <= 512; bf16 k/16, |k| <= 64;
// fp8_e4m3 k/2, |k| <= 8. `stream` separates the buffers of one kernel.
void fill_random(DType t, std::uint64_t seed, std::uint64_t stream, std::span<std::byte> out);
// An input buffer's values as `v` makes them (InputValues); `random` is fill_random().
void fill_values(InputValues v, DType t, std::uint64_t seed, std::uint64_t stream, std::span<std::byte> out);

// Runs f(begin, end) over [0, n) in contiguous chunks on the machine's cores, in order of
// chunk index; returns one result per chunk. A chunk holds at least 2^20 elements' work, where
// each item of [0, n) stands for item_elements elements (a row's columns): a check over the
// rows of a large matrix spreads over the cores as one over its elements does.
template <typename F>
auto parallel_chunks(std::int64_t n, F f, std::int64_t item_elements = 1) {
  using R = decltype(f(std::int64_t{}, std::int64_t{}));
  const std::int64_t min_chunk =
      std::max<std::int64_t>((std::int64_t{1} << 20) / std::max<std::int64_t>(item_elements, 1), 1);
  const std::int64_t workers = std::clamp<std::int64_t>(
      std::min<std::int64_t>(std::thread::hardware_concurrency(), (n + min_chunk - 1) / min_chunk), 1, 64);
  const std::int64_t chunk = (n + workers - 1) / workers;
  std::vector<R> results(static_cast<std::size_t>(workers));
  std::vector<std::thread> threads;
  for (std::int64_t w = 1; w < workers; ++w)
    threads.emplace_back([&, w] { results[static_cast<std::size_t>(w)] = f(w * chunk, std::min(n, (w + 1) * chunk)); });
  results[0] = f(0, std::min(n, chunk));
  for (auto& t : threads) t.join();
  return results;
}

}  // namespace roofline::kernels

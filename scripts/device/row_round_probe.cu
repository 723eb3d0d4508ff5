// Exploratory: how long a DRAM round of a column-walking kernel takes against the rows' stride
// and the number of blocks. Each thread sums one column of a matrix whose rows lie `stride`
// bytes apart, four rows per round (four loads in flight, as roofline's column_sum_f32 does),
// over 256 MiB, the L2 evicted by a 1 GiB read sweep before each launch. With few blocks the
// DRAM is nearly idle and a round is one loaded latency; the column sum's rows are 16 KiB apart
// and it runs 16 blocks.
#include "probe_timing.cuh"

__global__ void column_rounds(const float* __restrict__ a, size_t stride_floats, int rounds, float* out) {
  const size_t col = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
#pragma unroll 1  // one round of four loads at a time, as the column sum's SASS does
  for (int r = 0; r < rounds; ++r) {
    const float* row = a + static_cast<size_t>(4 * r) * stride_floats + col;
    s0 += row[0];
    s1 += row[stride_floats];
    s2 += row[2 * stride_floats];
    s3 += row[3 * stride_floats];
  }
  out[col] = (s0 + s1) + (s2 + s3);
}

__global__ void sweep_read(const uint4* __restrict__ p, size_t n, unsigned* sink) {
  unsigned acc = 0;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    acc ^= p[i].x;
  if (acc == 0x12345678u) *sink = acc;
}

int main() {
  constexpr size_t kFootprint = size_t{256} << 20, kSweep = size_t{1} << 30;
  float *a = nullptr, *out = nullptr;
  uint4* evict = nullptr;
  unsigned* sink = nullptr;
  probe::check(cudaMalloc(&a, kFootprint + (size_t{16} << 20)), "malloc");
  probe::check(cudaMalloc(&out, size_t{8} << 20), "malloc");
  probe::check(cudaMalloc(&evict, kSweep), "malloc");
  probe::check(cudaMalloc(&sink, sizeof(unsigned)), "malloc");
  probe::check(cudaMemset(a, 0, kFootprint + (size_t{16} << 20)), "memset");
  probe::check(cudaMemset(evict, 0, kSweep), "memset");
  std::printf("%7s %12s %7s %12s %13s %10s\n", "blocks", "stride_B", "rounds", "time_us", "ns_per_round", "GB/s");
  for (int blocks : {16, 66, 132, 528, 1056}) {
    const size_t row_bytes = static_cast<size_t>(blocks) * 256 * sizeof(float);
    for (size_t stride : {row_bytes, size_t{16} << 10, size_t{64} << 10, size_t{256} << 10, size_t{1} << 20}) {
      if (stride < row_bytes) continue;
      const int rounds = static_cast<int>(kFootprint / (4 * stride));
      const double ms = probe::median_ms([&] {
        sweep_read<<<1056, 256>>>(evict, kSweep / sizeof(uint4), sink);
        column_rounds<<<blocks, 256>>>(a, stride / sizeof(float), rounds, out);
      });
      // The sweep alone, to take out of the pair's time.
      const double sweep_ms = probe::median_ms([&] { sweep_read<<<1056, 256>>>(evict, kSweep / sizeof(uint4), sink); });
      const double us = (ms - sweep_ms) * 1e3;
      std::printf("%7d %12zu %7d %12.2f %13.1f %10.1f\n", blocks, stride, rounds, us, us * 1e3 / rounds,
                  4.0 * rounds * row_bytes / (us * 1e3));
    }
  }
  return 0;
}

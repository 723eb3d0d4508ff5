// Exploratory: does the rate of random atomics over a small table depend on where the table
// lies in memory? The weighted histogram (random float atomicAdd over 1024 bins, 4 KiB) ran
// 1.75 ms or 1.44 ms at 2^24 depending on which buffers `roofline measure` gave it. Here the
// same kernel runs with its bins at a series of offsets inside one allocation, back to back:
// 256 bytes apart within a 4 KiB page, then 4 KiB and 4 MiB apart.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "probe_timing.cuh"

__global__ void histogram(const int* __restrict__ keys, const float* __restrict__ w, float* __restrict__ bins,
                          int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[keys[i]], w[i]);
}

int main() {
  int sms = 0;
  probe::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attr");
  const int n = 1 << 24;
  const std::size_t region = std::size_t{64} << 20;
  char* base;
  int* d_keys;
  float* d_w;
  probe::check(cudaMalloc(&base, region), "malloc");
  probe::check(cudaMalloc(&d_keys, std::size_t{n} * 4), "malloc");
  probe::check(cudaMalloc(&d_w, std::size_t{n} * 4), "malloc");
  std::vector<float> w(n);
  for (int i = 0; i < n; ++i) w[i] = static_cast<float>(i % 16) / 16.0f;
  probe::check(cudaMemcpy(d_w, w.data(), std::size_t{n} * 4, cudaMemcpyHostToDevice), "copy");
  const int grid = sms * 8;
  std::printf("n %d, grid %d x 256, random keys over the table; median of 5 after a warm-up\n", n, grid);
  std::printf("%10s %12s %12s %12s\n", "offset", "1 KiB ms", "4 KiB ms", "16 KiB ms");
  const int tables[3] = {256, 1024, 4096};
  std::vector<std::vector<int>> keys(3, std::vector<int>(n));
  std::uint64_t x = 88172645463325252ull;
  for (int i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    for (int t = 0; t < 3; ++t) keys[t][i] = static_cast<int>(x % tables[t]);
  }
  std::vector<std::size_t> offsets;
  for (std::size_t o = 0; o < 4096; o += 256) offsets.push_back(o);                  // within a 4 KiB page
  for (std::size_t o = 4096; o < 64 * 1024; o += 4096) offsets.push_back(o);         // 15 more pages of 4 KiB
  for (std::size_t o = 1 << 20; o < region; o += std::size_t{4} << 20) offsets.push_back(o);  // 4 MiB apart
  std::vector<std::vector<double>> ms(offsets.size(), std::vector<double>(3));
  for (int t = 0; t < 3; ++t) {
    probe::check(cudaMemcpy(d_keys, keys[t].data(), std::size_t{n} * 4, cudaMemcpyHostToDevice), "copy");
    for (std::size_t k = 0; k < offsets.size(); ++k) {
      float* bins = reinterpret_cast<float*>(base + offsets[k]);
      ms[k][t] = probe::median_ms([&] { histogram<<<grid, 256>>>(d_keys, d_w, bins, n); });
    }
  }
  for (std::size_t k = 0; k < offsets.size(); ++k)
    std::printf("%10zu %12.3f %12.3f %12.3f\n", offsets[k], ms[k][0], ms[k][1], ms[k][2]);
  probe::check(cudaGetLastError(), "launch");
  return 0;
}

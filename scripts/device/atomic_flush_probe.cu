// Exploratory: why the weighted histogram (random float atomics over 4 KiB of bins) ran about
// 20 % slower after roofline's L2 flush than back to back, while ncu measured it alike under
// --cache-control all and none (not the flush, it turned out, but where its bins lay:
// docs/results/h100/atomic-flush/). The same kernel is timed after each of several things done
// to the L2 before every launch; the events bracket the kernel alone. Each is timed twice: with
// the host waiting for every launch, and with all launches enqueued first on a stream of their
// own, as roofline's timer enqueues a batch behind a held stream.
#include <cstdint>
#include <cstdio>
#include <functional>
#include <vector>

#include "probe_timing.cuh"

__global__ void histogram(const int* __restrict__ keys, const float* __restrict__ w, float* __restrict__ bins,
                          int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[keys[i]], w[i]);
}

__global__ void histogram_int(const int* __restrict__ keys, unsigned* __restrict__ bins, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&bins[keys[i]], 1u);
}

__global__ void read_all(const uint4* __restrict__ data, std::size_t words, unsigned* sink) {
  unsigned acc = 0;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < words; i += std::size_t{gridDim.x} * blockDim.x) {
    const uint4 v = data[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9e3779b9u) *sink = acc;
}

__global__ void write_all(uint4* data, std::size_t words, unsigned v) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < words; i += std::size_t{gridDim.x} * blockDim.x)
    data[i] = make_uint4(v, v, v, v);
}

int main() {
  int sms = 0, l2 = 0;
  probe::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attr");
  probe::check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0), "attr");
  const int n = 1 << 24, bins_n = 1024;
  std::vector<int> keys(n);
  std::vector<float> w(n);
  std::uint64_t x = 88172645463325252ull;
  for (int i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    keys[i] = static_cast<int>(x % bins_n);
    w[i] = static_cast<float>(x >> 60) / 16.0f;
  }
  int* d_keys;
  float *d_w, *d_bins;
  unsigned *d_ubins, *sink;
  probe::check(cudaMalloc(&d_keys, n * 4), "malloc");
  probe::check(cudaMalloc(&d_w, n * 4), "malloc");
  probe::check(cudaMalloc(&d_bins, bins_n * 4), "malloc");
  probe::check(cudaMalloc(&d_ubins, bins_n * 4), "malloc");
  probe::check(cudaMalloc(&sink, 4), "malloc");
  probe::check(cudaMemcpy(d_keys, keys.data(), n * 4, cudaMemcpyHostToDevice), "copy");
  probe::check(cudaMemcpy(d_w, w.data(), n * 4, cudaMemcpyHostToDevice), "copy");
  probe::check(cudaMemset(d_bins, 0, bins_n * 4), "memset");
  const std::size_t flush_bytes = std::size_t{4} * l2;  // roofline's L2Flush: 4 x L2
  void* buf;
  probe::check(cudaMalloc(&buf, flush_bytes), "malloc");
  const std::size_t words = flush_bytes / 16;
  unsigned v = 0;
  const int grid = sms * 8;  // one wave of 256-thread blocks, as the suite's grid-stride launch

  cudaStream_t s = nullptr;  // the stream every call below goes to: the default one, then a created one
  auto hist = [&] { histogram<<<grid, 256, 0, s>>>(d_keys, d_w, d_bins, n); };
  auto hist_int = [&] { histogram_int<<<grid, 256, 0, s>>>(d_keys, d_ubins, n); };
  auto memset_all = [&] { probe::check(cudaMemsetAsync(buf, ++v, flush_bytes, s), "memset"); };
  auto read = [&] { read_all<<<sms * 4, 512, 0, s>>>(static_cast<const uint4*>(buf), words, sink); };
  auto kernel_write = [&] { write_all<<<sms * 4, 512, 0, s>>>(static_cast<uint4*>(buf), words, ++v); };
  auto residue = [&] { probe::check(cudaMemsetAsync(buf, ++v, 2 << 20, s), "memset"); };
  auto bins_memset = [&] { probe::check(cudaMemsetAsync(d_bins, 0, bins_n * 4, s), "memset"); };
  // roofline measure times a device-to-device copy of the same size (its "% of copy") before the kernel.
  void *copy_src, *copy_dst;
  probe::check(cudaMalloc(&copy_src, std::size_t{n} * 4), "malloc");
  probe::check(cudaMalloc(&copy_dst, std::size_t{n} * 4), "malloc");
  auto copy = [&] {
    probe::check(cudaMemcpyAsync(copy_dst, copy_src, std::size_t{n} * 4, cudaMemcpyDeviceToDevice, s), "copy");
  };

  struct Case {
    const char* name;
    std::function<void()> before;
  };
  const std::vector<Case> cases = {
      {"nothing (back to back)", [] {}},
      {"memset 4xL2 (copy engine writes)", memset_all},
      {"kernel writes 4xL2", kernel_write},
      {"kernel reads 4xL2", read},
      {"memset 4xL2, read 4xL2", [&] { memset_all(), read(); }},
      {"memset, read, 2 MiB memset (roofline)", [&] { memset_all(), read(), residue(); }},
      {"kernel write, read", [&] { kernel_write(), read(); }},
      {"bins memset to 0 only", bins_memset},
      {"read 4xL2, bins memset", [&] { read(), bins_memset(); }},
      {"device-to-device copy of 64 MiB", copy},
      {"memset, read, 2 MiB memset, copy", [&] { memset_all(), read(), residue(), copy(); }},
      {"copy, memset, read, 2 MiB memset", [&] { copy(), memset_all(), read(), residue(); }},
  };
  std::printf("L2 %d B, flush buffer %zu B, n %d, bins %d, grid %d x 256\n", l2, flush_bytes, n, bins_n, grid);
  std::printf("%-42s %12s %12s %14s %14s\n", "before each launch", "f32 ms", "u32 ms", "f32 batch ms",
              "u32 batch ms");
  cudaStream_t created = nullptr;
  probe::check(cudaStreamCreateWithFlags(&created, cudaStreamNonBlocking), "stream");
  constexpr int kReps = 8;
  std::vector<cudaEvent_t> ev(2 * kReps);
  for (auto& e : ev) probe::check(cudaEventCreate(&e), "event");
  const auto run_cases = [&] {
    for (const Case& c : cases) {
      // Events bracket the kernel alone: the preparation is enqueued before the start event. The
      // first launch is a warm-up; the median of the others is printed.
      auto timed = [&](const std::function<void()>& k, bool batch) {
        s = batch ? created : nullptr;
        for (int r = 0; r < kReps; ++r) {
          c.before();
          probe::check(cudaEventRecord(ev[2 * r], s), "record");
          k();
          probe::check(cudaEventRecord(ev[2 * r + 1], s), "record");
          if (!batch) probe::check(cudaEventSynchronize(ev[2 * r + 1]), "sync");
        }
        probe::check(cudaStreamSynchronize(s), "sync");
        std::vector<float> ms;
        for (int r = 1; r < kReps; ++r) {
          float t = 0;
          probe::check(cudaEventElapsedTime(&t, ev[2 * r], ev[2 * r + 1]), "elapsed");
          ms.push_back(t);
        }
        std::sort(ms.begin(), ms.end());
        return ms[ms.size() / 2];
      };
      const double f = timed(hist, false), u = timed(hist_int, false);
      const double fb = timed(hist, true), ub = timed(hist_int, true);
      std::printf("%-42s %12.3f %12.3f %14.3f %14.3f\n", c.name, f, u, fb, ub);
    }
  };
  run_cases();
  // What roofline measure does before timing the kernel cold: the copy timed cold, up to 2000 times.
  s = created;
  for (int r = 0; r < 2000; ++r) memset_all(), read(), residue(), copy();
  probe::check(cudaStreamSynchronize(s), "sync");
  std::printf("after 2000 x (flush, copy) on the created stream:\n");
  run_cases();
  probe::check(cudaGetLastError(), "launch");
  return 0;
}

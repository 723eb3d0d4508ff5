// Exploratory: does a DRAM round take longer when a thread's loads in flight come from several
// streams (arrays, or rows of one array far apart) than when the same bytes in flight come from
// one? roofline calibrate measures the round with one scalar load in flight per thread over one
// buffer (dram_stream_latency_ns + dram_queue_latency_ns x u / (1 - u)); kernels keep several
// loads of different arrays or rows in flight per thread (an add's two inputs, a stencil's rows,
// an optimiser's four arrays). Each thread of a resident grid (1/8 to all of 8 blocks of 256 per
// SM) loops over trips; a trip loads one float from each of K streams at the thread's coalesced
// index and adds them (the K loads in flight together, one round per trip). 512 MiB are read per
// launch, split over the K streams: K arrays 1 GiB apart ("arrays"), 1 GiB + 2 MiB + 29,312 B apart
// ("offset"), K rows 64 KiB apart in one array ("rows"), or one array whose K loads of a trip lie
// one grid's width apart ("near": a thread's ILP over one stream) or on K adjacent lines of its
// warp ("lines": the round's bytes one contiguous span).
// Prints the time per trip (the round), the bandwidth, and the bytes in flight.
#include "probe_timing.cuh"

enum class Layout { arrays, rows, near, lines };

template <int K, Layout kLayout>
__global__ void stream_rounds(const float* __restrict__ a, size_t stream_floats, int trips, float* out) {
  const size_t threads = static_cast<size_t>(gridDim.x) * blockDim.x;
  const size_t t = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  float s = 0;
#pragma unroll 1  // one round of K loads per trip
  for (int r = 0; r < trips; ++r) {
    float v[K];
    if (kLayout == Layout::rows) {  // K rows 64 KiB apart, each walked by a block's threads in turn
      const size_t i = static_cast<size_t>(r) * threads + t;
      const size_t row = i / 16384, col = i % 16384;
#pragma unroll
      for (int k = 0; k < K; ++k) v[k] = a[(row * K + k) * 16384 + col];
    } else if (kLayout == Layout::lines) {  // one array, a warp's K loads of a trip on K adjacent lines
      const size_t warp = (static_cast<size_t>(r) * threads + t) / 32;
#pragma unroll
      for (int k = 0; k < K; ++k) v[k] = a[(warp * K + k) * 32 + t % 32];
    } else if (kLayout == Layout::near) {  // one array, the K loads of a trip side by side
#pragma unroll
      for (int k = 0; k < K; ++k) v[k] = a[(static_cast<size_t>(r) * K + k) * threads + t];
    } else {
#pragma unroll
      for (int k = 0; k < K; ++k) v[k] = a[k * stream_floats + static_cast<size_t>(r) * threads + t];
    }
#pragma unroll
    for (int k = 0; k < K; ++k) s += v[k];
  }
  if (s == -1.0f) out[t] = s;
}

int main() {
  int sms = 0;
  probe::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attribute");
  constexpr size_t kRead = size_t{512} << 20, kArray = size_t{1} << 30;
  float *a = nullptr, *out = nullptr;
  constexpr size_t kOffset = kArray + (size_t{2} << 20) + 29312;
  probe::check(cudaMalloc(&a, 4 * kOffset), "malloc");
  probe::check(cudaMalloc(&out, size_t{8} << 20), "malloc");
  probe::check(cudaMemset(a, 0, 4 * kOffset), "memset");
  std::printf("%8s %2s %9s %8s %11s %13s %10s %14s\n", "layout", "K", "fraction", "trips", "time_us", "ns_per_round",
              "GB/s", "inflight_KiB");
  auto run = [&](auto kernel, const char* layout, int k, int divisor, size_t apart = size_t{1} << 30) {
    const int blocks = 8 * sms / divisor;
    const size_t threads = static_cast<size_t>(blocks) * 256;
    const int trips = static_cast<int>(kRead / (4 * threads * k));
    const double ms = probe::median_ms([&] { kernel<<<blocks, 256>>>(a, apart / 4, trips, out); });
    const double bytes = 4.0 * threads * k * trips;
    std::printf("%8s %2d %9s %8d %11.1f %13.1f %10.1f %14.0f\n", layout, k, divisor == 1 ? "1" :
                (divisor == 2 ? "1/2" : (divisor == 4 ? "1/4" : "1/8")), trips, ms * 1e3, ms * 1e6 / trips,
                bytes / (ms * 1e6), 4.0 * threads * k / 1024);
  };
  for (int d : {8, 4, 2, 1}) {
    run(stream_rounds<1, Layout::arrays>, "arrays", 1, d);
    run(stream_rounds<2, Layout::arrays>, "arrays", 2, d);
    run(stream_rounds<4, Layout::arrays>, "arrays", 4, d);
    run(stream_rounds<2, Layout::arrays>, "offset", 2, d, kOffset);
    run(stream_rounds<4, Layout::arrays>, "offset", 4, d, kOffset);
    run(stream_rounds<2, Layout::rows>, "rows", 2, d);
    run(stream_rounds<4, Layout::rows>, "rows", 4, d);
    run(stream_rounds<2, Layout::near>, "near", 2, d);
    run(stream_rounds<4, Layout::near>, "near", 4, d);
    run(stream_rounds<2, Layout::lines>, "lines", 2, d);
    run(stream_rounds<4, Layout::lines>, "lines", 4, d);
    run(stream_rounds<8, Layout::lines>, "lines", 8, d);
    run(stream_rounds<8, Layout::near>, "near", 8, d);
  }
  return 0;
}

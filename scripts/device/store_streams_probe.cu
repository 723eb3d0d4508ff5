// Exploratory: the DRAM bandwidth of stores spread over K planes at once, as im2col writes its
// nine taps (out[k][i] for k < K, planes P floats apart), against the same bytes written as one
// stream. One-shot grids of blocks of 256, one element per thread: thread i loads in[i] (or
// nothing) and stores it to each of the K planes. 1 GiB is written per launch whatever K is (P =
// 2^28 / K floats per plane), so the bytes and the DRAM's work are the same; only how many places
// a warp's stores go to at once changes. "copy" reads in[i] first (one stream), "fill" stores a
// constant. Prints the time and the DRAM bandwidth (bytes moved / time).
#include "probe_timing.cuh"

template <bool kRead>
__global__ void planes(const float* __restrict__ in, float* __restrict__ out, size_t plane, int k_planes) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const float v = kRead ? in[i] : 1.0f;
  for (int k = 0; k < k_planes; ++k) out[k * plane + i] = v;
}

int main() {
  constexpr size_t kWrite = size_t{1} << 30;  // bytes written per launch
  float *in = nullptr, *out = nullptr;
  probe::check(cudaMalloc(&in, kWrite), "malloc");
  probe::check(cudaMalloc(&out, kWrite), "malloc");
  probe::check(cudaMemset(in, 0, kWrite), "memset");
  probe::check(cudaMemset(out, 0, kWrite), "memset");
  std::printf("%5s %3s %12s %10s %10s\n", "mode", "K", "threads", "time_us", "GB/s");
  for (bool read : {false, true})
    for (int k : {1, 2, 3, 4, 6, 9}) {
      const size_t plane = kWrite / 4 / k, threads = plane;
      const unsigned blocks = static_cast<unsigned>(threads / 256);
      const double ms = probe::median_ms([&] {
        if (read)
          planes<true><<<blocks, 256>>>(in, out, plane, k);
        else
          planes<false><<<blocks, 256>>>(in, out, plane, k);
      });
      const double bytes = static_cast<double>(kWrite) + (read ? 4.0 * threads : 0.0);
      std::printf("%5s %3d %12zu %10.1f %10.1f\n", read ? "copy" : "fill", k, threads, ms * 1e3, bytes / (ms * 1e6));
    }
  return 0;
}

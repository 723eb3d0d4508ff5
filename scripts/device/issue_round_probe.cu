// Exploratory: how a one-shot wave's issue adds to its round of loads. Each thread loads one
// float, runs K FMAs in four independent chains and stores one float (blocks of 256, 8 per SM,
// n = 2^26 and 2^22). Prints the time per wave of blocks against K: with K small the wave takes
// its load and store rounds; with K large, its warps' instructions one after another at their
// scheduler (16 warps x the instructions per thread / the SM clock). With barrier = 1 the block
// meets at a barrier between its loads and its FMAs (as a shared-memory tile does): no warp
// starts its FMAs before every load of its block is back.
#include "probe_timing.cuh"

template <int K, bool Barrier>
__global__ void issue_kernel(const float* __restrict__ x, float* __restrict__ y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if constexpr (Barrier) {
    if (i < n) v = x[i];
    __syncthreads();
    if (i >= n) return;
  } else {
    if (i >= n) return;
    v = x[i];
  }
  float a0 = v, a1 = v + 1.0f, a2 = v + 2.0f, a3 = v + 3.0f;
#pragma unroll
  for (int k = 0; k < K / 4; ++k) {
    a0 = fmaf(a0, 1.0001f, 0.5f);
    a1 = fmaf(a1, 1.0001f, 0.5f);
    a2 = fmaf(a2, 1.0001f, 0.5f);
    a3 = fmaf(a3, 1.0001f, 0.5f);
  }
  y[i] = (a0 + a1) + (a2 + a3);
}

template <int K, bool Barrier>
void run(const float* x, float* y, int n, double waves) {
  const int blocks = n / 256;
  const double ms = probe::median_ms([&] { issue_kernel<K, Barrier><<<blocks, 256>>>(x, y, n); });
  std::printf("%10d %5d %8d %12.4f %14.4f\n", n, K, Barrier ? 1 : 0, ms * 1e3, ms * 1e6 / waves);
}

template <bool Barrier, int... Ks>
void sweep(const float* x, float* y, int n, double waves) {
  (run<Ks, Barrier>(x, y, n, waves), ...);
}

int main() {
  int sms = 0;
  probe::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attribute");
  const int big = 1 << 26;
  float *x = nullptr, *y = nullptr;
  probe::check(cudaMalloc(&x, big * sizeof(float)), "malloc");
  probe::check(cudaMalloc(&y, big * sizeof(float)), "malloc");
  probe::check(cudaMemset(x, 0, big * sizeof(float)), "memset");
  std::printf("%10s %5s %8s %12s %14s\n", "n", "K", "barrier", "time_us", "ns_per_wave");
  for (int n : {1 << 26, 1 << 22}) {
    const double waves = n / 256.0 / (sms * 8.0);
    sweep<false, 0, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256>(x, y, n, waves);
    sweep<true, 0, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256>(x, y, n, waves);
  }
  return 0;
}

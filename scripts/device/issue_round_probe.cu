// Exploratory: how a one-shot wave's issue adds to its round of loads. Each thread loads one
// float, runs K FMAs in four independent chains and stores one float (blocks of 256, 8 per SM,
// n = 2^26 and 2^22). Prints the time per wave of blocks against K: with K small the wave takes
// its load and store rounds; with K large, its warps' instructions one after another at their
// scheduler (16 warps x the instructions per thread / the SM clock). With barrier = 1 the block
// meets at a barrier between its loads and its FMAs (as a shared-memory tile does): no warp
// starts its FMAs before every load of its block is back.
#include "kernels/detail/load_fma_store.cuh"
#include "probe_timing.cuh"

template <int K, bool Barrier>
void run(const float* x, float* y, int n, double waves) {
  const int blocks = n / 256;
  const auto kernel = roofline::calib::detail::load_fma_store_kernel<K, Barrier>;
  const double ms = probe::median_ms([&] { kernel<<<blocks, 256>>>(x, y, n); });
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

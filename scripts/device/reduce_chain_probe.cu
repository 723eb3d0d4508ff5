// Exploratory: what a block reduction (kernels/patterns_device.cuh's block_reduce: a warp's
// shuffle tree, two barriers, every warp's tree over the partials, a broadcast) takes when the
// block does nothing else, one after another R times. Blocks of 256, 1 and 8 per SM (one wave):
// the time per reduction is its dependent chain when 1 block per SM runs, and what 8 blocks
// sharing the SM's schedulers take. Prints ns and SM cycles per reduction.
#include "kernels/patterns_device.cuh"
#include "probe_timing.cuh"

namespace patterns = roofline::kernels::patterns;

__global__ void reduce_chain_kernel(float* out, int reductions) {
  float v = static_cast<float>(threadIdx.x) * 1e-3f;
  for (int r = 0; r < reductions; ++r) v = patterns::block_reduce(v, patterns::Sum{}, 0.0f) * 1e-3f;
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

int main() {
  int sms = 0, clock_khz = 0;
  probe::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attribute");
  probe::check(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0), "attribute");
  float* out = nullptr;
  probe::check(cudaMalloc(&out, 8 * sms * sizeof(float)), "malloc");
  constexpr int kReductions = 4096;
  std::printf("%14s %12s %16s %18s\n", "blocks_per_sm", "time_us", "ns_per_reduction", "cycles_per_reduction");
  for (int per_sm : {1, 2, 4, 8}) {
    const double ms = probe::median_ms([&] { reduce_chain_kernel<<<per_sm * sms, 256>>>(out, kReductions); });
    const double ns = ms * 1e6 / kReductions;
    std::printf("%14d %12.2f %16.1f %18.0f\n", per_sm, ms * 1e3, ns, ns * clock_khz * 1e-6);
  }
  return 0;
}

// Exploratory: where the time of a kernel staged through shared memory goes (the user's program
// tests/profile/staged_kernels.cu, predicted 14-19 % fast). One-shot blocks of 256, 8 per SM, over
// n = 2^22 (in L2, timed back to back) and 2^24 floats; prints the time per wave of blocks for:
//   conv_full       the program's 17-tap convolution: a load, a shared store, warp 0's lanes 0-7
//                   loading the halo after it (a second round), a barrier, 17 shared loads + FFMA
//   conv_nohalo     the same without the halo (one round of loads)
//   conv_nobarrier  no halo and no barrier: 17 shared loads of the thread's own word + FFMA
//   conv_registers  no halo, the barrier, then 17 FFMA on registers (no shared loads)
//   tile_two_trips  the program's 5-point stencil: a 10 x 34 tile loaded in one or two trips
//   tile_one_trip   the same with the tile's 256 own words alone (one trip), the same arithmetic
#include "probe_timing.cuh"

constexpr int kB = 256, kR = 8;

__global__ void conv_full(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float t[kB + 2 * kR];
  const int i = blockIdx.x * kB + threadIdx.x;
  t[threadIdx.x + kR] = in[i];
  if (threadIdx.x < kR) {
    const int l = i - kR, r = i + kB;
    t[threadIdx.x] = l >= 0 ? in[l] : 0.0f;
    t[threadIdx.x + kB + kR] = r < n ? in[r] : 0.0f;
  }
  __syncthreads();
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k <= 2 * kR; ++k) acc = fmaf(0.1f * (k + 1), t[threadIdx.x + k], acc);
  out[i] = acc;
}

__global__ void conv_nohalo(const float* __restrict__ in, float* __restrict__ out, int) {
  __shared__ float t[kB];
  const int i = blockIdx.x * kB + threadIdx.x;
  t[threadIdx.x] = in[i];
  __syncthreads();
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k <= 2 * kR; ++k) acc = fmaf(0.1f * (k + 1), t[(threadIdx.x + k) & (kB - 1)], acc);
  out[i] = acc;
}

__global__ void conv_nobarrier(const float* __restrict__ in, float* __restrict__ out, int) {
  __shared__ float t[kB];
  volatile float* own = t;
  const int i = blockIdx.x * kB + threadIdx.x;
  own[threadIdx.x] = in[i];
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k <= 2 * kR; ++k) acc = fmaf(0.1f * (k + 1), own[threadIdx.x], acc);
  out[i] = acc;
}

__global__ void conv_registers(const float* __restrict__ in, float* __restrict__ out, int) {
  __shared__ float t[kB];
  const int i = blockIdx.x * kB + threadIdx.x;
  t[threadIdx.x] = in[i];
  __syncthreads();
  float v = t[threadIdx.x ^ 1], acc = 0.0f;
#pragma unroll
  for (int k = 0; k <= 2 * kR; ++k) acc = fmaf(0.1f * (k + 1), v + k, acc);
  out[i] = acc;
}

template <bool kHalo>
__global__ void tile_kernel(const float* __restrict__ in, float* __restrict__ out, int side) {
  __shared__ float tile[10][34];
  const int x0 = blockIdx.x * 32 - 1, y0 = blockIdx.y * 8 - 1;
  if constexpr (kHalo) {
    for (int j = threadIdx.y * 32 + threadIdx.x; j < 340; j += 256) {
      const int ly = j / 34, lx = j % 34;
      tile[ly][lx] = in[min(max(y0 + ly, 0), side - 1) * side + min(max(x0 + lx, 0), side - 1)];
    }
  } else {
    tile[threadIdx.y + 1][threadIdx.x + 1] = in[(y0 + 1 + threadIdx.y) * side + x0 + 1 + threadIdx.x];
  }
  __syncthreads();
  const int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  out[(blockIdx.y * 8 + threadIdx.y) * side + blockIdx.x * 32 + threadIdx.x] =
      0.5f * tile[ty][tx] + 0.125f * (tile[ty - 1][tx] + tile[ty + 1][tx] + tile[ty][tx - 1] + tile[ty][tx + 1]);
}

int main() {
  int sms = 0;
  probe::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attribute");
  const int big = 1 << 24;
  float *x = nullptr, *y = nullptr;
  probe::check(cudaMalloc(&x, big * sizeof(float)), "malloc");
  probe::check(cudaMalloc(&y, big * sizeof(float)), "malloc");
  probe::check(cudaMemset(x, 0, big * sizeof(float)), "memset");
  std::printf("%-16s %10s %12s %14s\n", "kernel", "n", "time_us", "ns_per_wave");
  for (int n : {1 << 22, 1 << 24}) {
    const int blocks = n / kB, side = n == (1 << 22) ? 2048 : 4096;
    const double waves = blocks / (sms * 8.0);
    auto show = [&](const char* name, double ms) {
      std::printf("%-16s %10d %12.3f %14.1f\n", name, n, ms * 1e3, ms * 1e6 / waves);
    };
    show("conv_full", probe::median_ms([&] { conv_full<<<blocks, kB>>>(x, y, n); }));
    show("conv_nohalo", probe::median_ms([&] { conv_nohalo<<<blocks, kB>>>(x, y, n); }));
    show("conv_nobarrier", probe::median_ms([&] { conv_nobarrier<<<blocks, kB>>>(x, y, n); }));
    show("conv_registers", probe::median_ms([&] { conv_registers<<<blocks, kB>>>(x, y, n); }));
    const dim3 tiles(side / 32, side / 8), block(32, 8);
    show("tile_two_trips", probe::median_ms([&] { tile_kernel<true><<<tiles, block>>>(x, y, side); }));
    show("tile_one_trip", probe::median_ms([&] { tile_kernel<false><<<tiles, block>>>(x, y, side); }));
  }
  return 0;
}

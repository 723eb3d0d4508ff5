// A user's sixth program, written on 2026-11-28 to judge the drafts and the model on patterns
// neither was developed on, and taken through the user's loop on an H200 first:
// - particles_aos_step: an explicit Euler step over an array of 28-byte particle structures
//   (position, velocity, mass), in place: each thread loads six floats of its particle 28 bytes
//   from its neighbour's and stores three.
// - kmeans_assign_k16: the k-means assignment step: each point (a float4) takes the label of the
//   nearest of 16 centroids held in constant memory (16 squared distances, a running minimum).
// - hist_warp_agg: a histogram of bytes into 256 global bins with warp-aggregated atomics: the
//   lanes holding the same byte find each other (__match_any_sync) and their leader adds their
//   count; the bytes are the sum of two uniform values 0-15 (31 bins used, the middle ones most).
// Over 2^20, 2^22 and 2^24 particles, points and bytes; each runs five launches back to back (the
// histogram's bins cleared before each) and a sample of the outputs is checked against the CPU.
// Build (as a user would): nvcc -O3 -arch=sm_90 -o science_kernels tests/profile/science_kernels.cu
// Run: science_kernels
#include <cuda_runtime.h>

#include <cfloat>
#include <vector>

#include "staged_check.cuh"

constexpr int kBlock = 256, kCentroids = 16, kBins = 256;
constexpr float kDt = 0.01f;

struct Particle {
  float x, y, z, vx, vy, vz, mass;
};

__constant__ float4 centroids[kCentroids];

__global__ void __launch_bounds__(kBlock) particles_aos_step(Particle* __restrict__ p, int n, float dt) {
  const int i = blockIdx.x * kBlock + threadIdx.x;
  if (i >= n) return;
  Particle& q = p[i];
  q.x += q.vx * dt;
  q.y += q.vy * dt;
  q.z += q.vz * dt;
}

__global__ void __launch_bounds__(kBlock) kmeans_assign_k16(const float4* __restrict__ points, int* __restrict__ label,
                                                            int n) {
  const int i = blockIdx.x * kBlock + threadIdx.x;
  if (i >= n) return;
  const float4 p = points[i];
  float best = FLT_MAX;
  int arg = 0;
#pragma unroll
  for (int k = 0; k < kCentroids; ++k) {
    const float4 c = centroids[k];
    const float dx = p.x - c.x, dy = p.y - c.y, dz = p.z - c.z, dw = p.w - c.w;
    const float d = dx * dx + dy * dy + dz * dz + dw * dw;
    if (d < best) {
      best = d;
      arg = k;
    }
  }
  label[i] = arg;
}

// n is a multiple of the block: every lane of every warp takes part in the match.
__global__ void __launch_bounds__(kBlock) hist_warp_agg(const unsigned char* __restrict__ data,
                                                        unsigned* __restrict__ bins) {
  const int i = blockIdx.x * kBlock + threadIdx.x;
  const unsigned v = data[i];
  const unsigned peers = __match_any_sync(0xffffffffu, v);
  if ((threadIdx.x & 31) == __ffs(peers) - 1) atomicAdd(&bins[v], __popc(peers));
}

namespace {

using staged::run;

unsigned next(unsigned& state) { return state = state * 1664525u + 1013904223u; }

}  // namespace

int main() {
  // Centroids far apart, each point near one of them: the nearest is never in doubt.
  std::vector<float4> c(kCentroids);
  for (int k = 0; k < kCentroids; ++k)
    c[k] = make_float4(static_cast<float>(k % 4) * 4.0f, static_cast<float>(k / 4) * 4.0f,
                       static_cast<float>(k % 3) * 4.0f, static_cast<float>(k % 5));
  CHECK(cudaMemcpyToSymbol(centroids, c.data(), kCentroids * sizeof(float4)));
  unsigned* d_bins = nullptr;
  CHECK(cudaMalloc(&d_bins, kBins * sizeof(unsigned)));
  bool ok = true;
  for (int n : {1 << 20, 1 << 22, 1 << 24}) {
    unsigned state = 12345u;
    auto unit = [&] { return static_cast<float>(next(state) >> 8) / 16777216.0f; };  // [0, 1)
    std::vector<Particle> particles(n);
    for (auto& q : particles) q = {unit(), unit(), unit(), unit() - 0.5f, unit() - 0.5f, unit() - 0.5f, 1.0f + unit()};
    std::vector<float4> points(n);
    std::vector<int> nearest(n);
    for (int i = 0; i < n; ++i) {
      nearest[i] = static_cast<int>(next(state) >> 16) % kCentroids;
      const float4 m = c[nearest[i]];
      points[i] = make_float4(m.x + unit() - 0.5f, m.y + unit() - 0.5f, m.z + unit() - 0.5f, m.w + unit() - 0.5f);
    }
    std::vector<unsigned char> bytes(n);
    std::vector<unsigned> counts(kBins, 0);
    for (auto& b : bytes) {
      b = static_cast<unsigned char>((next(state) >> 20) % 16 + (next(state) >> 20) % 16);
      ++counts[b];
    }

    Particle* d_p = nullptr;
    float4* d_points = nullptr;
    int* d_label = nullptr;
    unsigned char* d_bytes = nullptr;
    CHECK(cudaMalloc(&d_p, n * sizeof(Particle)));
    CHECK(cudaMalloc(&d_points, n * sizeof(float4)));
    CHECK(cudaMalloc(&d_label, n * sizeof(int)));
    CHECK(cudaMalloc(&d_bytes, n));
    CHECK(cudaMemcpy(d_p, particles.data(), n * sizeof(Particle), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_points, points.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_bytes, bytes.data(), n, cudaMemcpyHostToDevice));
    const int blocks = n / kBlock;

    // After five steps a position has moved five times its velocity by dt; the rest is as it was.
    const float* before = &particles[0].x;
    ok &= run("particles_aos_step", 7 * n, [&] { particles_aos_step<<<blocks, kBlock>>>(d_p, n, kDt); },
              reinterpret_cast<float*>(d_p),
              [&](int f) { return f % 7 < 3 ? before[f] + 5.0 * kDt * before[f + 3] : before[f]; }, n);
    ok &= run("kmeans_assign_k16", n, [&] { kmeans_assign_k16<<<blocks, kBlock>>>(d_points, d_label, n); },
              d_label, [&](int i) { return nearest[i]; });
    ok &= run("hist_warp_agg", kBins,
              [&] {
                CHECK(cudaMemsetAsync(d_bins, 0, kBins * sizeof(unsigned)));
                hist_warp_agg<<<blocks, kBlock>>>(d_bytes, d_bins);
              },
              d_bins, [&](int b) { return counts[b]; }, n);
    CHECK(cudaFree(d_p));
    CHECK(cudaFree(d_points));
    CHECK(cudaFree(d_label));
    CHECK(cudaFree(d_bytes));
  }
  CHECK(cudaFree(d_bins));
  return ok ? 0 : 1;
}

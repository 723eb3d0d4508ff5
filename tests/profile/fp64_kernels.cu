// A user's seventh program, written on 2026-11-28 when the model first took FP64 arithmetic at
// the GPU's FP64 rate: double precision, which no suite kernel and no earlier program computes in.
// - daxpy: y = a x + y in double, one element per thread, in place: 16 bytes loaded and 8
//   stored per element, no arithmetic to speak of.
// - dpoly_horner64: y = p(x), a degree-64 polynomial in double by Horner's rule per element,
//   coefficients (-1)^k / (k + 1): 64 dependent DFMAs between one load and one store (16 FLOP a
//   byte), which GH100's 64 FP64 lanes per SM (half its FP32 lanes) take longer than the DRAM
//   takes the bytes.
// - jacobi2d_f64: one Jacobi sweep of a side x side grid of doubles, each point the mean of its
//   four neighbours (edges clamped), out of place, 32 x 8 blocks.
// Over 2^20, 2^22 and 2^24 elements (grids of 1024, 2048 and 4096 a side); each runs five
// launches back to back and a sample of the outputs is checked against the CPU.
// Build (as a user would): nvcc -O3 -arch=sm_90 -o fp64_kernels tests/profile/fp64_kernels.cu
// Run: fp64_kernels
#include <cuda_runtime.h>

#include <cmath>
#include <vector>

#include "staged_check.cuh"

constexpr int kBlock = 256, kDegree = 64, kTileX = 32, kTileY = 8;
constexpr double kA = 0.5;

__host__ __device__ constexpr double coefficient(int k) { return (k % 2 == 0 ? 1.0 : -1.0) / (k + 1); }

template <int K>
__device__ __forceinline__ double horner(double acc, double t) {
  if constexpr (K < 0) {
    return acc;
  } else {
    return horner<K - 1>(fma(acc, t, coefficient(K)), t);
  }
}

__global__ void __launch_bounds__(kBlock) daxpy(const double* __restrict__ x, double* __restrict__ y, int n, double a) {
  const int i = blockIdx.x * kBlock + threadIdx.x;
  if (i < n) y[i] = fma(a, x[i], y[i]);
}

__global__ void __launch_bounds__(kBlock) dpoly_horner64(const double* __restrict__ x, double* __restrict__ y, int n) {
  const int i = blockIdx.x * kBlock + threadIdx.x;
  if (i < n) y[i] = horner<kDegree - 1>(coefficient(kDegree), x[i]);
}

__global__ void __launch_bounds__(kTileX* kTileY) jacobi2d_f64(const double* __restrict__ in, double* __restrict__ out,
                                                                int side) {
  const int x = blockIdx.x * kTileX + threadIdx.x, y = blockIdx.y * kTileY + threadIdx.y;
  if (x >= side || y >= side) return;
  const int up = max(y - 1, 0), down = min(y + 1, side - 1), left = max(x - 1, 0), right = min(x + 1, side - 1);
  const double sum = in[up * side + x] + in[down * side + x] + in[y * side + left] + in[y * side + right];
  out[y * side + x] = 0.25 * sum;
}

namespace {

using staged::run;

unsigned next(unsigned& state) { return state = state * 1664525u + 1013904223u; }

double poly_at(double t) {
  double acc = coefficient(kDegree);
  for (int k = kDegree - 1; k >= 0; --k) acc = std::fma(acc, t, coefficient(k));
  return acc;
}

}  // namespace

int main() {
  bool ok = true;
  for (int side : {1024, 2048, 4096}) {
    const int n = side * side;
    unsigned state = 4242u;
    auto unit = [&] { return static_cast<double>(next(state) >> 8) / 16777216.0; };  // [0, 1)
    std::vector<double> x(n), y(n), grid(n);
    for (int i = 0; i < n; ++i) {
      x[i] = 2 * unit() - 1;
      y[i] = unit();
      grid[i] = unit();
    }
    double *d_x = nullptr, *d_y = nullptr, *d_p = nullptr, *d_in = nullptr, *d_out = nullptr;
    for (double** p : {&d_x, &d_y, &d_p, &d_in, &d_out}) CHECK(cudaMalloc(p, n * sizeof(double)));
    CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_y, y.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_in, grid.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    const int blocks = n / kBlock;

    // Five steps in place: y + 5 a x, within the check's tolerance of the five rounded steps.
    ok &= run("daxpy", n, [&] { daxpy<<<blocks, kBlock>>>(d_x, d_y, n, kA); }, d_y,
              [&](int i) { return y[i] + 5 * kA * x[i]; });
    ok &= run("dpoly_horner64", n, [&] { dpoly_horner64<<<blocks, kBlock>>>(d_x, d_p, n); }, d_p,
              [&](int i) { return poly_at(x[i]); });
    const dim3 tile(kTileX, kTileY), tiles(side / kTileX, side / kTileY);
    ok &= run("jacobi2d_f64", n, [&] { jacobi2d_f64<<<tiles, tile>>>(d_in, d_out, side); }, d_out, [&](int i) {
      const int r = i / side, c = i % side;
      const auto at = [&](int rr, int cc) {
        return grid[static_cast<size_t>(std::clamp(rr, 0, side - 1)) * side + std::clamp(cc, 0, side - 1)];
      };
      return 0.25 * (at(r - 1, c) + at(r + 1, c) + at(r, c - 1) + at(r, c + 1));
    });
    for (double* p : {d_x, d_y, d_p, d_in, d_out}) CHECK(cudaFree(p));
  }
  return ok ? 0 : 1;
}

// A user's program of four elementwise kernels whose time is set by the arithmetic between each
// load and its store, patterns the suite does not have: softplus over bf16 (expf and log1pf),
// a degree-15 polynomial by Horner's rule (15 dependent FMAs), symmetric int8 quantisation
// (a rounding conversion and a clamp) and the normalisation of 3-vectors held as three arrays
// (rsqrtf). One element per thread, blocks of 256, each kernel launched five times at each size,
// every result checked against the CPU on a sample of elements.
// Build (as a user would): nvcc -O3 -arch=sm_90 -o chain_kernels tests/profile/chain_kernels.cu
// Run: chain_kernels [--n N ...]   (default sizes 2^22, 2^24 and 2^26 elements)
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                                    \
  do {                                                                                                 \
    const cudaError_t status = (call);                                                                 \
    if (status != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "chain_kernels: %s failed: %s\n", #call, cudaGetErrorString(status));      \
      std::exit(1);                                                                                    \
    }                                                                                                  \
  } while (0)

__constant__ float kCoefficients[16];

__global__ void softplus_bf16(const __nv_bfloat16* __restrict__ x, __nv_bfloat16* __restrict__ y, long long n) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = __float2bfloat16(log1pf(expf(__bfloat162float(x[i]))));
}

__global__ void polyval15_f32(const float* __restrict__ x, float* __restrict__ y, long long n) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const float v = x[i];
  float acc = kCoefficients[15];
#pragma unroll
  for (int k = 14; k >= 0; --k) acc = fmaf(acc, v, kCoefficients[k]);
  y[i] = acc;
}

__global__ void quantize_i8(const float* __restrict__ x, signed char* __restrict__ q, float inv_scale, long long n) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) q[i] = static_cast<signed char>(max(-127, min(127, __float2int_rn(x[i] * inv_scale))));
}

__global__ void normalize3_f32(float* __restrict__ x, float* __restrict__ y, float* __restrict__ z, long long n) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const float a = x[i], b = y[i], c = z[i];
  const float s = rsqrtf(fmaf(a, a, fmaf(b, b, c * c)) + 1e-12f);
  x[i] = a * s;
  y[i] = b * s;
  z[i] = c * s;
}

namespace {

float uniform(unsigned& state) {  // in [-1, 1)
  state = state * 1664525u + 1013904223u;
  return static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
}

bool close(float got, double want, double tolerance) { return std::fabs(got - want) <= tolerance * (1 + std::fabs(want)); }

float host_bf16(__nv_bfloat16 v) {
  unsigned short bits;
  std::memcpy(&bits, &v, 2);
  const unsigned wide = static_cast<unsigned>(bits) << 16;
  float f;
  std::memcpy(&f, &wide, 4);
  return f;
}

// Runs each kernel five times over n elements and checks every 4099th element; false on a mismatch.
bool run_size(long long n, const float* coefficients) {
  const int block = 256;
  const unsigned grid = static_cast<unsigned>((n + block - 1) / block);
  std::vector<float> host(n);
  unsigned state = 12345u + static_cast<unsigned>(n);
  for (auto& v : host) v = 4.0f * uniform(state);
  std::vector<__nv_bfloat16> host_bf(n);
  for (long long i = 0; i < n; ++i) host_bf[i] = __float2bfloat16(host[i]);

  float *x, *y, *z, *out;
  __nv_bfloat16 *bx, *by;
  signed char* q;
  CHECK(cudaMalloc(&x, n * 4));
  CHECK(cudaMalloc(&y, n * 4));
  CHECK(cudaMalloc(&z, n * 4));
  CHECK(cudaMalloc(&out, n * 4));
  CHECK(cudaMalloc(&bx, n * 2));
  CHECK(cudaMalloc(&by, n * 2));
  CHECK(cudaMalloc(&q, n));
  CHECK(cudaMemcpy(x, host.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(bx, host_bf.data(), n * 2, cudaMemcpyHostToDevice));
  const float inv_scale = 127.0f / 4.0f;
  for (int r = 0; r < 5; ++r) softplus_bf16<<<grid, block>>>(bx, by, n);
  for (int r = 0; r < 5; ++r) polyval15_f32<<<grid, block>>>(x, out, n);
  for (int r = 0; r < 5; ++r) quantize_i8<<<grid, block>>>(x, q, inv_scale, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<__nv_bfloat16> got_bf(n);
  std::vector<float> got(n);
  std::vector<signed char> got_q(n);
  CHECK(cudaMemcpy(got_bf.data(), by, n * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got.data(), out, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_q.data(), q, n, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (long long i = 0; i < n && ok; i += 4099) {
    const double v = host_bf16(host_bf[i]);
    ok &= close(host_bf16(got_bf[i]), std::log1p(std::exp(v)), 1e-2);
    double acc = coefficients[15], size = coefficients[15];  // size: the terms' magnitudes, for the rounding
    for (int k = 14; k >= 0; --k) {
      acc = acc * host[i] + coefficients[k];
      size = size * std::fabs(host[i]) + coefficients[k];
    }
    ok &= std::fabs(got[i] - acc) <= 1e-5 * size;
    const long want = std::lrint(host[i] * inv_scale);
    ok &= std::abs(got_q[i] - std::max(-127L, std::min(127L, want))) <= 1;
    if (!ok) std::fprintf(stderr, "chain_kernels: element %lld of %lld wrong\n", i, n);
  }

  // Three arrays of components, normalised in place five times: the check is on unit length.
  std::vector<float> rotated(n);
  for (long long i = 0; i < n; ++i) rotated[i] = host[(i + n / 3) % n];
  CHECK(cudaMemcpy(y, rotated.data(), n * 4, cudaMemcpyHostToDevice));
  for (long long i = 0; i < n; ++i) rotated[i] = host[(i + n / 7) % n];
  CHECK(cudaMemcpy(z, rotated.data(), n * 4, cudaMemcpyHostToDevice));
  for (int r = 0; r < 5; ++r) normalize3_f32<<<grid, block>>>(x, y, z, n);
  CHECK(cudaGetLastError());
  std::vector<float> gx(n), gy(n), gz(n);
  CHECK(cudaMemcpy(gx.data(), x, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gy.data(), y, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gz.data(), z, n * 4, cudaMemcpyDeviceToHost));
  for (long long i = 0; i < n && ok; i += 4099) {
    const double length = std::sqrt(double(gx[i]) * gx[i] + double(gy[i]) * gy[i] + double(gz[i]) * gz[i]);
    ok &= close(static_cast<float>(length), 1.0, 1e-4) || length < 1e-3;
    if (!ok) std::fprintf(stderr, "chain_kernels: vector %lld of %lld not of unit length (%g)\n", i, n, length);
  }
  for (void* p : {static_cast<void*>(x), static_cast<void*>(y), static_cast<void*>(z), static_cast<void*>(out),
                  static_cast<void*>(bx), static_cast<void*>(by), static_cast<void*>(q)})
    CHECK(cudaFree(p));
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<long long> sizes;
  for (int a = 1; a < argc; ++a) {
    if (std::strcmp(argv[a], "--n") == 0 && a + 1 < argc) {
      sizes.push_back(std::atoll(argv[++a]));
    } else {
      std::fprintf(stderr, "usage: chain_kernels [--n N ...]\n");
      return 2;
    }
  }
  if (sizes.empty()) sizes = {1LL << 22, 1LL << 24, 1LL << 26};
  float coefficients[16];
  for (int k = 0; k < 16; ++k) coefficients[k] = 1.0f / static_cast<float>(1 + k * k);  // keeps |p(x)| modest on [-4, 4)
  CHECK(cudaMemcpyToSymbol(kCoefficients, coefficients, sizeof coefficients));
  bool ok = true;
  for (long long n : sizes) ok &= run_size(n, coefficients);
  std::printf("chain_kernels: %s\n", ok ? "results correct" : "RESULTS WRONG");
  return ok ? 0 : 1;
}

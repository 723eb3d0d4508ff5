// A user's program of two kernels whose threads loop: the largest magnitude of each row of 4096
// floats, one warp per row (a strided walk of 128 columns per lane, then a shuffle tree), and the
// tanh form of GELU over half2, in a grid-stride loop of one resident wave. Each runs five times
// back to back at 2^22, 2^24 and 2^26 elements; every result is checked against the CPU on a
// sample.
// Build (as a user would): nvcc -O3 -arch=sm_90 -o loop_kernels tests/profile/loop_kernels.cu
// Run: loop_kernels
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                                    \
  do {                                                                                                 \
    const cudaError_t status = (call);                                                                 \
    if (status != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "loop_kernels: %s failed: %s\n", #call, cudaGetErrorString(status));       \
      std::exit(1);                                                                                    \
    }                                                                                                  \
  } while (0)

constexpr int kCols = 4096;

__global__ void rowmax_abs_f32(const float* __restrict__ x, float* __restrict__ out, int rows) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float* r = x + static_cast<long long>(row) * kCols;
  float m = 0.0f;
  for (int c = lane; c < kCols; c += 32) m = fmaxf(m, fabsf(r[c]));
  for (int offset = 16; offset > 0; offset /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, offset));
  if (lane == 0) out[row] = m;
}

__global__ void gelu_tanh_f16x2(const __half2* __restrict__ x, __half2* __restrict__ y, long long pairs) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < pairs;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const float2 v = __half22float2(x[i]);
    float2 g;
    g.x = 0.5f * v.x * (1.0f + tanhf(0.7978845608f * (v.x + 0.044715f * v.x * v.x * v.x)));
    g.y = 0.5f * v.y * (1.0f + tanhf(0.7978845608f * (v.y + 0.044715f * v.y * v.y * v.y)));
    y[i] = __float22half2_rn(g);
  }
}

namespace {

float uniform(unsigned& state) {  // in [-1, 1)
  state = state * 1664525u + 1013904223u;
  return static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
}

double gelu(double v) { return 0.5 * v * (1 + std::tanh(0.7978845608 * (v + 0.044715 * v * v * v))); }

bool run_size(long long n, int wave_blocks) {
  const int rows = static_cast<int>(n / kCols);
  std::vector<float> host(n);
  unsigned state = 777u + static_cast<unsigned>(n);
  for (auto& v : host) v = 3.0f * uniform(state);
  std::vector<__half> host_h(n);
  for (long long i = 0; i < n; ++i) host_h[i] = __float2half(host[i]);

  float *x, *out;
  __half *hx, *hy;
  CHECK(cudaMalloc(&x, n * 4));
  CHECK(cudaMalloc(&out, rows * 4));
  CHECK(cudaMalloc(&hx, n * 2));
  CHECK(cudaMalloc(&hy, n * 2));
  CHECK(cudaMemcpy(x, host.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(hx, host_h.data(), n * 2, cudaMemcpyHostToDevice));
  const unsigned row_blocks = static_cast<unsigned>((rows + 7) / 8);  // 8 warps of 256 threads, a row each
  for (int r = 0; r < 5; ++r) rowmax_abs_f32<<<row_blocks, 256>>>(x, out, rows);
  const long long pairs = n / 2;
  for (int r = 0; r < 5; ++r)
    gelu_tanh_f16x2<<<wave_blocks, 256>>>(reinterpret_cast<const __half2*>(hx), reinterpret_cast<__half2*>(hy), pairs);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<float> got(rows);
  std::vector<__half> got_h(n);
  CHECK(cudaMemcpy(got.data(), out, rows * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_h.data(), hy, n * 2, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int row = 0; row < rows && ok; row += 97) {
    float want = 0;
    for (int c = 0; c < kCols; ++c) want = std::fmax(want, std::fabs(host[static_cast<long long>(row) * kCols + c]));
    ok &= got[row] == want;
    if (!ok) std::fprintf(stderr, "loop_kernels: row %d of %d: %g, not %g\n", row, rows, got[row], want);
  }
  for (long long i = 0; i < n && ok; i += 4099) {
    const double want = gelu(__half2float(host_h[i]));
    ok &= std::fabs(__half2float(got_h[i]) - want) <= 2e-3 * (1 + std::fabs(want));
    if (!ok) std::fprintf(stderr, "loop_kernels: element %lld of %lld wrong\n", i, n);
  }
  for (void* p : {static_cast<void*>(x), static_cast<void*>(out), static_cast<void*>(hx), static_cast<void*>(hy)})
    CHECK(cudaFree(p));
  return ok;
}

}  // namespace

int main() {
  int sms = 0, blocks_per_sm = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, gelu_tanh_f16x2, 256, 0));
  bool ok = true;
  for (long long n : {1LL << 22, 1LL << 24, 1LL << 26}) ok &= run_size(n, sms * blocks_per_sm);
  std::printf("loop_kernels: %s\n", ok ? "results correct" : "RESULTS WRONG");
  return ok ? 0 : 1;
}

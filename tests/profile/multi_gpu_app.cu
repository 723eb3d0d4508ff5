// A program that drives two GPUs from one process and thread, as single-process tensor-parallel
// code does: with peer access on, a kernel on GPU 1 adds into GPU 0's memory in place, GPU 0 scales
// it, a kernel on GPU 1 reads it back across the link, and a peer copy moves it. The results are
// checked at the end, so a replay of GPU 1's kernel that does not restore GPU 0's memory makes the
// program fail. Exits 77 (skipped) without two GPUs that can reach each other's memory.
//   multi_gpu_app [--n N]
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                           \
  do {                                                                                        \
    const cudaError_t e_ = (call);                                                            \
    if (e_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "multi_gpu_app: %s failed: %s\n", #call, cudaGetErrorString(e_));  \
      std::exit(2);                                                                           \
    }                                                                                         \
  } while (0)

__global__ void add_into_peer(int n, float* peer_x, const float* y) {  // runs on GPU 1, writes GPU 0
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) peer_x[i] += y[i];
}

__global__ void scale_in_place(int n, float* x) {  // runs on GPU 0
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

__global__ void read_from_peer(int n, const float* peer_x, float* out) {  // runs on GPU 1, reads GPU 0
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = peer_x[i] + 1.0f;
}

int main(int argc, char** argv) {
  int n = 1 << 22;
  for (int a = 1; a < argc; ++a) {
    if (std::strcmp(argv[a], "--n") == 0 && a + 1 < argc) n = std::atoi(argv[++a]);
    else {
      std::fprintf(stderr, "usage: multi_gpu_app [--n N]\n");
      return 2;
    }
  }
  int devices = 0, reach01 = 0, reach10 = 0;
  CHECK(cudaGetDeviceCount(&devices));
  if (devices >= 2) {
    CHECK(cudaDeviceCanAccessPeer(&reach01, 0, 1));
    CHECK(cudaDeviceCanAccessPeer(&reach10, 1, 0));
  }
  if (!reach01 || !reach10) {
    std::printf("multi_gpu_app: skipped: needs two GPUs with peer access (found %d GPU(s))\n", devices);
    return 77;
  }
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  const int blocks = (n + 255) / 256;
  std::vector<float> host(n), ones(n, 1.0f);
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 13);

  float *x0, *y1, *out1, *copy0;
  CHECK(cudaSetDevice(0));
  CHECK(cudaDeviceEnablePeerAccess(1, 0));
  CHECK(cudaMalloc(&x0, bytes));
  CHECK(cudaMalloc(&copy0, bytes));
  CHECK(cudaMemcpy(x0, host.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaSetDevice(1));
  CHECK(cudaDeviceEnablePeerAccess(0, 0));
  CHECK(cudaMalloc(&y1, bytes));
  CHECK(cudaMalloc(&out1, bytes));
  CHECK(cudaMemcpy(y1, ones.data(), bytes, cudaMemcpyHostToDevice));

  add_into_peer<<<blocks, 256>>>(n, x0, y1);  // GPU 1 adds one into GPU 0's x0, in place
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaSetDevice(0));
  scale_in_place<<<blocks, 256>>>(n, x0);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaSetDevice(1));
  read_from_peer<<<blocks, 256>>>(n, x0, out1);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpyPeer(copy0, 0, out1, 1, bytes));

  std::vector<float> x(n), copied(n);
  CHECK(cudaMemcpy(x.data(), x0, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(copied.data(), copy0, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    const float want = 2.0f * (host[i] + 1.0f);
    if (x[i] != want || copied[i] != want + 1.0f) {
      std::fprintf(stderr, "multi_gpu_app: wrong at %d: x0 %g (expected %g), copy %g (expected %g)\n", i, x[i], want,
                   copied[i], want + 1.0f);
      return 1;
    }
  }
  std::printf("multi_gpu_app: results correct (%d elements on two GPUs)\n", n);
  return 0;
}

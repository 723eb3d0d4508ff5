// Exploratory: what a kernel's own time (as the CUPTI Activity API records it, under `roofline
// profile`) holds beyond its work, for kernels that differ in one thing each from an empty one:
// a store, a load and a store, a fixed spin, more blocks, more waves. Run it under `roofline
// profile --no-counters` (trace_fixed_probe.sh); each kernel is a template on its launch mode, so
// that the profile's kernel names tell the modes apart: 0, each launch waited for; 1, 100 launches
// queued back to back, as a PyTorch program launches (both on the legacy default stream); 2, the
// one-block kernels on a stream of their own, each launch waited for by cudaStreamSynchronize (as
// `roofline calibrate` launches them); 3, the same, the store into a buffer cudaMemset had set
// (every other store goes to one that only kernels wrote).
#include <cstdio>

#include <cuda_runtime.h>

#define CHECK(call)                                                                           \
  do {                                                                                        \
    cudaError_t e = (call);                                                                   \
    if (e != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e));                  \
      return 1;                                                                               \
    }                                                                                         \
  } while (0)

template <int Mode> __global__ void empty_kernel() {}

template <int Mode> __global__ void store_kernel(float* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }

template <int Mode> __global__ void load_store_kernel(const float* in, float* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + 1.0f;
}

// Spins `cycles` SM clocks, then stores only where asked (never), so that nothing reaches memory.
template <int Mode> __global__ void spin_kernel(long long cycles, float* never) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
  if (cycles < 0) never[threadIdx.x] = 0.0f;
}

cudaStream_t g_stream = nullptr;  // mode 2's

template <class Launch> int run(Launch launch, int mode) {
  constexpr int kLaunches = 100;
  for (int i = 0; i < kLaunches; ++i) {
    launch();
    if (mode == 0) CHECK(cudaDeviceSynchronize());
    if (mode == 2) CHECK(cudaStreamSynchronize(g_stream));
  }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaGetLastError());
  return 0;
}

template <int Mode> int run_all(const float* in, float* out, int sms) {
  int rc = 0;
  if constexpr (Mode == 2) {
    cudaStream_t s = g_stream;
    rc |= run([=] { empty_kernel<Mode><<<1, 32, 0, s>>>(); }, Mode);
    rc |= run([=] { store_kernel<Mode><<<1, 32, 0, s>>>(out); }, Mode);
    rc |= run([=] { load_store_kernel<Mode><<<1, 32, 0, s>>>(in, out); }, Mode);
    return rc;
  }
  if constexpr (Mode == 3) {
    cudaStream_t s = g_stream;
    float* set = const_cast<float*>(in);
    rc |= run([=] { empty_kernel<Mode><<<1, 32, 0, s>>>(); }, 2);
    rc |= run([=] { store_kernel<Mode><<<1, 32, 0, s>>>(set); }, 2);
    return rc;
  }
  rc |= run([] { empty_kernel<Mode><<<1, 32>>>(); }, Mode);
  rc |= run([=] { store_kernel<Mode><<<1, 32>>>(out); }, Mode);
  rc |= run([=] { load_store_kernel<Mode><<<1, 32>>>(in, out); }, Mode);
  for (long long cycles : {1000LL, 2000LL, 4000LL, 8000LL})
    rc |= run([=] { spin_kernel<Mode><<<1, 32>>>(cycles, out); }, Mode);
  // One resident wave (8 blocks of 256 an SM), then 4 and 16 waves.
  for (int waves : {1, 4, 16}) {
    const int blocks = 8 * sms * waves;
    rc |= run([=] { empty_kernel<Mode><<<blocks, 256>>>(); }, Mode);
    rc |= run([=] { store_kernel<Mode><<<blocks, 256>>>(out); }, Mode);
    rc |= run([=] { load_store_kernel<Mode><<<blocks, 256>>>(in, out); }, Mode);
  }
  return rc;
}

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const size_t n = static_cast<size_t>(8 * sms * 16) * 256;  // 16 waves' threads: 17 MB a buffer
  float *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemset(in, 0, n * sizeof(float)));
  CHECK(cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking));
  if (run_all<0>(in, out, sms) || run_all<1>(in, out, sms) || run_all<2>(in, out, sms) ||
      run_all<3>(in, out, sms))
    return 1;
  std::printf("trace_fixed_probe: %d SMs, done\n", sms);
  return 0;
}

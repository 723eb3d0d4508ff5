// A CUDA program for `roofline profile` to measure, built like any user's: several kernels, two
// streams driven by two host threads, CUDA graphs (one with a memset, a copy and a host call
// between its kernels, one changed after it was instantiated), a library kernel (CUB), a last launch
// with no copy after it, a memset between in-place kernels, a second context entered through the
// driver API, module-scope variables that kernels count in, and in-place kernels whose
// results are checked at the end, so that a profiler that replays launches without restoring
// memory (or without the memset) makes it fail.
//   profile_app [--n N] [--crash-after K] [--exit CODE]
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cub/device/device_reduce.cuh>
#include <thread>
#include <vector>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    const cudaError_t e_ = (call);                                                           \
    if (e_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "profile_app: %s failed: %s\n", #call, cudaGetErrorString(e_));  \
      std::exit(2);                                                                          \
    }                                                                                        \
  } while (0)
#define CHECK_CU(call)                                                      \
  do {                                                                      \
    const CUresult r_ = (call);                                             \
    if (r_ != CUDA_SUCCESS) {                                               \
      std::fprintf(stderr, "profile_app: %s failed: %d\n", #call, (int)r_); \
      std::exit(2);                                                         \
    }                                                                       \
  } while (0)

__global__ void saxpy(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void scale_in_place(int n, float* x) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 2.0f * x[i] + 1.0f;
}

__global__ void gather_strided(int n, int stride, const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[(static_cast<long long>(i) * stride) % n];
}

// Module-scope variables a kernel changes: a replay that did not save them would add again in
// every pass (as a kernel counting its finished blocks, or taking work from a queue, would).
__device__ unsigned int g_blocks_seen;           // every block of count_blocks adds one
static __device__ unsigned int s_count_launches;  // its first block's first thread adds one

__global__ void count_blocks() {
  if (threadIdx.x == 0) atomicAdd(&g_blocks_seen, 1u);
  if (threadIdx.x == 0 && blockIdx.x == 0) atomicAdd(&s_count_launches, 1u);
}

__global__ void add_half(int n, const __half* a, const __half* b, __half* c) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = __hadd(a[i], b[i]);
}

int g_launches = 0, g_crash_after = -1;
void launched() {
  if (++g_launches == g_crash_after) {
    std::fprintf(stderr, "profile_app: crashing after %d launches as asked\n", g_launches);
    std::abort();
  }
}

int blocks(int n) { return (n + 255) / 256; }

int main(int argc, char** argv) {
  int n = 1 << 22, exit_code = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--n")) n = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--crash-after")) g_crash_after = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--exit")) exit_code = std::atoi(argv[i + 1]);
  }
  std::vector<float> hx(n), hy(n), hz(n);
  std::vector<__half> ha(n), hb(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = static_cast<float>(i % 1000) * 0.001f;
    hy[i] = static_cast<float>(i % 7);
    hz[i] = 1.0f;
    ha[i] = __float2half(static_cast<float>(i % 5));
    hb[i] = __float2half(0.5f);
  }
  float *x, *y, *z, *g, *sum;
  __half *a, *b, *c;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMalloc(&z, n * sizeof(float)));
  CHECK(cudaMalloc(&g, n * sizeof(float)));
  CHECK(cudaMalloc(&sum, sizeof(float)));
  CHECK(cudaMalloc(&a, n * sizeof(__half)));
  CHECK(cudaMalloc(&b, n * sizeof(__half)));
  CHECK(cudaMalloc(&c, n * sizeof(__half)));
  CHECK(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(z, hz.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(a, ha.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, hb.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));

  // Two host threads, one stream each.
  std::thread t1([&] {
    for (int k = 0; k < 2; ++k) {
      saxpy<<<blocks(n), 256, 0, s1>>>(n, 0.5f, x, y);  // y += 0.5 x, twice
      launched();
    }
    CHECK(cudaStreamSynchronize(s1));
  });
  std::thread t2([&] {
    gather_strided<<<blocks(n), 256, 0, s2>>>(n, 33, z, g);  // g[i] = z[i*33 % n] = 1
    launched();
    add_half<<<blocks(n), 256, 0, s2>>>(n, a, b, c);
    launched();
    CHECK(cudaStreamSynchronize(s2));
  });
  t1.join();
  t2.join();

  // A graph of two in-place kernels, launched twice: z = 2(2z+1)+1 per launch of the graph.
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeThreadLocal));
  scale_in_place<<<blocks(n), 256, 0, s1>>>(n, z);
  scale_in_place<<<blocks(n), 256, 0, s1>>>(n, z);
  CHECK(cudaStreamEndCapture(s1, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int k = 0; k < 2; ++k) CHECK(cudaGraphLaunch(exec, s1));
  CHECK(cudaStreamSynchronize(s1));

  // A graph with a memset, a copy and a host call between its kernels, launched twice: v = 0 -> 1,
  // u = v -> 3 each time, and the host call counts the graph's runs (a replay must not call it).
  float *u, *v;
  CHECK(cudaMalloc(&u, n * sizeof(float)));
  CHECK(cudaMalloc(&v, n * sizeof(float)));
  static int host_calls = 0;
  cudaGraph_t mixed;
  cudaGraphExec_t mixed_exec;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeThreadLocal));
  CHECK(cudaMemsetAsync(v, 0, n * sizeof(float), s1));
  scale_in_place<<<blocks(n), 256, 0, s1>>>(n, v);
  CHECK(cudaMemcpyAsync(u, v, n * sizeof(float), cudaMemcpyDeviceToDevice, s1));
  scale_in_place<<<blocks(n), 256, 0, s1>>>(n, u);
  count_blocks<<<blocks(n), 256, 0, s1>>>();
  CHECK(cudaLaunchHostFunc(s1, [](void*) { ++host_calls; }, nullptr));
  CHECK(cudaStreamEndCapture(s1, &mixed));
  CHECK(cudaGraphInstantiate(&mixed_exec, mixed, 0));
  for (int k = 0; k < 2; ++k) CHECK(cudaGraphLaunch(mixed_exec, s1));
  CHECK(cudaStreamSynchronize(s1));

  // The module variables counted directly too: two more launches.
  for (int k = 0; k < 2; ++k) {
    count_blocks<<<blocks(n), 256, 0, s1>>>();
    launched();
  }

  // A graph the program changes after instantiating it: its kernel's parameters set to scale
  // p2 (a quarter of the elements), then the whole graph swapped for one that scales p3 (half of
  // them) by cudaGraphExecUpdate; one launch each way. A replay of the graph as first captured
  // would scale p1 again, with the first shape.
  float *p1, *p2, *p3;
  for (float** p : {&p1, &p2, &p3}) {
    CHECK(cudaMalloc(p, n * sizeof(float)));
    CHECK(cudaMemcpy(*p, hz.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  }
  cudaGraph_t changed, replacement;
  cudaGraphExec_t changed_exec;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeThreadLocal));
  scale_in_place<<<blocks(n), 256, 0, s1>>>(n, p1);
  CHECK(cudaStreamEndCapture(s1, &changed));
  CHECK(cudaGraphInstantiate(&changed_exec, changed, 0));
  CHECK(cudaGraphLaunch(changed_exec, s1));
  cudaGraphNode_t node;
  size_t nodes = 1;
  CHECK(cudaGraphGetNodes(changed, &node, &nodes));
  cudaKernelNodeParams kp{};
  CHECK(cudaGraphKernelNodeGetParams(node, &kp));
  int quarter = n / 4;
  void* quarter_args[] = {&quarter, &p2};
  kp.gridDim = dim3(blocks(quarter));
  kp.kernelParams = quarter_args;
  CHECK(cudaGraphExecKernelNodeSetParams(changed_exec, node, &kp));
  CHECK(cudaGraphLaunch(changed_exec, s1));
  const int half = n / 2;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeThreadLocal));
  scale_in_place<<<blocks(half), 256, 0, s1>>>(half, p3);
  CHECK(cudaStreamEndCapture(s1, &replacement));
  cudaGraphExecUpdateResultInfo update{};
  CHECK(cudaGraphExecUpdate(changed_exec, replacement, &update));
  CHECK(cudaGraphLaunch(changed_exec, s1));
  CHECK(cudaStreamSynchronize(s1));

  // A library kernel: CUB's sum of x.
  void* temp = nullptr;
  size_t temp_bytes = 0;
  CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, x, sum, n, s1));
  CHECK(cudaMalloc(&temp, temp_bytes));
  CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, x, sum, n, s1));
  launched();
  CHECK(cudaStreamSynchronize(s1));

  // A memset between in-place kernels: w = 1 -> 3, then 0 -> 1 -> 3. A replay that started from
  // the memory saved before the first of them and skipped the memset would leave 15.
  float* w;
  CHECK(cudaMalloc(&w, n * sizeof(float)));
  CHECK(cudaMemcpy(w, hz.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  scale_in_place<<<blocks(n), 256, 0, s1>>>(n, w);
  launched();
  CHECK(cudaMemsetAsync(w, 0, n * sizeof(float), s1));
  for (int k = 0; k < 2; ++k) {
    scale_in_place<<<blocks(n), 256, 0, s1>>>(n, w);
    launched();
  }
  CHECK(cudaStreamSynchronize(s1));

  // A second context, entered through the driver API: x = 2x + 1 there, by cuLaunchKernel.
  CUdevice dev;
  CUcontext primary, second;
  CHECK_CU(cuCtxGetCurrent(&primary));
  CHECK_CU(cuCtxGetDevice(&dev));
  CUctxCreateParams params{};
  CHECK_CU(cuCtxCreate(&second, &params, 0, dev));
  CUdeviceptr dx;
  CHECK_CU(cuMemAlloc(&dx, n * sizeof(float)));
  CHECK_CU(cuMemcpyHtoD(dx, hx.data(), n * sizeof(float)));
  cudaKernel_t kernel;
  CHECK(cudaGetKernel(&kernel, scale_in_place));
  void* args[] = {&n, &dx};
  CHECK_CU(cuLaunchKernel(reinterpret_cast<CUfunction>(kernel), blocks(n), 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  launched();
  std::vector<float> hx2(n);
  CHECK_CU(cuMemcpyDtoH(hx2.data(), dx, n * sizeof(float)));
  CHECK_CU(cuMemFree(dx));
  CHECK_CU(cuCtxDestroy(second));
  CHECK_CU(cuCtxSetCurrent(primary));

  // Every result against the host's.
  std::vector<float> ry(n), rz(n), rg(n), rw(n), ru(n), r1(n), r2(n), r3(n);
  unsigned int blocks_seen = 0, count_launches = 0;
  CHECK(cudaMemcpyFromSymbol(&blocks_seen, g_blocks_seen, sizeof blocks_seen));
  CHECK(cudaMemcpyFromSymbol(&count_launches, s_count_launches, sizeof count_launches));
  CHECK(cudaMemcpy(r1.data(), p1, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(r2.data(), p2, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(r3.data(), p3, n * sizeof(float), cudaMemcpyDeviceToHost));
  std::vector<__half> rc(n);
  float rsum = 0;
  CHECK(cudaMemcpy(ry.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rz.data(), z, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rg.data(), g, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rw.data(), w, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ru.data(), u, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rc.data(), c, n * sizeof(__half), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&rsum, sum, sizeof(float), cudaMemcpyDeviceToHost));
  double want_sum = 0;
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    want_sum += hx[i];
    wrong += std::fabs(ry[i] - (hy[i] + hx[i])) > 1e-4f;                       // y + 2 x 0.5 x
    wrong += rz[i] != 31.0f;                                                  // 1 -> 3 -> 7 -> 15 -> 31
    wrong += rg[i] != 1.0f;                                                   // gathered before the graph ran
    wrong += rw[i] != 3.0f;                                                   // the memset replayed in its place
    wrong += ru[i] != 3.0f;                                                   // the mixed graph's copy
    wrong += __half2float(rc[i]) != static_cast<float>(i % 5) + 0.5f;
    wrong += std::fabs(hx2[i] - (2.0f * hx[i] + 1.0f)) > 1e-5f;
    wrong += r1[i] != 3.0f;                                                   // the changed graph's
    wrong += r2[i] != (i < quarter ? 3.0f : 1.0f);                            // three launches
    wrong += r3[i] != (i < half ? 3.0f : 1.0f);
  }
  // Two launches of the mixed graph and two direct ones.
  if (blocks_seen != 4u * blocks(n)) ++wrong;
  if (count_launches != 4u) ++wrong;
  if (std::fabs(rsum - want_sum) > 1e-3 * want_sum) ++wrong;
  if (host_calls != 2) ++wrong;
  if (wrong) {
    std::printf("profile_app: WRONG results: %d mismatches\n", wrong);
    return 1;
  }
  // The last launch is followed by no copy or free: a program may end right after its kernels.
  scale_in_place<<<blocks(n), 256, 0, s1>>>(n, w);
  launched();
  CHECK(cudaStreamSynchronize(s1));
  std::printf("profile_app: %d elements, %d launches plus 7 graph launches, results correct\n", n, g_launches);
  return exit_code;
}

"""A PyTorch script with kernels of its own, as a user writes them: a CUDA extension compiled at run
time (torch.utils.cpp_extension.load_inline) with a fused RMSNorm (a block per row, a two-level
reduction) and a fused SwiGLU (silu(gate) * up), templated on the dtype, called in a loop between
PyTorch's own ops and checked against PyTorch.
Run: roofline profile -- python3 tests/profile/extension_step.py
The build goes to $EXT_BUILD_DIR (default: PyTorch's extension cache), for sm_90 unless
TORCH_CUDA_ARCH_LIST says otherwise."""
import argparse
import os
import sys
import time

import torch
import torch.nn.functional as F
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

template <typename T>
__global__ void rms_norm_kernel(const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ y, int cols,
                                float eps) {
  __shared__ float partial[32];
  const T* xr = x + static_cast<long long>(blockIdx.x) * cols;
  float sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float v = static_cast<float>(xr[c]);
    sum += v * v;
  }
  for (int o = 16; o > 0; o /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, o);
    if (threadIdx.x == 0) partial[0] = sum;
  }
  __syncthreads();
  const float scale = rsqrtf(partial[0] / cols + eps);
  T* yr = y + static_cast<long long>(blockIdx.x) * cols;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    yr[c] = static_cast<T>(static_cast<float>(xr[c]) * scale * static_cast<float>(w[c]));
}

template <typename T>
__global__ void swiglu_kernel(const T* __restrict__ gate, const T* __restrict__ up, T* __restrict__ out, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const float g = static_cast<float>(gate[i]);
    out[i] = static_cast<T>(g / (1.0f + __expf(-g)) * static_cast<float>(up[i]));
  }
}

torch::Tensor rms_norm(torch::Tensor x, torch::Tensor w, double eps) {
  auto y = torch::empty_like(x);
  const int rows = x.size(0), cols = x.size(1);
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), "rms_norm", [&] {
    rms_norm_kernel<scalar_t><<<rows, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), w.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), cols, static_cast<float>(eps));
  });
  return y;
}

torch::Tensor swiglu(torch::Tensor gate, torch::Tensor up) {
  auto out = torch::empty_like(gate);
  const long long n = gate.numel();
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, gate.scalar_type(), "swiglu", [&] {
    swiglu_kernel<scalar_t><<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        gate.data_ptr<scalar_t>(), up.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
  return out;
}
"""

CPP_SOURCE = """
torch::Tensor rms_norm(torch::Tensor x, torch::Tensor w, double eps);
torch::Tensor swiglu(torch::Tensor gate, torch::Tensor up);
"""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--rows", type=int, default=8192)
    p.add_argument("--cols", type=int, default=4096, help="RMSNorm row width")
    p.add_argument("--hidden", type=int, default=11008, help="SwiGLU width")
    args = p.parse_args()
    os.environ.setdefault("TORCH_CUDA_ARCH_LIST", "9.0")
    build = os.environ.get("EXT_BUILD_DIR")
    if build:
        os.makedirs(build, exist_ok=True)
    t0 = time.perf_counter()
    ext = load_inline("roofline_ext", CPP_SOURCE, cuda_sources=CUDA_SOURCE, functions=["rms_norm", "swiglu"],
                      extra_cuda_cflags=["-O3"], build_directory=build)
    print(f"extension_step: extension ready in {time.perf_counter() - t0:.1f} s")
    torch.manual_seed(0)
    dev = torch.device("cuda")
    x = torch.randn(args.rows, args.cols, device=dev, dtype=torch.bfloat16)
    w = torch.rand(args.cols, device=dev, dtype=torch.bfloat16) + 0.5
    gate = torch.randn(args.rows, args.hidden, device=dev, dtype=torch.bfloat16)
    up = torch.randn_like(gate)
    ok = True
    for _ in range(args.steps):
        y = ext.rms_norm(x, w, 1e-6)
        h = ext.swiglu(gate, up)
        want_y = (x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-6) * w.float()).bfloat16()
        want_h = (F.silu(gate.float()) * up.float()).bfloat16()
        ok &= torch.allclose(y.float(), want_y.float(), rtol=2e-2, atol=2e-2)
        ok &= torch.allclose(h.float(), want_h.float(), rtol=2e-2, atol=2e-2)
        x = (y + 0.01 * x).contiguous()  # the next step's input, as a residual stream would be
    torch.cuda.synchronize()
    if not ok:
        print("extension_step: results wrong", file=sys.stderr)
        sys.exit(1)
    print(f"extension_step: {args.steps} steps, results correct")


if __name__ == "__main__":
    main()

"""A Triton workload for `roofline profile`, written apart from the code it tests: kernels JIT-compiled
at run time and loaded from memory, launched through the driver API. Two hand-written Triton
kernels (an FP32 add and a row softmax) and a function compiled by torch.compile (Inductor
generates its Triton kernels, compiling them in worker processes), a few steps each, every result
checked against PyTorch's own. Exits 1 if a result is wrong.
Run: roofline profile -- python3 tests/profile/triton_step.py"""
import argparse
import sys
import time

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, stride, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * stride + offs, mask=offs < cols, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * stride + offs, e / tl.sum(e, axis=0), mask=offs < cols)


def add(x, y):
    out = torch.empty_like(x)
    add_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, out, x.numel(), BLOCK=1024)
    return out


def softmax(x):
    out = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](out, x, x.stride(0), x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
    return out


def norm_gelu(x, w, b):
    return torch.nn.functional.gelu(torch.nn.functional.layer_norm(x, x.shape[-1:], w, b)) * 2 + x


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--n", type=int, default=1 << 24, help="elements of the add")
    p.add_argument("--rows", type=int, default=8192, help="rows of the softmax and the compiled function")
    p.add_argument("--cols", type=int, default=1024, help="their width")
    args = p.parse_args()
    torch.manual_seed(0)
    dev = torch.device("cuda")
    x = torch.randn(args.n, device=dev)
    y = torch.randn(args.n, device=dev)
    m = torch.randn(args.rows, args.cols, device=dev)
    h = torch.randn(args.rows, args.cols, device=dev, dtype=torch.float16)
    w = torch.randn(args.cols, device=dev, dtype=torch.float16)
    b = torch.randn(args.cols, device=dev, dtype=torch.float16)
    compiled = torch.compile(norm_gelu)
    t0 = time.perf_counter()
    for _ in range(args.steps):
        s, sm, ng = add(x, y), softmax(m), compiled(h, w, b)
    torch.cuda.synchronize()
    ok = (torch.allclose(s, x + y) and torch.allclose(sm, torch.softmax(m, dim=-1), atol=1e-6)
          and torch.allclose(ng.float(), norm_gelu(h, w, b).float(), atol=2e-2, rtol=2e-2))
    print(f"triton_step: {args.steps} steps, {time.perf_counter() - t0:.3f} s, "
          f"{'results correct' if ok else 'RESULTS WRONG'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""A small PyTorch workload for `roofline profile`: FP16 and FP32 adds, a matmul, softmax and
layer norm, a few steps. Run: roofline profile -- python3 tests/profile/train_step.py"""
import argparse
import time

import torch


def step(x32, y32, x16, y16, w, ln):
    a = x32 + y32                      # FP32 elementwise add
    b = x16 + y16                      # FP16 elementwise add
    c = torch.matmul(b, w)             # FP16 GEMM (cuBLAS)
    d = torch.softmax(c.float(), dim=-1)
    e = ln(d)                          # layer norm
    return a.sum() + e.sum()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--n", type=int, default=1 << 24, help="elements of the elementwise adds")
    p.add_argument("--dim", type=int, default=2048, help="matmul / softmax / layer-norm width")
    args = p.parse_args()
    torch.manual_seed(0)
    dev = torch.device("cuda")
    x32 = torch.randn(args.n, device=dev)
    y32 = torch.randn(args.n, device=dev)
    x16 = torch.randn(args.dim * 4, args.dim, device=dev, dtype=torch.float16)
    y16 = torch.randn_like(x16)
    w = torch.randn(args.dim, args.dim, device=dev, dtype=torch.float16)
    ln = torch.nn.LayerNorm(args.dim, device=dev)
    t0 = time.perf_counter()
    for _ in range(args.steps):
        out = step(x32, y32, x16, y16, w, ln)
    torch.cuda.synchronize()
    print(f"train_step: {args.steps} steps, result {out.item():.4g}, {time.perf_counter() - t0:.3f} s")


if __name__ == "__main__":
    main()

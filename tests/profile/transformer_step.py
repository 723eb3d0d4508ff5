"""A transformer block's training step for `roofline profile`, written after it and run on it
unchanged: a pre-norm encoder layer (attention through PyTorch's fused scaled-dot-product kernels,
a 4x MLP) and a linear head under BF16 autocast, an MSE loss, its backward pass and a fused AdamW
step, a few steps. It prints each step's loss and "results correct" when every loss is finite and
the last is below the first (the step learns), and exits 1 otherwise.
Run: roofline profile -- python3 tests/profile/transformer_step.py"""
import argparse
import math
import time

import torch


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--seq", type=int, default=512)
    p.add_argument("--dim", type=int, default=1024)
    p.add_argument("--heads", type=int, default=16)
    args = p.parse_args()
    torch.manual_seed(0)
    dev = torch.device("cuda")
    layer = torch.nn.TransformerEncoderLayer(args.dim, args.heads, dim_feedforward=4 * args.dim, dropout=0.0,
                                             batch_first=True, norm_first=True, device=dev)
    head = torch.nn.Linear(args.dim, args.dim, device=dev)
    params = list(layer.parameters()) + list(head.parameters())
    opt = torch.optim.AdamW(params, lr=1e-3, fused=True)
    x = torch.randn(args.batch, args.seq, args.dim, device=dev)
    target = torch.randn(args.batch, args.seq, args.dim, device=dev)
    losses = []
    t0 = time.perf_counter()
    for _ in range(args.steps):
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            y = head(layer(x))
        loss = torch.nn.functional.mse_loss(y.float(), target)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    elapsed = time.perf_counter() - t0
    print(f"transformer_step: {args.steps} steps, losses {' '.join(f'{v:.6f}' for v in losses)}, {elapsed:.3f} s")
    ok = all(math.isfinite(v) for v in losses) and losses[-1] < losses[0]
    print("results correct" if ok else "results WRONG: a loss is not finite or did not fall")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

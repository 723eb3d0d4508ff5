"""A small convolutional network's training step for `roofline profile`, written after the
from-run prediction's last change (2026-11-28) to judge it on kernels it was not worked out on:
cuDNN convolutions forward and backward, batch norm, ReLU, max pooling, global average pooling, a
linear layer, cross-entropy and SGD with momentum, in FP32 and, with --amp, BF16 autocast.
Run: roofline profile -- python3 tests/profile/conv_step.py"""
import argparse
import time

import torch
from torch import nn


def network(dev):
    return nn.Sequential(
        nn.Conv2d(3, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(64, 128, 3, padding=1), nn.BatchNorm2d(128), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(128, 256, 3, padding=1), nn.BatchNorm2d(256), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(256, 10)).to(dev)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--size", type=int, default=96, help="image side")
    p.add_argument("--amp", action="store_true", help="BF16 autocast")
    args = p.parse_args()
    torch.manual_seed(0)
    dev = torch.device("cuda")
    model = network(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = torch.randn(args.batch, 3, args.size, args.size, device=dev)
    y = torch.randint(0, 10, (args.batch,), device=dev)
    loss_fn = nn.CrossEntropyLoss()
    t0 = time.perf_counter()
    for _ in range(args.steps):
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=args.amp):
            loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
    torch.cuda.synchronize()
    print(f"conv_step: {args.steps} steps, loss {loss.item():.4f}, {time.perf_counter() - t0:.3f} s")


if __name__ == "__main__":
    main()

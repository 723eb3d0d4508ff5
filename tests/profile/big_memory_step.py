"""A PyTorch script that holds most of the GPU's memory, as training a large model does: tensors
filling --fraction of the device memory (PyTorch's caching allocator reserves them in large
segments), and a few steps of small kernels over a small part of them, checked against the CPU.
Run: roofline profile -- python3 tests/profile/big_memory_step.py"""
import argparse
import sys
import time

import torch


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--fraction", type=float, default=0.6, help="share of the device memory to fill")
    p.add_argument("--steps", type=int, default=3)
    args = p.parse_args()
    dev = torch.device("cuda")
    total = torch.cuda.get_device_properties(dev).total_memory
    chunk = 1 << 30
    held = [torch.ones(chunk // 4, device=dev) for _ in range(int(total * args.fraction) // chunk)]
    x = torch.arange(1 << 20, device=dev, dtype=torch.float32)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(args.steps):
        x = x * 2.0 + 1.0           # two elementwise kernels on 4 MiB
        held[0][: 1 << 20] += 1.0   # an in-place update inside one held gigabyte
        float(x[0])                 # the step's end reads a value back, as a loss.item() does
    torch.cuda.synchronize()
    want = torch.arange(1 << 20, dtype=torch.float64)
    for _ in range(args.steps):
        want = want * 2.0 + 1.0
    ok = torch.equal(x.cpu().double(), want) and float(held[0][0]) == 1.0 + args.steps and float(held[0][-1]) == 1.0
    print(f"big_memory_step: {len(held)} GiB held, {args.steps} steps in {time.perf_counter() - t0:.2f} s, "
          f"results {'correct' if ok else 'WRONG'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

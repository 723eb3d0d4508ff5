"""A PyTorch loop of many tiny kernels (an in-place add on 1024 floats, --launches times), as an
optimizer over many small tensors or a long decode loop makes, checked at the end.
Run: roofline profile --launch-count 100 -- python3 tests/profile/many_launches.py"""
import argparse
import sys
import time

import torch


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--launches", type=int, default=50000)
    args = p.parse_args()
    x = torch.zeros(1024, device="cuda")
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(args.launches):
        x.add_(1.0)
    torch.cuda.synchronize()
    elapsed = time.perf_counter() - t0
    ok = bool((x == float(args.launches)).all())
    print(f"many_launches: {args.launches} launches in {elapsed:.2f} s ({elapsed / args.launches * 1e6:.1f} us each), "
          f"results {'correct' if ok else 'WRONG'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

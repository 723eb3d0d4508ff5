"""Data-parallel training across GPUs for `roofline profile`: one process per GPU (torchrun),
a small MLP wrapped in DistributedDataParallel, whose gradients NCCL all-reduces between the
GPUs every step. Each rank prints "results correct" when, after the steps, every rank holds the
same parameters (the all-reduce worked), and exits 1 otherwise.
Run: roofline profile -- torchrun --standalone --nproc_per_node=2 tests/profile/ddp_step.py"""
import argparse
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--dim", type=int, default=2048)
    args = p.parse_args()
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", rank)))
    torch.manual_seed(0)  # the same initial parameters on every rank
    model = torch.nn.Sequential(torch.nn.Linear(args.dim, 4 * args.dim), torch.nn.ReLU(),
                                torch.nn.Linear(4 * args.dim, args.dim)).cuda()
    ddp = DistributedDataParallel(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=1e-2)
    torch.manual_seed(1 + rank)  # each rank its own batch
    x = torch.randn(256, args.dim, device="cuda")
    for _ in range(args.steps):
        opt.zero_grad(set_to_none=True)
        loss = ddp(x).square().mean()
        loss.backward()
        opt.step()
    # Every rank must hold the same parameters: their sum, all-reduced, is the world size times ours.
    mine = torch.stack([q.double().sum() for q in model.parameters()]).sum()
    total = mine.clone()
    dist.all_reduce(total)
    ok = bool(torch.isclose(total, mine * dist.get_world_size(), rtol=1e-9))
    print(f"ddp_step rank {rank}: {args.steps} steps, loss {loss.item():.6f}, parameter sum {mine.item():.9g}")
    print("results correct" if ok else "results WRONG: the ranks' parameters differ")
    dist.destroy_process_group()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

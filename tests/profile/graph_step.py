"""A PyTorch workload whose kernels run inside CUDA graphs, for `roofline profile`, written apart from
the code it tests: an MLP compiled with torch.compile(mode="reduce-overhead") and trained a few
steps (its forward and backward passes are Inductor's Triton kernels and cuBLAS GEMMs, recorded
into CUDA graphs by PyTorch's graph trees and replayed from its private memory pool; the loss and
the optimizer run eagerly), and another MLP's forward pass captured by hand with
torch.cuda.CUDAGraph and replayed on new inputs copied into its static input. Every result is
checked against the same computation run eagerly. Exits 1 if a result is wrong.
Run: roofline profile -- python3 tests/profile/graph_step.py"""
import argparse
import copy
import sys
import time

import torch


def mlp(width, depth):
    layers = []
    for _ in range(depth):
        layers += [torch.nn.Linear(width, width), torch.nn.LayerNorm(width), torch.nn.GELU()]
    return torch.nn.Sequential(*layers).cuda()


def train_step(model, opt, x, y):
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad()
    return loss.detach()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=6, help="training steps (the first ones record the graphs)")
    p.add_argument("--replays", type=int, default=4, help="replays of the hand-captured forward graph")
    p.add_argument("--batch", type=int, default=4096)
    p.add_argument("--width", type=int, default=1024)
    p.add_argument("--depth", type=int, default=3)
    args = p.parse_args()
    torch.manual_seed(0)
    dev = torch.device("cuda")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    xs = [torch.randn(args.batch, args.width, device=dev) for _ in range(args.steps)]
    ys = [torch.randn(args.batch, args.width, device=dev) for _ in range(args.steps)]

    # Training under torch.compile's CUDA graphs, against the same steps run eagerly.
    eager = mlp(args.width, args.depth)
    graphed = copy.deepcopy(eager)
    eager_opt = torch.optim.SGD(eager.parameters(), lr=1e-2)
    graphed_opt = torch.optim.SGD(graphed.parameters(), lr=1e-2)
    compiled = torch.compile(graphed, mode="reduce-overhead")
    t0 = time.perf_counter()
    losses, eager_losses = [], []
    for x, y in zip(xs, ys):
        torch.compiler.cudagraph_mark_step_begin()
        losses.append(train_step(compiled, graphed_opt, x, y))
        eager_losses.append(train_step(eager, eager_opt, x, y))
    torch.cuda.synchronize()
    train_ok = all(torch.allclose(a, b, rtol=1e-3, atol=1e-5) for a, b in zip(losses, eager_losses)) and all(
        torch.allclose(a, b, rtol=1e-3, atol=1e-4) for a, b in zip(graphed.parameters(), eager.parameters()))

    # A forward pass captured by hand and replayed on new inputs.
    model = mlp(args.width, args.depth).eval()
    static_x = torch.zeros(args.batch, args.width, device=dev)
    with torch.no_grad():
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(2):
                model(static_x)
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            static_y = model(static_x)
        forward_ok = True
        for i in range(args.replays):
            static_x.copy_(xs[i % len(xs)])
            graph.replay()
            forward_ok &= torch.allclose(static_y, model(xs[i % len(xs)]), rtol=1e-4, atol=1e-5)
    torch.cuda.synchronize()
    ok = train_ok and forward_ok
    print(f"graph_step: {args.steps} compiled training steps, {args.replays} graph replays, "
          f"{time.perf_counter() - t0:.3f} s, losses {losses[0].item():.5f} .. {losses[-1].item():.5f}, "
          f"{'results correct' if ok else 'RESULTS WRONG'} (training {train_ok}, forward {forward_ok})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

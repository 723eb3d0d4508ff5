"""Exploratory: the host wall-clock time per call of a loop of back-to-back PyTorch adds (the
method of the RTX 5090 elementwise-add blog figures: 1000 calls after 10 warm-up calls, one
synchronisation, the time over 1000), at sizes from a few elements (the host's floor) to 2^24,
beside the same adds timed as a CUDA graph of 1000 (no host in the loop). Prints one line per size.
Run on the device machine: python3 scripts/device/torch_loop_probe.py"""
import time

import torch

CALLS = 1000
print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}")
print(f"{'N':>10} {'dtype':>8} {'host loop, us per call':>24} {'graph of 1000, us per add':>27}")
for dtype in (torch.float32, torch.float16):
    for n in (1 << 10, 1 << 20, 1 << 24):
        a, b = torch.rand(n, device="cuda", dtype=dtype), torch.rand(n, device="cuda", dtype=dtype)
        c = torch.empty_like(a)
        for _ in range(10):
            torch.add(a, b, out=c)
        torch.cuda.synchronize()
        loops = []
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(CALLS):
                torch.add(a, b, out=c)
            torch.cuda.synchronize()
            loops.append((time.perf_counter() - start) / CALLS * 1e6)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for _ in range(CALLS):
                torch.add(a, b, out=c)
        graph.replay()
        torch.cuda.synchronize()
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        stop.record()
        stop.synchronize()
        per_add = start.elapsed_time(stop) * 1e3 / CALLS
        print(f"{n:>10} {str(dtype).split('.')[-1]:>8} {sorted(loops)[2]:>24.2f} {per_add:>27.2f}")

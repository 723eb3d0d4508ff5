#!/usr/bin/env python3
"""cuBLAS's tensor-core GEMMs in a committed profile (the H200's transformer step,
docs/results/h200/transformer/transformer.db) against the warpgroup-MMA rate of the GPU file:
each launch's measured BF16 tensor-core operations at `tensor_wgmma_fma_per_clock_per_sm` x SMs x
clock (read from `roofline gpus --format json`), the time a spec with op = "wgmma" gives its
compute bound, over the time it took; beside it the tensor pipe's measured busy share. Grouped
by kernel and operations: launches, the range of the share, the range of the pipe's.

Usage: wgmma_share.py ROOFLINE DB GPU > part.md
"""
import json
import sqlite3
import subprocess
import sys

from profile_db import launch_counters

OPS = "sm__ops_path_tensor_src_bf16_dst_fp32.sum"
PIPE = "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed"


def main():
    roofline, db_path, gpu_id = sys.argv[1:4]
    gpus = json.loads(subprocess.run([roofline, "gpus", "--format", "json"], check=True, capture_output=True,
                                     text=True).stdout)
    param = {k: v["value"] for k, v in next(g for g in gpus if g["id"] == gpu_id)["params"].items()}
    rate = 2 * param["tensor_wgmma_fma_per_clock_per_sm"] * param["sm_count"] * param["sm_clock_hz"]  # FLOP/s
    if rate <= 0:
        sys.exit(f"wgmma_share.py: {gpu_id} has no warpgroup MMA")
    db = sqlite3.connect(db_path)
    groups = {}
    for launch_id, kernel, us in db.execute("SELECT launch_id, kernel, duration_us FROM v_profile_launches"):
        counters = launch_counters(db, launch_id)
        ops = counters.get(OPS, 0)
        if ops > 0:
            groups.setdefault((kernel.split("(")[0], ops), []).append((ops / rate / (us * 1e-6), counters.get(PIPE)))
    print(f"At {rate / 1e12:.1f} TFLOP/s ({gpu_id}):")
    print()
    print("| kernel | tensor-core operations | launches | time at that rate / time taken | tensor pipe busy |")
    print("|---|---:|---:|---:|---:|")
    for (kernel, ops), v in sorted(groups.items(), key=lambda kv: -kv[0][1]):
        shares, pipes = [s for s, _ in v], [p for _, p in v]
        print(f"| `{kernel[:60]}` | {ops:.4g} | {len(v)} | {min(shares) * 100:.0f}–{max(shares) * 100:.0f} % | "
              f"{min(pipes):.0f}–{max(pipes):.0f} % |")


if __name__ == "__main__":
    main()

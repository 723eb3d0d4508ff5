#!/usr/bin/env python3
"""`roofline predict --from-run` judged on every program profiled on both GPUs: each H100 profile
predicted on the H200 (the H200 model's catalog values), beside the same program's H200 profile.
Per program, per kernel (its launches' times summed) and per launch by the limiter the H100's
counters gave it.

Usage (from the repo root): from_run_programs.py ROOFLINE > part.md

The programs the prediction's rounds and empty kernel were worked out on (2026-11-28): the PyTorch
training step, the transformer step, the Triton script, the C++ extension, the CUDA-graph program,
and NVIDIA's CUDA samples. Held out from that work, read only once it was done: the five users'
CUDA programs of the drafts' pages (chain, loop, tensor and two staged-kernel programs), each
profiled on both GPUs. Archives are unpacked to a scratch folder. Launches are matched by kernel
and occurrence (profile_prediction.py). The test program profiled by the GPU tests of one build
on both GPUs is held out too, read after the last change.

Then the suite runs made on both GPUs (the whole suite, and the second to eighth held-out
batches): each H100 run's launches predicted on the H200 from their counters and event-timed
medians, beside the H200 run's, matched by kernel, size and cache state; a build that cannot
predict a suite run from its counters says so.
"""
import collections
import os
import sqlite3
import statistics
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from profile_prediction import from_run_rows, matched_launches, median_abs, seconds, within  # noqa: E402

roofline = sys.argv[1]
programs = [("PyTorch training step", "docs/results/h100/profile-vs-ncu/torch.db", 1, "docs/results/h200/h200.db", 3)]
for name, page in [("transformer", "transformer step"), ("triton", "Triton script"), ("extension", "C++ extension"),
                   ("graph", "CUDA graphs")]:
    programs.append((page, f"docs/results/h100/{name}/{name}.db", 1, f"docs/results/h200/{name}/{name}.db", 1))
scratch = tempfile.mkdtemp()
samples = {}
for gpu in ("h100", "h200"):
    with tarfile.open(f"docs/results/{gpu}/cuda-samples/module-variables.tar.gz") as t:
        t.extractall(f"{scratch}/{gpu}", filter="data")
    samples[gpu] = f"{scratch}/{gpu}/cuda-samples/samples.db"
    sqlite3.connect(samples[gpu]).execute("PRAGMA wal_checkpoint(TRUNCATE)")
for run, command in sqlite3.connect(samples["h100"]).execute("SELECT id, command_line FROM runs ORDER BY id"):
    sample = command.split("-- ./")[-1].split()[0]
    programs.append((f"CUDA sample {sample}", samples["h100"], run, samples["h200"], run))
shaped = len(programs)
for page, folder in [("chain-kernels", "chain"), ("loop-kernels", "loop"), ("tensor-kernels", "tensor"),
                     ("staged-kernels", "staged"), ("staged-kernels-2", "staged2")]:
    dbs = []
    for gpu in ("h100", "h200"):
        with tarfile.open(f"docs/results/{gpu}/{page}/profile.tar.gz") as t:
            t.extractall(f"{scratch}/{gpu}-{page}", filter="data")
        dbs.append(f"{scratch}/{gpu}-{page}/{folder}/{folder}.db")
        sqlite3.connect(dbs[-1]).execute("PRAGMA wal_checkpoint(TRUNCATE)")
    programs.append((f"user program {folder} (held out)", dbs[0], 1, dbs[1], 1))
# The test program's profile in the GPU tests of the same build on each GPU, read after the last
# change to the prediction.
programs.append(("test program profile_app (held out)", "docs/results/h100/gpu-tests-7004d35/profile_app.db", 1,
                 "docs/results/h200/gpu-tests-229bbe7/profile_app.db", 1))
held_out = len(programs)
# Written and run after the waves' floor and the stores' end (2026-11-28, de80cac): a convolutional
# network's training step, FP32 and BF16 autocast (tests/profile/conv_step.py).
for run, mode in [(1, "FP32"), (2, "BF16 autocast")]:
    programs.append((f"CNN training step, {mode} (written after)", "docs/results/h100/conv/conv.db", run,
                     "docs/results/h200/conv/conv.db", run))




print("| program | kernels | within ±10 % | median \\|error\\| | launches | within ±10 % |")
print("|---|---:|---:|---:|---:|---:|")
all_kernels, all_launches = [], []
by_limiter = collections.defaultdict(list)


def total(label, kernels, launches):
    print(f"| **{label}** | {len(kernels)} | {within(kernels)} | {100 * median_abs(kernels):.1f} % | "
          f"{len(launches)} | {within(launches)} |")


for index, (label, source_db, src_run, target_db, run) in enumerate(programs):
    if index == shaped:
        total("the programs it was worked out on", all_kernels, all_launches)
        shaped_kernels, shaped_launches = len(all_kernels), len(all_launches)
    if index == held_out:
        total("the held-out programs", all_kernels[shaped_kernels:], all_launches[shaped_launches:])
        held_kernels, held_launches = len(all_kernels), len(all_launches)
    launches = matched_launches(roofline, source_db, src_run, target_db, run, "h200")
    sums = collections.defaultdict(lambda: [0.0, 0.0])
    for name, _, _, predicted, measured, limiter in launches:
        sums[name][0] += predicted
        sums[name][1] += measured
        all_launches.append(predicted / measured - 1)
        if index < shaped:
            by_limiter[limiter].append(predicted / measured - 1)
    kernels = [p / m - 1 for p, m in sums.values()]
    all_kernels += kernels
    launch_errors = [p / m - 1 for _, _, _, p, m, _ in launches]
    print(f"| {label} | {len(kernels)} | {within(kernels)} | {100 * median_abs(kernels):.1f} % | "
          f"{len(launch_errors)} | {within(launch_errors)} |")
total("the programs written after", all_kernels[held_kernels:], all_launches[held_launches:])
total("all programs", all_kernels, all_launches)
print("\nThe programs it was worked out on, by the limiter their launches had on the H100:\n")
print("| limiter on the H100 | launches | within ±10 % | median error |")
print("|---|---:|---:|---:|")
for limiter, errors in sorted(by_limiter.items(), key=lambda kv: -len(kv[1])):
    print(f"| {limiter} | {len(errors)} | {within(errors)} | {100 * statistics.median(errors):+.1f} % |")


def suite_errors(source_db, target_db):
    """Each launch of SOURCE_DB's suite run predicted on the H200 beside TARGET_DB's measurement."""
    def last_suite_run(db):
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        return con.execute("SELECT max(id) FROM runs WHERE kind = 'suite'").fetchone()[0]
    src_run, dst_run = last_suite_run(source_db), last_suite_run(target_db)
    try:
        rows = from_run_rows(roofline, source_db, src_run, "h200")
    except subprocess.CalledProcessError:
        return None
    predicted = {r["kernel"]: r for r in rows if r["predicted"] != "-"}
    errors = collections.defaultdict(list)
    for kernel, n, cache, ms in sqlite3.connect(f"file:{target_db}?mode=ro", uri=True).execute(
            "SELECT kernel, n, cache, meas_ms FROM v_launches WHERE run_id = ?", (dst_run,)):
        row = predicted.get(f"{kernel} n={n} {cache}")
        if row and ms:
            errors[row["limiter"]].append(seconds(row["predicted"]) / (ms * 1e-3) - 1)
    return errors


print("\nThe suite runs, each H100 run's launches predicted on the H200 from their counters:\n")
suites = [("whole suite (whole-suite-5)", "whole-suite-5")] + [
    (f"held-out batch {k}", f"held-out-batch{'' if k == 2 else k}") for k in range(2, 9)]
rows = []
for label, folder in suites:
    errors = suite_errors(f"docs/results/h100/{folder}/suite.db", f"docs/results/h200/{folder}/suite.db")
    if errors is None:
        print("This build cannot predict a suite run from its counters (`--from-run` takes profile and import runs).")
        break
    rows.append((label, [e for v in errors.values() for e in v], errors))
if rows:
    print("| suite run | launches | within ±10 % | median \\|error\\| | by the H100's limiter: within ±10 % of |")
    print("|---|---:|---:|---:|---|")
    for label, errors, by in rows:
        limiters = ", ".join(f"{k} {within(v)} of {len(v)}" for k, v in sorted(by.items(), key=lambda kv: -len(kv[1])))
        print(f"| {label} | {len(errors)} | {within(errors)} | {100 * median_abs(errors):.1f} % | {limiters} |")

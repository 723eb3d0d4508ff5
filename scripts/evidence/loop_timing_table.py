#!/usr/bin/env python3
"""The suite's kernels timed as a benchmark loop and by an event pair, beside the model's
predictions of both (`roofline predict --timing loop|event --cache warm`), with the calibration
the same device made. Reads a folder written by scripts/device/loop_timing.sh (loop.db,
measure-loop.out, measure-event.out); prints a markdown page.

usage: loop_timing_table.py ROOFLINE FOLDER GPU_MODEL 'COMMAND THAT MADE FOLDER'
"""
import csv
import statistics
import subprocess
import sys

WITHIN = 0.10  # the duration target: |predicted / measured - 1| <= 10 %


def measured(path):
    rows = csv.DictReader(open(path))
    return {(r["kernel"], int(r["n"]), r["dtype"]): float(r["median_s"])
            for r in rows if r["verified"] == "true" and float(r["median_s"]) > 0}


def predicted(binary, folder, gpu, timing):
    out = subprocess.run([binary, "predict", "--db", f"{folder}/loop.db", "--gpu", gpu, "--cache", "warm",
                          "--timing", timing, "--n", "2^20,2^24", "--format", "csv"],
                         check=True, capture_output=True, text=True).stdout
    return {(r["kernel"], int(r["n"]), r["dtype"]): float(r["duration_s"]) for r in csv.DictReader(out.splitlines())}


def us(seconds):
    return f"{seconds * 1e6:.2f} µs"


def main():
    binary, folder, gpu, command = sys.argv[1:5]
    meas = {t: measured(f"{folder}/measure-{t}.out") for t in ("loop", "event")}
    pred = {t: predicted(binary, folder, gpu, t) for t in ("loop", "event")}
    keys = [k for k in meas["loop"] if k in meas["event"] and k in pred["loop"] and k in pred["event"]]
    errors = {t: {k: pred[t][k] / meas[t][k] - 1 for k in keys} for t in ("loop", "event")}

    print("# A benchmark loop's time per launch, measured and predicted\n")
    print(f"Made by `{command}` (the device's output in this folder), then "
          f"`python3 scripts/evidence/loop_timing_table.py ROOFLINE {folder} {gpu} '...'`: every kernel of the "
          "suite at 2^20 and 2^24 elements, warm, measured by `roofline measure --timing loop` (chunks of 64 "
          "back-to-back launches, an event pair around each chunk, the median time per launch) and `--timing "
          "event` (an event pair around each launch, eight queued at a time), each beside `roofline predict "
          f"--timing loop|event --cache warm --gpu {gpu} --db loop.db` with the calibration the same device made "
          "first (its `launch_throughput_ns`: an empty kernel's period back to back).\n")
    print("| timing | N | launches | within ±10 % | median \\|error\\| |")
    print("|---|---:|---:|---:|---:|")
    for t in ("loop", "event"):
        for n in (1 << 20, 1 << 24):
            e = [abs(errors[t][k]) for k in keys if k[1] == n]
            if not e:
                continue
            ok = sum(x <= WITHIN * (1 + 1e-12) for x in e)
            print(f"| {t} | 2^{n.bit_length() - 1} | {len(e)} | {ok} ({100 * ok / len(e):.1f} %) | "
                  f"{100 * statistics.median(e):.1f} % |")
    print()
    print("Every launch (errors are predicted / measured − 1; loop/event: the measured loop's time over the "
          "event pair's):\n")
    print("| kernel | N | dtype | loop, measured | loop, predicted | error | event, measured | event, predicted "
          "| error | loop/event |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for k in sorted(keys, key=lambda k: (k[1], k[0])):
        print(f"| {k[0]} | {k[1]} | {k[2]} | {us(meas['loop'][k])} | {us(pred['loop'][k])} | "
              f"{100 * errors['loop'][k]:+.1f} % | {us(meas['event'][k])} | {us(pred['event'][k])} | "
              f"{100 * errors['event'][k]:+.1f} % | {meas['loop'][k] / meas['event'][k]:.2f} |")


if __name__ == "__main__":
    main()

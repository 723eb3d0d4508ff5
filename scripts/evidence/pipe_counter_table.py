#!/usr/bin/env python3
"""A pipe's counter predicted from a user's program's specs beside what its profile measured: the
first launch of each kernel at each size of a program that runs its kernels five times each, size by
size (2^20, 2^22, 2^24), as tests/profile/staged_check.cuh's `run` does.

Usage: pipe_counter_table.py ROOFLINE SPECS DB METRIC KERNEL... > table.md
"""
import json
import sqlite3
import subprocess
import sys


def main():
    roofline, specs, db, metric = sys.argv[1:5]
    kernels = sys.argv[5:]
    con = sqlite3.connect(db)
    print("| kernel | N | predicted | measured |")
    print("|---|---:|---:|---:|")
    for k, kernel in enumerate(kernels):
        for s, exponent in enumerate([20, 22, 24]):
            out = subprocess.run([roofline, "predict", "--spec", specs, "--gpu", "h200", "--kernel", kernel, "--n",
                                  f"2^{exponent}", "--cache", "cold", "--format", "json"],
                                 capture_output=True, text=True, check=True).stdout
            predicted = json.loads(out)["predictions"][0]["counters"][metric]
            (measured,) = con.execute(
                "SELECT v.value FROM profiled_values v JOIN metrics m ON m.id = v.metric_id JOIN v_profile_launches "
                "l ON l.launch_id = v.profiled_launch_id WHERE m.name = ? AND l.seq = ?",
                (metric, 1 + 5 * len(kernels) * s + 5 * k)).fetchone()
            print(f"| `{kernel}` | 2^{exponent} | {predicted:.0f} | {measured:.0f} |")


if __name__ == "__main__":
    main()

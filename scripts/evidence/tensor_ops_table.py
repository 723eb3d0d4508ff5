#!/usr/bin/env python3
"""The tensor-kernels program's tensor-core operations (sm__ops_path_tensor_src_fp16.sum) at each
size: what `roofline predict` gives from the specs, what `roofline profile` measured (the first
launch of each size) and what ncu measured (its CSV, the same launch), as a markdown table.

Usage: tensor_ops_table.py ROOFLINE SPECS GPU PROFILE_TAR NCU_TAR > part.md
"""
import csv
import json
import os
import sqlite3
import subprocess
import sys
import tarfile
import tempfile

from profile_db import launch_counters
from user_program_kernels import PROGRAMS, SIZES

METRIC = "sm__ops_path_tensor_src_fp16.sum"


def unpack(path):
    scratch = tempfile.mkdtemp()
    with tarfile.open(path) as tar:
        tar.extractall(scratch, filter="data")
    return scratch


def ncu_values(folder):
    """Kernel name -> its launches' values of METRIC, in launch order."""
    name = next(f for f in os.listdir(folder) if f.endswith(".csv"))
    rows = [r for r in csv.reader(open(f"{folder}/{name}")) if r]
    header = next(r for r in rows if r[0] == "ID")
    out = {}
    for r in rows[rows.index(header) + 1:]:
        d = dict(zip(header, r))
        if d["Metric Name"] == METRIC:
            out.setdefault(d["Kernel Name"].split("(")[0], []).append(float(d["Metric Value"].replace(",", "")))
    return out


def main():
    roofline, specs, gpu, profile_tar, ncu_tar = sys.argv[1:6]
    profile, ncu = unpack(profile_tar) + "/tensor", ncu_values(unpack(ncu_tar) + "/ncu")
    db = sqlite3.connect(f"{profile}/tensor.db")
    print(f"| kernel | predicted | `roofline profile` | ncu |")
    print("|---|---:|---:|---:|")
    for spec_kernel, kernel in PROGRAMS["tensor"].items():
        measured = [launch_counters(db, r[0]).get(METRIC) for r in db.execute(
            "SELECT launch_id FROM v_profile_launches WHERE kernel = ? ORDER BY seq", (kernel,))]
        for k, (exponent, n) in enumerate(SIZES["tensor"].items()):
            out = subprocess.run([roofline, "predict", "--spec", specs, "--gpu", gpu, "--kernel", spec_kernel, "--n",
                                  str(n), "--cache", "cold", "--format", "json"], check=True, capture_output=True,
                                 text=True).stdout
            predicted = json.loads(out)["predictions"][0]["counters"][METRIC]
            print(f"| `{spec_kernel} 2^{exponent}` | {predicted:.6g} | {measured[5 * k]:.6g} | "
                  f"{ncu[spec_kernel][5 * k]:.6g} |")


if __name__ == "__main__":
    main()

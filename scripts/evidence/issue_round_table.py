#!/usr/bin/env python3
"""The issue-round probe (scripts/device/issue_round_probe.sh) beside the model: for each K, the
measured time of the kernel without and with a barrier between its load and its FMAs, and what
`roofline predict` gives for the same kernels' specs with a stored calibration.
Usage: issue_round_table.py ROOFLINE PROBE_TXT SPEC_TOML DB GPU [N]   (N: 2^26, the default, or 2^22)"""
import csv
import subprocess
import sys

roofline, probe, spec, db, gpu = sys.argv[1:6]
n_text = sys.argv[6] if len(sys.argv) > 6 else "2^26"
n = {"2^26": 1 << 26, "2^22": 1 << 22}[n_text]
out = subprocess.run([roofline, "predict", "--spec", spec, "--n", n_text, "--db", db, "--gpu", gpu,
                      "--format", "csv"], capture_output=True, text=True, check=True).stdout
predicted = {r["kernel"]: float(r["duration_s"]) * 1e6 for r in csv.DictReader(out.splitlines())}
measured = {}
for line in open(probe):
    f = line.split()
    if len(f) == 5 and f[0] == str(n):
        measured[("issue_b" if f[2] == "1" else "issue_k") + f[1]] = float(f[3])
ks = sorted({int(k[7:]) for k in measured})
print(f"n = {n_text}; times in µs; error = (predicted - measured) / measured.")
print()
print("| K | no barrier: measured | predicted | error | barrier: measured | predicted | error |")
print("|---:|---:|---:|---:|---:|---:|---:|")
for k in ks:
    cells = []
    for name in (f"issue_k{k}", f"issue_b{k}"):
        m, p = measured[name], predicted[name]
        cells += [f"{m:.1f}", f"{p:.1f}", f"{100 * (p / m - 1):+.1f} %"]
    print(f"| {k} | " + " | ".join(cells) + " |")

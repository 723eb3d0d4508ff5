#!/usr/bin/env python3
"""Every model parameter `roofline calibrate` measures, across every calibration committed under
docs/results/ (each calibration counted once, however many databases hold a copy), per GPU model:
how many calibrations and devices measured it, the median and range, and the value the GPU model's
file carries beside its source. A file value (other than a datasheet peak) outside the measured
range is marked.

Usage: calibration_spread.py ROOFLINE > docs/results/calibration-spread.md
"""
import glob
import json
import lzma
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile

roofline = sys.argv[1]
# Keys older calibrations stored a parameter under, before the model used it.
RENAMED = {"extra.dram_cold_wave_excess_ns": "launch_fill_ns"}
values = {}  # model -> parameter -> [(value, device)]
seen = set()
# The launch terms are timed eight launches at a time since 2026-11-27 (kernels/queued_timing.hpp;
# the first such calibration was docs/results/h100/small-launch/'s experiment): the calibrations
# before it, which queued up to 64, are listed apart.
TIMED_64 = ("launch_overhead_ns", "launch_fill_ns", "block_wave_launch_ns")
TIMED_EIGHT_SINCE = "2026-11-27T04:55"
# Keys that only an experimental calibrate step stored, which the step's code no longer measures:
# listed apart, named by the folder that says why.
EXPERIMENTS = {"l2_resident_hi_fraction": "the copy sweep of docs/results/h200/copy-residency/, not used"}
# Superseded runs' databases are committed xz-compressed (suite.db.xz): read from an unpacked copy.
unpacked = tempfile.TemporaryDirectory()
databases = glob.glob("docs/results/**/*.db", recursive=True) + glob.glob("docs/results/**/*.db.xz", recursive=True)
for db in sorted(databases):
    if db.endswith(".xz"):
        copy = os.path.join(unpacked.name, db.replace("/", "_")[:-3])
        with lzma.open(db) as src, open(copy, "wb") as dst:
            shutil.copyfileobj(src, dst)
        db = copy
    try:
        con = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
        rows = con.execute("SELECT model_id, calibrated_at, device_uuid, key, value FROM v_calibrations").fetchall()
    except sqlite3.Error:
        continue  # not a roofline database, or one made before calibrations were stored
    for model, at, device, key, value in rows:
        key = RENAMED.get(key, key)
        if key.startswith("extra.") or (at, device, key) in seen:
            continue
        seen.add((at, device, key))
        if key in TIMED_64 and at < TIMED_EIGHT_SINCE:
            key += " (timed 64 at a time)"
        if key in EXPERIMENTS:
            key += f" ({EXPERIMENTS[key]})"
        values.setdefault(model, {}).setdefault(key, []).append((value, device))

models = {m["id"]: m for m in json.loads(subprocess.run([roofline, "gpus", "--format", "json"], check=True,
                                                        capture_output=True, text=True).stdout)}


def fmt(v):
    return f"{v:.4g}"


print("# Calibrated parameters across devices\n")
print("Made by `python3 scripts/evidence/calibration_spread.py build-cpu/cli/roofline` from every")
print("`roofline calibrate` run stored in the databases under `docs/results/` (each calibration once).")
print("Per GPU model and parameter: the calibrations and distinct devices that measured it, their")
print("median and range, the spread (range over median), and what the GPU model's file")
print("(`models/gpus/ID.toml`) carries, with its source. `outside` marks a file value, other than a")
print("datasheet peak, outside the measured range (rounding aside). The launch terms are timed eight")
print("launches at a time since 2026-11-27 (`kernels/queued_timing.hpp`); the calibrations before, which")
print("queued up to 64, are listed apart as `(timed 64 at a time)`, as is a value only an experimental")
print("step measured (named with the folder that says why it is not used).\n")
for model in sorted(values):
    params = values[model]
    devices = {d for v in params.values() for _, d in v}
    print(f"## {model}: {len(devices)} devices\n")
    print("| parameter | calibrations | devices | median | range | spread | file value | file source |")
    print("|---|---:|---:|---:|---|---:|---:|---|")
    for key in sorted(params):
        v = [x for x, _ in params[key]]
        med, lo, hi = statistics.median(v), min(v), max(v)
        spread = f"{100 * (hi - lo) / med:.1f} %" if med else "-"
        p = models.get(model, {}).get("params", {}).get(key)
        file_value = fmt(p["value"]) if p else "-"
        # Rounded to three figures counts as inside; a datasheet peak is above what kernels reach.
        if p and p["source"] != "datasheet" and not (lo * 0.995 <= p["value"] <= hi * 1.005):
            file_value += " (outside)"
        print(f"| `{key}` | {len(v)} | {len({d for _, d in params[key]})} | {fmt(med)} | {fmt(lo)}–{fmt(hi)} "
              f"| {spread} | {file_value} | {p['source'] if p else '-'} |")
    print()

#!/usr/bin/env python3
"""The predictions a committed predicted-before.txt holds (one `roofline predict` table per GPU and
timing, under "## GPU, --timing TIMING") beside a profile's medians: how the blind predictions
did, exactly as they were made, whatever the catalog says since.

Usage: blind_from_file.py PREDICTED_BEFORE GPU TIMING PROFILE_TAR
"""
import os
import re
import sqlite3
import statistics
import sys
import tarfile
import tempfile

from user_program_kernels import PROGRAMS, sizes

UNITS = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1.0}


def predicted(path, gpu, timing):
    """(kernel, exponent) -> the predicted time in seconds, from the section of that GPU and timing."""
    out, inside = {}, False
    for line in open(path, encoding="utf-8"):
        if line.startswith("## "):
            inside = line.strip() == f"## {gpu}, --timing {timing}"
            continue
        # The table's columns are two or more spaces apart: kernel, N, dtype, cache, grid x block,
        # occ, bound, runner-up, time, ...
        cells = re.split(r"\s{2,}", line.strip())
        if inside and len(cells) > 8 and cells[1].startswith("2^"):
            value, unit = cells[8].split()
            out[(cells[0], int(cells[1][2:]))] = float(value) * UNITS[unit]
    return out


def main():
    path, gpu, timing, tar_path = sys.argv[1:5]
    scratch = tempfile.mkdtemp()
    with tarfile.open(tar_path) as tar:
        tar.extractall(scratch, filter="data")
    name = next(p for p in PROGRAMS if os.path.isdir(f"{scratch}/{p}"))
    db = sqlite3.connect(f"{scratch}/{name}/{name}.db")
    times = predicted(path, gpu, timing)
    errors = []
    for spec_kernel, kernel in PROGRAMS[name].items():
        launches = [r[0] for r in db.execute(
            "SELECT duration_us FROM v_profile_launches WHERE kernel = ? ORDER BY seq", (kernel,))]
        for k, exponent in enumerate(sizes(name, spec_kernel)):
            measured = statistics.median(launches[5 * k:5 * k + 5]) * 1e-6
            errors.append((times[(spec_kernel, exponent)] - measured) / measured)
    print(f"{sum(abs(e) <= 0.10 for e in errors)} of {len(errors)} within ±10 %, median |error| "
          f"{statistics.median(abs(e) for e in errors) * 100:.1f} % ("
          + ", ".join(f"{e * 100:+.1f} %" for e in errors) + ")")


if __name__ == "__main__":
    main()

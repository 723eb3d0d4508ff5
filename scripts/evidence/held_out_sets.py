#!/usr/bin/env python3
"""The held-out kernels of one whole-suite run, set by set: the first held-out set (named in
docs/results/accuracy/patterns-split.md) and each later batch (the kernel lists of
scripts/device/held_out_batch.sh), judged as `roofline accuracy` judges them, from the
percentages its launch table prints (rounded to 0.1, so a launch at the edge of a band can land
on either side of it).

Usage: held_out_sets.py ROOFLINE DB
"""
import re
import statistics
import subprocess
import sys


def first_set():
    for line in open("docs/results/accuracy/patterns-split.md"):
        if line.startswith("| held out |"):
            return re.findall(r"`([a-z0-9_]+)`", line.split("|")[2])
    raise SystemExit("held_out_sets.py: no '| held out |' row in patterns-split.md")


def batches():
    found = {}
    for line in open("scripts/device/held_out_batch.sh"):
        m = re.match(r"\s*(\d)\) K=([a-z0-9_,]+) ;;", line)
        if m:
            found[int(m.group(1))] = m.group(2).split(",")
    return found


def launches(roofline, db):
    out = subprocess.run([roofline, "accuracy", "--db", db, "--run", "1"], capture_output=True, text=True,
                         check=True).stdout
    rows = []
    for line in out.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 12 and re.fullmatch(r"[-+]?[\d.]+ %", cells[6]):
            counters = [float(c.rstrip(" %")) if re.fullmatch(r"[-+]?[\d.]+ %", c) else None for c in cells[9:13]]
            rows.append((cells[1], float(cells[6].rstrip(" %")), cells[7], cells[8].replace(" ✗", ""), counters))
    return rows


def main():
    roofline, db = sys.argv[1], sys.argv[2]
    rows = launches(roofline, db)
    sets = [("first held-out set", first_set())] + [(f"batch {b}", k) for b, k in sorted(batches().items())]
    print("| held-out set | kernels | launches | within ±10 % | median \\|error\\| | bound = limiter "
          "| DRAM read ±5 % | DRAM write ±5 % | L2 read ±5 % | L2 write ±5 % |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, kernels in sets:
        mine = [r for r in rows if r[0] in kernels]
        if not mine:
            continue
        within = sum(abs(r[1]) <= 10 for r in mine) / len(mine) * 100
        median = statistics.median(abs(r[1]) for r in mine)
        bound = sum(r[2] == r[3] for r in mine) / len(mine) * 100
        counters = []
        for k in range(4):
            known = [r[4][k] for r in mine if r[4][k] is not None]
            counters.append(f"{sum(abs(v) <= 5 for v in known) / len(known) * 100:.1f} %" if known else "—")
        print(f"| {name} | {len(kernels)} | {len(mine)} | {within:.1f} % | {median:.1f} % | {bound:.1f} % | "
              + " | ".join(counters) + " |")


main()

#!/usr/bin/env python3
"""The held-out kernels of one whole-suite run, set by set: the first held-out set (named in
docs/results/accuracy/patterns-split.md) and each later batch (the kernel lists of
scripts/device/held_out_batch.sh), each judged by `roofline accuracy --kernel` on its own.

Usage: held_out_sets.py ROOFLINE DB
"""
import re
import subprocess
import sys

COLUMNS = [
    ("within ±10 %", "duration within ±10 %"),
    ("median \\|error\\|", "median \\|duration error\\|"),
    ("bound = limiter", "predicted bound = measured limiter"),
    ("DRAM read ±5 %", "dram\\_\\_sectors_read.sum within ±5 %"),
    ("DRAM write ±5 %", "dram\\_\\_sectors_write.sum within ±5 %"),
    ("L2 read ±5 %", "lts\\_\\_t_sectors_srcunit_tex_op_read.sum within ±5 %"),
    ("L2 write ±5 %", "lts\\_\\_t_sectors_srcunit_tex_op_write.sum within ±5 %"),
]


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


def judged(roofline, db, kernels):
    """The achieved column of the first targets table, by target (its name as printed, which may
    go on: "duration within ±10 % of the measured median"); None when the run has none of them."""
    r = subprocess.run([roofline, "accuracy", "--db", db, "--run", "1", "--kernel", ",".join(kernels)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        if "has no launch of" in r.stderr:
            return None
        raise SystemExit(r.stderr)
    launches = re.search(r"^(\d+) launches, \d+ compared\.", r.stdout, re.M).group(1)
    achieved = {"launches": launches}
    for line in r.stdout.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)]  # "\|" inside a cell is no border
        if len(cells) == 6 and cells[1] not in achieved:
            achieved[cells[1]] = re.sub(r" of \d+$", "", cells[3])
    return achieved


def main():
    roofline, db = sys.argv[1], sys.argv[2]
    sets = [("first held-out set", first_set())] + [(f"batch {b}", k) for b, k in sorted(batches().items())]
    print("| held-out set | kernels | launches | " + " | ".join(c[0] for c in COLUMNS) + " |")
    print("|---|---:|---:|" + "---:|" * len(COLUMNS))
    for name, kernels in sets:
        a = judged(roofline, db, kernels)
        if a is not None:
            cells = [next((v for k, v in a.items() if k.startswith(c[1])), "—") for c in COLUMNS]
            print(f"| {name} | {len(kernels)} | {a['launches']} | " + " | ".join(cells) + " |")


main()

#!/usr/bin/env python3
"""The table of scripts/device/l2_state_vs_ncu.sh: each kernel's DRAM sector counts at each size
under ncu --cache-control all, then under roofline with 0 to 4 MiB of dirty lines left by its L2
flush, with the difference to ncu. Usage: l2_state_table.py DIR (the script's ncu_*.csv and
rl_*.csv)."""
import csv
import re
import sys

SIZES = ["2_20", "2_22", "2_23", "2_24", "2_25", "2_28"]
DIRTY = [0, 1048576, 2097152, 3145728, 4194304]
METRICS = ["dram__sectors_write.sum", "dram__sectors_read.sum"]


def ncu(path):
    """ncu's raw CSV by suite kernel name; the profiled program's own output may come first."""
    rows = [r for r in csv.reader(open(path)) if r]
    start = next(i for i, r in enumerate(rows) if "Kernel Name" in r)
    header, out = rows[start], {}
    for r in rows[start + 2:]:  # the row after the header holds the units
        d = dict(zip(header, r))
        name = re.sub(r"_kernel\b.*$", "", re.sub(r"^void ", "", d["Kernel Name"]))
        out[name] = d
    return out


def roofline(path):
    return {d["kernel"]: d for d in csv.DictReader(open(path))}


def number(text):
    return float(text.replace(",", ""))


def main(directory):
    for metric in METRICS:
        print(metric)
        for n in SIZES:
            under_ncu = ncu(f"{directory}/ncu_{n}.csv")
            ours = [roofline(f"{directory}/rl_{n}_d{d}.csv") for d in DIRTY]
            for kernel in sorted(under_ncu):
                want = number(under_ncu[kernel][metric])
                cells = []
                for r in ours:
                    got = number(r[kernel][metric])
                    diff = f"{(got - want) / want * 100:+6.1f}%" if want else "   -   "
                    cells.append(f"{got:10.0f}({diff})")
                print(f"{kernel:15s} {n} ncu {want:10.0f} |  d=0,1,2,3,4 MiB: " + " ".join(cells))
        print()


if __name__ == "__main__":
    main(sys.argv[1])

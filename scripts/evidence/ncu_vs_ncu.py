#!/usr/bin/env python3
"""ncu beside itself: two `ncu --csv --page raw` runs of the same launches, compared as
counters_vs_ncu.py compares roofline with ncu (the metrics of a roofline CSV, within 2 %,
percentages within 2 points, and again with the negligible-count rule). Prints one summary
line: ncu's own run-to-run agreement, the ceiling for any tool compared with it.

Usage: ncu_vs_ncu.py NCU_CSV NCU_AGAIN_CSV ROOFLINE_CSV
"""
import collections
import csv
import io
import sys

from counters_vs_ncu import is_percent, number, unit_of


def read(path):
    text = open(path).read()
    rows = list(csv.reader(io.StringIO(text[text.index('"ID"'):])))
    return [dict(zip(rows[0], r)) for r in rows[2:] if len(r) == len(rows[0])]


def keyed(rows):
    """Each row under (kernel name, its occurrence): the two runs may list the kernels in
    different orders, a kernel's launches keep theirs."""
    seen = collections.Counter()
    out = {}
    for r in rows:
        name = r.get("Kernel Name", "")
        out[(name, seen[name])] = r
        seen[name] += 1
    return out


first, again = keyed(read(sys.argv[1])), keyed(read(sys.argv[2]))
metrics = [m for m in csv.DictReader(open(sys.argv[3])).fieldnames if "__" in m]
total = within = within_rule = 0
outside = collections.Counter()
for x, y in ((first[k], again[k]) for k in first if k in again):
    largest = collections.defaultdict(float)
    for m in metrics:
        b = number(y.get(m))
        if b is not None and not is_percent(m):
            largest[unit_of(m)] = max(largest[unit_of(m)], abs(b))
    for m in metrics:
        a, b = number(x.get(m)), number(y.get(m))
        if a is None or b is None:
            continue
        total += 1
        if is_percent(m):
            good = good_rule = abs(a - b) <= 2.0
        else:
            good = a == b or (b != 0 and abs(a - b) / abs(b) <= 0.02)
            reference = max(abs(b), 0.01 * largest[unit_of(m)])
            good_rule = good or (reference > 0 and abs(a - b) / reference <= 0.02)
        within += good
        within_rule += good_rule
        outside[m] += not good_rule
print(f"ncu beside itself (the same launches profiled twice): {total} values, {within} within 2 % "
      f"({100.0 * within / max(total, 1):.1f} %); with the negligible-count rule {within_rule} "
      f"({100.0 * within_rule / max(total, 1):.1f} %); outside: " +
      ", ".join(f"`{m}` {n}" for m, n in outside.most_common() if n))

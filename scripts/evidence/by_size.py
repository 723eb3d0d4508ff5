#!/usr/bin/env python3
"""One stored run judged size by size and cache state by cache state: `roofline accuracy` on it
(the current model), then per (N, cache) the launches within ±10 % of their measured median,
the median error and the launches more than 10 % fast or slow; then every launch together.

Usage: by_size.py ROOFLINE DB [RUN]
"""
import subprocess
import sys


def accuracy_text(roofline, db, run):
    """`roofline accuracy`'s markdown for one run."""
    return subprocess.run([roofline, "accuracy", "--db", db, "--run", run], check=True, capture_output=True,
                          text=True).stdout


def accuracy_rows(roofline, db, run, text=None):
    """The cells of each launch's row of `roofline accuracy`'s table: kernel, N, cache, predicted,
    measured, error, bound, limiter, ... (from `text` where the page was already made)."""
    text = text if text is not None else accuracy_text(roofline, db, run)
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 9 and cells[2].isdigit():
            rows.append(cells[1:-1])
    return rows


def launches(roofline, db, run):
    """(N, cache, error in %) of each launch."""
    return [(int(c[1]), c[2], float(c[5].split()[0])) for c in accuracy_rows(roofline, db, run)]


def line(label, errors):
    errors = sorted(errors)
    n = len(errors)
    within = sum(abs(e) <= 10 for e in errors)
    return (f"| {label} | {n} | {within} ({100 * within / n:.1f} %) | {errors[n // 2]:+.1f} % | "
            f"{sum(e < -10 for e in errors)} | {sum(e > 10 for e in errors)} |")


def main():
    if len(sys.argv) not in (3, 4):
        raise SystemExit(__doc__)
    rows = launches(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else "1")
    print("| N, cache | launches | within ±10 % | median error | > 10 % fast | > 10 % slow |")
    print("|---|---:|---:|---:|---:|---:|")
    for n, cache in sorted({(r[0], r[1]) for r in rows}):
        print(line(f"2^{n.bit_length() - 1} {cache}", [e for m, c, e in rows if (m, c) == (n, cache)]))
    print(line("all", [e for _, _, e in rows]))


if __name__ == "__main__":
    main()

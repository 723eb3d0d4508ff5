#!/usr/bin/env python3
"""Compare `roofline measure --format csv` counters with Nsight Compute's on the same launches.

Usage: counters_vs_ncu.py ROOFLINE_CSV NCU_CSV KERNELS_JSON [--header FILE] > counters-vs-ncu.md

ROOFLINE_CSV: `roofline measure --no-timing --format csv` over some kernels and sizes.
NCU_CSV: `ncu --csv --page raw --print-units base --clock-control none --cache-control all
--metrics <the same names> roofline measure --once ...` over the same kernels and sizes.
KERNELS_JSON: `roofline kernels --format json` (each pass's kernel symbol). Each
roofline launch takes the first ncu row of its kernel symbol not taken yet (the tools may order
the kernels differently); a launch made of several kernels sums their counters (ratios:
duration-weighted mean).
"""
import csv
import json
import io
import re
import sys

PERCENT_LIKE = (".pct", "pct_of_peak")


def read_roofline(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def read_ncu(path):
    text = open(path).read()
    # ncu prints its own log lines (==PROF==) before the CSV: start at the header.
    start = text.index('"ID"')
    rows = list(csv.reader(io.StringIO(text[start:])))
    header, units, data = rows[0], rows[1], rows[2:]
    out = []
    for r in data:
        rec = dict(zip(header, r))
        out.append(rec)
    return header, dict(zip(header, units)), out


def number(s):
    s = (s or "").replace(",", "").strip()
    if s in ("", "n/a"):
        return None
    try:
        return float(s)
    except ValueError:
        return None


def is_percent(metric):
    return any(p in metric for p in PERCENT_LIKE)


def unit_of(metric):
    for unit in ("sectors", "bytes", "inst", "requests"):
        if unit in metric:
            return unit
    return metric


def combine(metric, values, durations):
    values = [v for v in values if v is not None]
    if not values:
        return None
    if metric.endswith(".sum") or metric.endswith(".max") or metric == "launch__registers_per_thread":
        return sum(values) if metric.endswith(".sum") else max(values)
    w = [d or 1.0 for d in durations[: len(values)]]
    return sum(v * x for v, x in zip(values, w)) / sum(w)


def main():
    args = sys.argv[1:]
    header_file = None
    if "--header" in args:
        i = args.index("--header")
        header_file = args[i + 1]
        del args[i : i + 2]
    ours = read_roofline(args[0])
    ncu_header, ncu_units, ncu_rows = read_ncu(args[1])
    metrics = [c for c in ours[0].keys() if "__" in c]
    metrics = [m for m in metrics if m in ncu_header]

    if header_file:
        sys.stdout.write(open(header_file).read())

    # Kernel symbols per launch: one per pass (a cudaMemcpyAsync has none).
    symbols = {k["name"]: [p["symbol"] for p in k["passes"] if p["symbol"]] for k in json.load(open(args[2]))}

    used = set()
    worst = []
    sections = []
    for row in ours:
        name, n = row["kernel"], row["n"]
        syms = symbols.get(name, [])
        if not syms or row["counter_status"] != "collected":
            sections.append(f"\n### {name}, N = {n}\n\nnot compared: {row['counter_status']} "
                            f"(ncu profiles kernels only; `cudaMemcpyAsync` is not one)\n" if not syms else
                            f"\n### {name}, N = {n}\n\nnot compared: counters {row['counter_status']}\n")
            continue
        group = []
        for sym in syms:
            # The first ncu row of this symbol not matched yet: the two tools may list the
            # kernels in different orders, but a symbol's launches keep theirs.
            pos = next((i for i, r in enumerate(ncu_rows)
                        if i not in used and re.search(r"\b" + re.escape(sym) + r"\b", r["Kernel Name"])), None)
            if pos is None:
                sys.exit(f"no ncu row for {name} N={n} ({sym})")
            used.add(pos)
            group.append(ncu_rows[pos])
        durations = [number(g.get("gpu__time_duration.sum")) for g in group]
        # The launch's largest ncu count per unit, for the negligible-count rule.
        largest = {}
        for m in metrics:
            b = combine(m, [number(g[m]) for g in group], durations)
            if b is not None and not is_percent(m):
                largest[unit_of(m)] = max(largest.get(unit_of(m), 0.0), abs(b))
        lines = [f"\n### {name}, N = {n}\n", "| metric | roofline | ncu | difference |", "|---|---:|---:|---:|"]
        for m in metrics:
            a = number(row[m])
            b = combine(m, [number(g[m]) for g in group], durations)
            if a is None or b is None:
                lines.append(f"| `{m}` | {row[m] or '—'} | {'—' if b is None else f'{b:.6g}'} | — |")
                continue
            if is_percent(m):
                diff = a - b
                text = f"{diff:+.2f} points"
                bad = abs(diff) > 2.0
            else:
                diff = (a - b) / b * 100 if b else (0.0 if a == 0 else float("inf"))
                text = f"{diff:+.2f} %"
                bad = abs(diff) > 2.0
            # As roofline's comparisons judge a count: against 1 % of the launch's largest count of
            # the same unit when it is smaller than that (a few hundred residue sectors beside millions).
            reference = max(abs(b), 0.01 * largest.get(unit_of(m), 0.0))
            negligible_ok = not bad or (not is_percent(m) and reference > 0 and abs(a - b) / reference <= 0.02)
            worst.append((bad, abs(diff), name, n, m, a, b, text, not negligible_ok))
            mark = " **(> 2)**" if bad else ""
            lines.append(f"| `{m}` | {a:.6g} | {b:.6g} | {text}{mark} |")
        sections.append("\n".join(lines) + "\n")

    compared = len(worst)
    outside = [w for w in worst if w[0]]
    outside_rule = [w for w in worst if w[8]]
    print(f"\n## Summary\n\n{compared} counter values compared; {compared - len(outside)} within 2 % "
          f"(percentages within 2 points), {len(outside)} outside; judged as roofline's comparisons judge a count "
          f"(a count under 1 % of the launch's largest of its unit against that 1 %): "
          f"{compared - len(outside_rule)} within ({100.0 * (compared - len(outside_rule)) / max(compared, 1):.1f} %).\n")
    if outside:
        print("| kernel | N | metric | roofline | ncu | difference | negligible-count rule |\n|---|---:|---|---:|---:|---:|---|")
        for _, _, name, n, m, a, b, text, still in sorted(outside, key=lambda w: -w[1]):
            print(f"| {name} | {n} | `{m}` | {a:.6g} | {b:.6g} | {text} | {'outside' if still else 'within'} |")
    print("\n## Every launch")
    for s in sections:
        print(s, end="")


if __name__ == "__main__":
    main()

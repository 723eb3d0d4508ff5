#!/usr/bin/env python3
"""Counters of a `roofline profile` run beside Nsight Compute's on the same program.

Usage: profile_vs_ncu.py ROOFLINE_DB NCU_CSV [--run ID] [--title TEXT] > part.md

ROOFLINE_DB: a database holding a profile run (the latest, or --run ID). NCU_CSV: `ncu --csv
--page raw --print-units base --clock-control none --cache-control all --kernel-name-base mangled
--metrics <the same names> PROGRAM` on the same program. Launches are matched by mangled name in
launch order (the k-th launch of a kernel beside ncu's k-th). Counts must agree within 2 %,
percentages within 2 points; a count that is negligible beside the launch's largest count of the
same unit is judged against 1 % of that count, as roofline's comparisons do.
"""
import collections
import csv
import io
import re
import sqlite3
import subprocess
import sys

from profile_db import launch_counters

PERCENT_LIKE = (".pct", "pct_of_peak")


def number(s):
    s = (s or "").replace(",", "").strip()
    try:
        return float(s)
    except ValueError:
        return None


def read_ncu(path):
    text = open(path, errors="replace").read()
    rows = list(csv.reader(io.StringIO(text[text.index('"ID"'):])))
    header = rows[0]
    return [dict(zip(header, r)) for r in rows[2:] if len(r) == len(header)]


# Launches are matched by function name and occurrence: the k-th launch of a kernel beside ncu's
# k-th (launch order across threads may differ between the two runs; per kernel it does not).


def read_roofline(db, run):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    if run is None:
        run = con.execute("SELECT max(id) FROM runs WHERE kind = 'profile'").fetchone()[0]
    launches = con.execute(
        "SELECT p.id, s.mangled, p.counter_status, p.counter_note FROM profiled_launches p "
        "JOIN kernel_symbols s ON s.id = p.symbol_id WHERE p.run_id = ? ORDER BY p.seq", (run,)).fetchall()
    out = []
    for lid, mangled, status, note in launches:
        values = launch_counters(con, lid)
        out.append({"mangled": mangled, "status": status, "note": note, "values": values})
    return run, out


def function_name(name):
    """The bare function name: ncu prints demangled names its own way, so both sides are cut to
    the identifier before the parameters (no return type, namespaces or template arguments)."""
    if name.startswith("_Z"):
        name = subprocess.run(["c++filt", name], capture_output=True, text=True).stdout.strip()
    name = name.replace("(anonymous namespace)", "anonymous")
    depth, end = 0, len(name)
    for i, c in enumerate(name):
        depth += c == "<"
        depth -= c == ">"
        if c == "(" and depth == 0:
            end = i
            break
    name = name[:end]
    while name.endswith(">"):
        depth = 0
        for i in range(len(name) - 1, -1, -1):
            depth += name[i] == ">"
            depth -= name[i] == "<"
            if depth == 0:
                name = name[:i]
                break
    return re.split(r"[: ]", name)[-1]


def unit_of(metric):
    if "sectors" in metric:
        return "sector"
    if "bytes" in metric:
        return "byte"
    if "inst" in metric:
        return "inst"
    if "requests" in metric:
        return "request"
    return metric


def main():
    args = sys.argv[1:]
    run = None
    title = None
    if "--run" in args:
        i = args.index("--run"); run = int(args[i + 1]); del args[i:i + 2]
    if "--title" in args:
        i = args.index("--title"); title = args[i + 1]; del args[i:i + 2]
    run, ours = read_roofline(args[0], run)
    ncu = read_ncu(args[1])
    by_name = collections.defaultdict(list)
    for r in ncu:
        by_name[function_name(r["Kernel Name"])].append(r)
    seen = collections.Counter()
    rows, unmatched, missing = [], [], []
    for launch in ours:
        name = function_name(launch["mangled"])
        k = seen[name]
        seen[name] += 1
        if k >= len(by_name[name]):
            unmatched.append(launch["mangled"]); continue
        theirs = by_name[name][k]
        if launch["status"] != "collected":
            missing.append((launch["mangled"], launch["note"])); continue
        largest = collections.defaultdict(float)
        for m, v in theirs.items():
            x = number(v)
            if "__" in m and x is not None and not any(p in m for p in PERCENT_LIKE):
                largest[unit_of(m)] = max(largest[unit_of(m)], abs(x))
        for m, mine in launch["values"].items():
            if m not in theirs:
                continue
            ref = number(theirs[m])
            if ref is None:
                continue
            if any(p in m for p in PERCENT_LIKE):
                diff, ok, kind = mine - ref, abs(mine - ref) <= 2.0, "points"
            else:
                base = max(abs(ref), 0.01 * largest[unit_of(m)])
                diff = (mine - ref) / base * 100 if base else 0.0
                ok, kind = abs(diff) <= 2.0, "%"
            rows.append((name, k, m, mine, ref, diff, kind, ok))
    good = sum(r[7] for r in rows)
    print(f"### {title or args[1]}\n")
    print(f"roofline run {run}: {len(ours)} launches; {len(rows)} counter values compared with ncu's, "
          f"**{good} within 2 %** (percentages within 2 points): {100.0 * good / max(len(rows), 1):.1f} %.\n")
    if missing:
        print(f"Launches without counters ({len(missing)}):\n")
        for name, note in missing:
            print(f"- `{name[:80]}`: {note}")
        print()
    if unmatched:
        print(f"Launches ncu did not profile: {len(unmatched)}\n")
    bad = [r for r in rows if not r[7]]
    if bad:
        print("| kernel | # | metric | roofline | ncu | difference |\n|---|---:|---|---:|---:|---:|")
        for name, k, m, mine, ref, diff, kind, ok in bad:
            print(f"| `{name[:60]}` | {k} | `{m}` | {mine:.6g} | {ref:.6g} | {diff:+.2f} {kind} |")
        print()


if __name__ == "__main__":
    main()

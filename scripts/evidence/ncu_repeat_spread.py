#!/usr/bin/env python3
"""How far ncu's own counts of one kernel spread over its repeated, identical launches: the same
function, template arguments, grid and block, and the same work (its tensor-pipe operations and
FP instructions by type, counts that do not depend on timing: a persistent GEMM keeps its grid
whatever its shape), launched again (a training step repeated). Counts that move between such
launches in ncu alone are not fixed by the launch, and no second tool can match them launch for
launch.

Usage: ncu_repeat_spread.py NCU_CSV METRIC... > part.md
NCU_CSV: `ncu --csv --page raw --print-units base ...`. Prints a markdown table of the groups of
two or more launches whose METRIC spreads more than 2 % (max / min - 1).
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from profile_vs_ncu import function_name, number, read_ncu  # noqa: E402


WORK = ("sm__ops_path_tensor", "smsp__sass_thread_inst_executed_op_")


def main():
    path, metrics = sys.argv[1], sys.argv[2:]
    groups = collections.defaultdict(list)
    for r in read_ncu(path):
        work = tuple(sorted((k, v) for k, v in r.items() if k.startswith(WORK)))
        groups[(r["Kernel Name"], r["Grid Size"], r["Block Size"], work)].append(r)
    print("| kernel | grid | block | metric | launches | min | max | spread |")
    print("|---|---|---|---|---:|---:|---:|---:|")
    for (name, grid, block, _), rows in groups.items():
        if len(rows) < 2:
            continue
        for m in metrics:
            values = [v for v in (number(r.get(m)) for r in rows) if v is not None]
            if len(values) < 2 or min(values) <= 0:
                continue
            spread = max(values) / min(values) - 1
            if spread > 0.02:
                print(f"| `{function_name(name)}` | {grid} | {block} | `{m}` | {len(values)} | {min(values):.0f} | "
                      f"{max(values):.0f} | {100 * spread:.1f} % |")


if __name__ == "__main__":
    main()

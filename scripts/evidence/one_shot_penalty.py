#!/usr/bin/env python3
"""What a stored run would score if every one-shot wave of a latency-bound launch took PENALTY ns more
than the model's round: the candidate that the turnover probe raised (a wave of one-shot blocks that
load and store 4 bytes a thread took 86 ns longer than the same work looped in a resident grid on an
H200, 7 ns on an H100; docs/model.md, "What does not carry to the H200"). `roofline accuracy` on the
run (the current model, the run's own calibration), then, for each launch whose predicted bound is
latency, `roofline predict --details` for its waves of blocks (grid / (blocks per SM x SMs); a
resident grid-stride grid is one), and waves x PENALTY added to its loaded rounds: to its predicted
time, or, where the floor of block waves binds (calibrate measures it on one-shot blocks, so it
holds their turnover already), as far as the rounds with the penalty pass that floor. An evaluation:
nothing here changes the model. Predicted times are read from the accuracy page (three significant
digits).

PENALTY_NS `calibrated`: the split that calibrate's extras since 2026-12-08 measure, from the run's
latest calibration (refused where it lacks them): every store round at `extra.store_round_resident_ns`
(one-byte copies from a resident grid) in place of `store_round_ns` (the same copies one-shot), and
every wave of blocks paying `extra.one_shot_turnover_ns` (the one-shot wave less the resident trip).

Usage: one_shot_penalty.py ROOFLINE DB GPU PENALTY_NS|calibrated > NOTE.md
"""
import re
import statistics
import subprocess
import sys

from by_size import accuracy_rows
from round_latency import UNITS, calibrated, latest_calibration


def microseconds(cell):
    value, unit = cell.split()
    return float(value) * UNITS[unit] * 1e6


def added_us(roofline, db, gpu, sms, kernel, n, cache, penalty_ns, store_shift_ns=0.0):
    """How much longer a latency-bound launch's bound gets with PENALTY ns more per wave of blocks
    (grid / (blocks per SM x SMs), one for a resident grid) and STORE_SHIFT ns more per round of
    stores: added to its rounds, or where the floor of block waves binds (`at least ... waves of
    blocks`), to its loaded rounds against it."""
    out = subprocess.run([roofline, "predict", "--kernel", kernel, "--n", n, "--cache", cache, "--gpu", gpu, "--db",
                          db, "--details"], check=True, capture_output=True, text=True).stdout
    grid = re.search(r"^  pass .*: grid (\d+) x \d+, (\d+) blocks/SM", out, re.M)
    latency = re.search(r"^latency +([\d.]+) (ns|µs|ms|s) +(.*)$", out, re.M)
    waves = max(1.0, int(grid.group(1)) / (int(grid.group(2)) * sms))
    stores = re.search(r"([\d.e+]+) rounds of stores x", latency.group(3))
    extra = (waves * penalty_ns + (float(stores.group(1)) * store_shift_ns if stores else 0.0)) * 1e-3
    if "at least" not in latency.group(3):
        return waves, extra
    bound = microseconds(f"{latency.group(1)} {latency.group(2)}")
    rounds, ns = re.search(r"([\d.e+]+) rounds x ([\d.]+) ns loaded latency", latency.group(3)).groups()
    return waves, max(0.0, float(rounds) * float(ns) * 1e-3 + extra - bound)


def calibrated_split_ns(roofline, db):
    """The turnover per one-shot wave and the store round's shift (resident less one-shot) from
    the latest calibration in DB (as `accuracy` applies it)."""
    keys = ("extra.one_shot_turnover_ns", "extra.store_round_resident_ns", "store_round_ns")
    values = latest_calibration(roofline, db, f"key IN ({', '.join(repr(k) for k in keys)})")
    if any(k not in values for k in keys):
        raise SystemExit(f"{db}: its latest calibration lacks {', '.join(k for k in keys if k not in values)} "
                         "(calibrated before they were recorded): give the penalty in ns")
    return values[keys[0]]["value"], values[keys[1]]["value"] - values[keys[2]]["value"]


def main():
    if len(sys.argv) != 5:
        raise SystemExit(__doc__)
    roofline, db, gpu = sys.argv[1:4]
    penalty_ns, store_shift_ns = calibrated_split_ns(roofline, db) if sys.argv[4] == "calibrated" else (
        float(sys.argv[4]), 0.0)
    rows = accuracy_rows(roofline, db, "latest")
    sms = calibrated(roofline, gpu, db, "sm_count")
    errors, crossed, moved = [], [], 0
    for kernel, n, cache, predicted, measured, _, bound, *_ in rows:
        before, measured = microseconds(predicted), microseconds(measured)
        waves, added = added_us(roofline, db, gpu, sms, kernel, n, cache, penalty_ns, store_shift_ns) \
            if bound == "latency" else (0, 0)
        pair = [100 * (t / measured - 1) for t in (before, before + added)]
        errors.append(pair)
        moved += added != 0
        if (abs(pair[0]) <= 10) != (abs(pair[1]) <= 10):
            crossed.append(f"| {kernel} | {n} | {cache} | {waves:.3g} | {pair[0]:+.1f} % | {pair[1]:+.1f} % |")
    within = [sum(abs(e[i]) <= 10 for e in errors) for i in (0, 1)]
    median = [statistics.median(abs(e[i]) for e in errors) for i in (0, 1)]
    shift = f" and {store_shift_ns:+.0f} ns a round of stores" if store_shift_ns else ""
    print(f"{len(rows)} launches, {moved} of them moved by the penalty of {penalty_ns:.0f} ns a wave{shift}. "
          f"Within ±10 % of their measured median: "
          f"{within[0]} -> {within[1]}; median |error| {median[0]:.1f} -> {median[1]:.1f} %. The launches that "
          "cross 10 %:\n")
    print("| kernel | N | cache | waves | error now | with the penalty |")
    print("|---|---:|---|---:|---:|---:|")
    print("\n".join(crossed))


if __name__ == "__main__":
    main()

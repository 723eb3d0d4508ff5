#!/usr/bin/env python3
"""A profile run predicted on another GPU (`roofline predict --from-run`) beside the same program
profiled on that GPU: predicted against measured, per kernel and per launch.

Usage: profile_prediction.py ROOFLINE SOURCE_DB SOURCE_RUN TARGET_DB TARGET_RUN GPU > part.md

SOURCE_DB's run SOURCE_RUN is predicted on GPU; TARGET_DB's run TARGET_RUN is what that GPU
measured. Launches are matched by kernel (demangled name) and occurrence. --by-limiter adds the launches'
errors grouped by the limiter the source run's counters gave them.
"""
import collections
import csv
import io
import sqlite3
import subprocess
import sys


def seconds(text):
    value, unit = text.replace("\u00b5", "u").split()
    return float(value) * {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}[unit]


def with_target_calibration(source_db, target_db):
    """A scratch copy of SOURCE_DB holding TARGET_DB's calibrations, so that --from-run applies them."""
    import shutil
    import tempfile
    scratch = tempfile.mkdtemp() + "/source.db"
    shutil.copy(source_db, scratch)
    db = sqlite3.connect(scratch)
    db.execute("ATTACH ? AS t", (target_db,))
    db.execute("INSERT INTO calibrations SELECT * FROM t.calibrations")
    db.execute("INSERT INTO calibration_values SELECT * FROM t.calibration_values")
    db.commit()
    db.close()
    return scratch


def within(errors):
    """How many errors are within ±10 %."""
    return sum(abs(e) <= 0.10 for e in errors)


def median_abs(errors):
    """The upper median of the errors' sizes, as every page built on this takes it."""
    return sorted(map(abs, errors))[len(errors) // 2]


def from_run_rows(roofline, db, run, gpu):
    """`roofline predict --from-run RUN --db DB --gpu GPU` as CSV rows; raises CalledProcessError where
    the build refuses the run."""
    command = [roofline, "predict", "--from-run", str(run), "--db", db, "--gpu", gpu, "--format", "csv"]
    return list(csv.DictReader(io.StringIO(subprocess.run(command, capture_output=True, text=True,
                                                          check=True).stdout)))


def matched_launches(roofline, source_db, src_run, target_db, run, gpu, calibrated=False):
    """Each predicted launch matched with its measurement by kernel and occurrence:
    (kernel, display name, source seconds, predicted seconds, measured seconds, source limiter)."""
    if calibrated:
        source_db = with_target_calibration(source_db, target_db)
    predicted = from_run_rows(roofline, source_db, src_run, gpu)
    con = sqlite3.connect(f"file:{target_db}?mode=ro", uri=True)
    measured = collections.defaultdict(list)
    for kernel, us in con.execute("SELECT kernel, duration_us FROM v_profile_launches WHERE run_id = ? ORDER BY seq",
                                  (run,)):
        measured[kernel].append(us * 1e-6)
    src = sqlite3.connect(f"file:{source_db}?mode=ro", uri=True)
    names = [r[0] for r in src.execute("SELECT kernel FROM v_profile_launches WHERE run_id = ? ORDER BY seq",
                                       (src_run,))]
    seen = collections.Counter()
    out = []
    for name, row in zip(names, predicted):
        k = seen[name]
        seen[name] += 1
        if k >= len(measured[name]) or row["predicted"] == "-":
            continue
        out.append((name, row["kernel"], seconds(row["measured"]), seconds(row["predicted"]), measured[name][k],
                    row["limiter"]))
    return out


def main():
    roofline, source_db, src_run, target_db, run, gpu = sys.argv[1:7]
    per_kernel = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0])  # source, predicted, measured, launches
    per_limiter = collections.defaultdict(list)  # (predicted, measured) per launch
    display = {}
    for name, short, source_s, predicted_s, measured_s, limiter in matched_launches(
            roofline, source_db, src_run, target_db, run, gpu, "--calibrated" in sys.argv):
        display[name] = short
        acc = per_kernel[name]
        acc[0] += source_s
        acc[1] += predicted_s
        acc[2] += measured_s
        acc[3] += 1
        per_limiter[limiter].append((predicted_s, measured_s))
    rows = sorted(per_kernel.items(), key=lambda kv: -kv[1][2])
    errors = []
    print(f"| kernel | launches | H100 measured | {gpu} predicted | {gpu} measured | error |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, (s, p, m, n) in rows:
        err = (p - m) / m
        errors.append(abs(err))
        short = display[name]
        print(f"| `{short}` | {n} | {s * 1e6:.1f} µs | {p * 1e6:.1f} µs | {m * 1e6:.1f} µs | {err * 100:+.1f} % |")
    total_s = sum(v[0] for v in per_kernel.values())
    total_p = sum(v[1] for v in per_kernel.values())
    total_m = sum(v[2] for v in per_kernel.values())
    print(f"| **all kernels** | {sum(v[3] for v in per_kernel.values())} | {total_s * 1e6:.1f} µs | "
          f"{total_p * 1e6:.1f} µs | {total_m * 1e6:.1f} µs | {(total_p - total_m) / total_m * 100:+.1f} % |")
    print(f"\nPer kernel: median |error| {median_abs(errors) * 100:.1f} %, "
          f"{within(errors)} of {len(errors)} within ±10 %.")
    if "--by-limiter" in sys.argv:
        print(f"\n| limiter on the source GPU | launches | {gpu} predicted | {gpu} measured | error of the sum | "
              "median error | within ±10 % |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for limiter, pairs in sorted(per_limiter.items(), key=lambda kv: -sum(m for _, m in kv[1])):
            p, m = sum(x for x, _ in pairs), sum(y for _, y in pairs)
            errs = sorted((x - y) / y for x, y in pairs)
            median = (errs[(len(errs) - 1) // 2] + errs[len(errs) // 2]) / 2
            print(f"| {limiter} | {len(pairs)} | {p * 1e6:.1f} µs | {m * 1e6:.1f} µs | {(p - m) / m * 100:+.1f} % | "
                  f"{median * 100:+.1f} % | {sum(abs(e) <= 0.10 for e in errs)} |")


if __name__ == "__main__":
    main()

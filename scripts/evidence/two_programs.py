#!/usr/bin/env python3
"""docs/results/h100/two-programs/README.md: two programs profiled at once on one GPU, before and
after the processes took turns with its counters (profiler/counter_lock.hpp).

Usage: python3 scripts/evidence/two_programs.py > docs/results/h100/two-programs/README.md
"""
import sqlite3
import statistics

D = "docs/results/h100/two-programs"


def launches(db):
    con = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    rows = con.execute("SELECT pid, kernel, counter_status, dram_bytes, l2_bytes FROM v_profile_launches ORDER BY pid, seq")
    by_pid = {}
    for pid, kernel, status, dram, l2 in rows:
        by_pid.setdefault(pid, []).append((kernel, status, dram, l2))
    return by_pid


print("""# Two programs profiled at once on one GPU

Made on an H100 (2026-11-26) with the same commands before and after the processes a `roofline
profile` starts took turns with the GPU's counters (`profiler/counter_lock.hpp`); `after/` by
`scripts/device/two_programs.sh`, `before/` by its first two commands, typed by hand; rendered by
`python3 scripts/evidence/two_programs.py`:

    roofline profile --db one.db -- python3 tests/profile/train_step.py --steps 3
    roofline profile --db two.db -- bash -c "python3 tests/profile/train_step.py --steps 3 & \\
        python3 tests/profile/train_step.py --steps 3; wait"

`before/` was made by a build of commit 34a2e79 (the profiler was the same up to e710a20),
`after/` by a build of the change that added this page, made before it was committed (its runs
record e710a20, the commit it was built on; `after/gpu_test.txt`: `profile_gpu_test`, whose `TwoProgramsAtOnceBothGetTheirCounters` runs two
copies of `tests/profile/profile_app.cu` at once). `two.txt` is what roofline printed.

| | process | launches | with counters |
|---|---:|---:|---:|""")
for when in ("before", "after"):
    for pid, rows in launches(f"{D}/{when}/two.db").items():
        print(f"| {when} | {pid} | {len(rows)} | {sum(r[1] == 'collected' for r in rows)} |")
print("""
Before, the second process's counter setup failed with `CUPTI_ERROR_HARDWARE_BUSY` (the first held
the GPU's range profiler between its replays) and every one of its launches was stored
timing-only.

How far the counters of each process of the two-program run lie from the same launches profiled
alone (`one.db`, the k-th launch beside the k-th; launches that moved more than 1 MB of DRAM):
""")
print("| | process | launches compared | DRAM bytes off, median | largest | L2 bytes off, largest |")
print("|---|---:|---:|---:|---:|---:|")
for when in ("before", "after"):
    alone = next(iter(launches(f"{D}/{when}/one.db").values()))
    for pid, rows in launches(f"{D}/{when}/two.db").items():
        pairs = [(r, a) for r, a in zip(rows, alone) if r[1] == "collected" and a[3] > 1e6 and r[0] == a[0]]
        if not pairs:
            print(f"| {when} | {pid} | 0 | - | - | - |")
            continue
        dram = [abs(r[2] / a[2] - 1) for r, a in pairs]
        l2 = [abs(r[3] / a[3] - 1) for r, a in pairs]
        print(f"| {when} | {pid} | {len(pairs)} | {100 * statistics.median(dram):.2f} % | {100 * max(dram):.2f} % "
              f"| {100 * max(l2):.2f} % |")
print("""
The processes take turns only while one sets up or replays; their own launches still run side by
side, as they would without the profiler, so a launch whose replay overlaps another process's
kernels counts that traffic too (`docs/profile.md`, Limits).""")

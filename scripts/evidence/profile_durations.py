#!/usr/bin/env python3
"""docs/results/h100/profile-durations/README.md: the durations `roofline profile` records for the
PyTorch script trace-only, with counters, and with counters set up but no launch selected
(scripts/device/profile_durations.sh), per kernel.

Usage: python3 scripts/evidence/profile_durations.py > docs/results/h100/profile-durations/README.md
"""
import sqlite3
import statistics

D = "docs/results/h100/profile-durations"
MODES = [("trace", "`--no-counters`"), ("counters", "counters (default)"),
         ("unselected", "counters, no launch selected")]


def per_kernel(mode):
    con = sqlite3.connect(f"file:{D}/{mode}.db?immutable=1", uri=True)
    out = {}
    for kernel, us in con.execute("SELECT kernel, duration_us FROM v_profile_launches"):
        out.setdefault(kernel, []).append(us)
    return out


def short(name, width=60):
    name = name.replace("void ", "", 1)
    return name if len(name) <= width else name[:width - 1] + "…"


data = {m: per_kernel(m) for m, _ in MODES}
print("""# Do the counters change the durations `roofline profile` records?

`scripts/device/profile_durations.sh` on an H100: `tests/profile/train_step.py` profiled twice in
each of three ways, alternating, and stored in `trace.db`, `counters.db` and `unselected.db` here;
rendered by `python3 scripts/evidence/profile_durations.py`. Every duration is the program's own
launch as the Activity API timed it; the modes differ in what roofline does around it:

- `--no-counters`: nothing but the Activity API;
- counters (the default): device memory copied aside before each batch of launches, the batch
  replayed with counters when it ends;
- counters with `--kernel-name '^nothing$'`: CUPTI's counters set up, no launch selected, so
  nothing copied and nothing replayed.
""")
with open(f"{D}/facts.txt") as f:
    print("".join("    " + line for line in f))
print("| kernel | launches | " + " | ".join(f"{label}, mean µs" for _, label in MODES) + " | counters vs `--no-counters` |")
print("|---|---:|" + "---:|" * (len(MODES) + 1))
for kernel in sorted(data["trace"], key=lambda k: -sum(data["trace"][k])):
    means = [statistics.mean(data[m].get(kernel, [float("nan")])) for m, _ in MODES]
    print(f"| `{short(kernel)}` | {len(data['trace'][kernel])} | " + " | ".join(f"{v:.2f}" for v in means)
          + f" | {100 * (means[1] / means[0] - 1):+.1f} % |")
print("""
With counters set up and nothing replayed the durations are those of the trace-only runs; with
launches replayed some kernels take longer. The likely cause, not isolated further: a batch's
first launch runs right after roofline has
copied the program's device memory aside (a device-to-device copy of every allocation), so it
finds the L2 holding that copy, much of it dirty, instead of what the program's previous kernels
left there. Where a program's batches are short (each copy, memset or free ends one) many
launches start that way. For durations as the program runs them, profile with `--no-counters`
(its overhead: `docs/results/h100/profile-overhead.md`); the counters' own `gpu__time_duration`
is the launch timed in its replay, from the flushed L2 of `ncu --cache-control all`.""")

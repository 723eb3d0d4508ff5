#!/usr/bin/env python3
"""The page of NVIDIA's CUDA samples run under `roofline profile` (docs/results/h100/cuda-samples/).

Usage: cuda_samples.py DIR [TITLE] > PAGE.md

DIR: the folder scripts/device/cuda_samples.sh wrote (wall.txt, facts.txt, samples.db, each
sample's stdout and stderr alone and profiled, and ncu's CSV for some). Per sample: the exit code
alone and profiled, the sample's own verdict in both runs, whether its stdout is the same once
numbers are set aside (timings differ from run to run), the launches roofline recorded and how
many have counters, and the wall times. Then the counters beside ncu's, per sample, by
scripts/evidence/profile_vs_ncu.py.
"""
import os
import re
import sqlite3
import subprocess
import sys

VERDICT = re.compile(r"(test passed|result = pass|\bpassed\b|\bpass\b|test failed|result = fail|\bfailed\b|"
                     r"\bfail\b|\bwaived\b|\berror\b)", re.I)


def read(path):
    try:
        return open(path, errors="replace").read()
    except FileNotFoundError:
        return ""


def verdict(text):
    words = sorted({m.group(1).lower() for m in VERDICT.finditer(text)})
    return ", ".join(words) if words else "none printed"


def program_output(text):
    """A profiled run's stdout without roofline's own closing table and summary line."""
    lines = text.splitlines()
    for i in range(len(lines) - 1, -1, -1):
        if re.match(r"kernel\s+launches\s+total", lines[i]):
            return "\n".join(lines[:i])
    return "\n".join(line for line in lines if not line.startswith("roofline: run "))


def skeleton(text):
    """stdout with its numbers set aside: timings and bandwidths differ between any two runs."""
    return [re.sub(r"[-+]?\d[\d.,eE+-]*", "#", line).rstrip() for line in text.splitlines()]


def main():
    d = sys.argv[1]
    title = sys.argv[2] if len(sys.argv) > 2 else "NVIDIA's CUDA samples under `roofline profile`"
    here = os.path.dirname(os.path.abspath(__file__))
    walls = {}
    for line in read(f"{d}/wall.txt").splitlines():
        m = re.match(r"(\S+) (\w+): exit (\d+) in (\d+) ms", line)
        if m:
            walls[(m.group(1), m.group(2))] = (int(m.group(3)), int(m.group(4)))
    samples = list(dict.fromkeys(s for s, kind in walls if kind == "profile"))
    con = sqlite3.connect(f"file:{d}/samples.db?mode=ro", uri=True)
    runs = con.execute(
        "SELECT id, command_line, exit_code, status FROM runs WHERE kind = 'profile' ORDER BY id").fetchall()
    run_of = {}
    for rid, cmd, code, status in runs:
        program = cmd.split(" -- ", 1)[-1].split()[0] if " -- " in cmd else cmd.split()[-1]
        name = os.path.basename(program)
        run_of[name] = (rid, code, status)
    print(f"# {title}\n")
    print("Programs roofline was not developed on: samples from NVIDIA's public repository")
    print("(github.com/NVIDIA/cuda-samples), built for sm_90 by `scripts/device/cuda_samples_build.sh`")
    print("and run on the device by `scripts/device/cuda_samples.sh`: each alone, then under")
    print("`roofline profile --db samples.db -- ./SAMPLE` (every launch with the default counters), then")
    print("some under `ncu` with the same metrics. This page is made by `scripts/evidence/cuda_samples.py`.\n")
    print("```\n" + read(f"{d}/facts.txt").strip() + "\n```\n")
    print("The sample's verdict is what it printed about its own check (PASS, FAIL, waived ...), in the")
    print("run alone and profiled. \"stdout\" compares the two runs' standard output with every number set")
    print("aside (timings move from run to run), roofline's own closing table left out: `same`, or how many")
    print("lines differ. Launches: recorded by roofline, and how many with counters (the reason for the")
    print("others is stored with each launch, and listed below the table).\n")
    print("| sample | exit alone | exit profiled | verdict alone | verdict profiled | stdout | launches "
          "| with counters | run status | wall alone | wall profiled |")
    print("|---|---:|---:|---|---|---|---:|---:|---|---:|---:|")
    for s in samples:
        plain_code, plain_ms = walls.get((s, "plain"), (None, None))
        prof_code, prof_ms = walls.get((s, "profile"), (None, None))
        plain_out, prof_out = read(f"{d}/{s}.plain.out"), program_output(read(f"{d}/{s}.profile.out"))
        a, b = skeleton(plain_out), skeleton(prof_out)
        if a == b:
            same = "same"
        else:
            diff = sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))
            same = f"{diff} of {max(len(a), len(b))} lines differ"
        rid, _, status = run_of.get(s, (None, None, "not stored"))
        total = with_counters = 0
        if rid is not None:
            total, with_counters = con.execute(
                "SELECT count(*), coalesce(sum(counter_status = 'collected'), 0) FROM profiled_launches "
                "WHERE run_id = ?",
                (rid,)).fetchone()
        print(f"| {s} | {plain_code} | {prof_code} | {verdict(plain_out)} | {verdict(prof_out)} | {same} | {total} "
              f"| {with_counters} | {status} | {plain_ms} ms | {prof_ms} ms |")
    missing = con.execute(
        "SELECT r.command_line, p.counter_status, p.counter_note, count(*) FROM profiled_launches p "
        "JOIN runs r ON r.id = p.run_id WHERE p.counter_status != 'collected' GROUP BY 1, 2, 3").fetchall()
    if missing:
        print("\nLaunches without counters, and why:\n")
        for cmd, status, note, n in missing:
            why = note or "not selected by the run's --kernel-name, --launch-skip or --launch-count"
            print(f"- `{os.path.basename(cmd.split()[-1])}`: {n} {status}: {why}")
    ncu = [s for s in samples if os.path.exists(f"{d}/{s}.ncu.csv") and s in run_of]
    if ncu:
        print("\n## Counters beside ncu\n")
        print("Each sample's launches matched to ncu's by kernel name and order, as")
        print("`scripts/evidence/profile_vs_ncu.py` matches them (counts within 2 %, percentages within 2 points).\n")
        for s in ncu:
            out = subprocess.run([sys.executable, f"{here}/profile_vs_ncu.py", f"{d}/samples.db", f"{d}/{s}.ncu.csv",
                                  "--run", str(run_of[s][0]), "--title", s], capture_output=True, text=True)
            print(out.stdout if out.returncode == 0 else f"### {s}\n\nnot compared: {out.stderr.strip()[-300:]}\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The DRAM round the latency bound takes beside the round a whole-suite run implies, on each GPU:
for latency-bound suite kernels at 2^28 (where a launch's fixed costs are under 1 % of its time),
the bytes in flight and rounds of `roofline predict --details` (calibrated as the run was), the
model's round (its loaded latency L(u) = dram_stream_latency_ns + dram_queue_latency_ns x u / (1 - u),
and a round's stores where it has them), the measured median over the rounds, and the DRAM
bandwidth the predicted DRAM bytes over the measured time come to, with its share u of the
calibrated sustained bandwidth. Then the calibration's own points: the scalar stream's rounds that
the line was fitted to (one load in flight per thread, by 1/8 to all of the resident threads), and
where the calibration measured them, the rounds with two and four loads in flight per thread
(`extra.dram_round_{2,4}_in_flight_ns`), each beside the line's round at its u. Nothing is fitted:
it reads committed runs.

Usage: round_latency.py ROOFLINE [GPU DB]... > docs/results/round-latency.md
"""
import json
import re
import subprocess
import sys

from by_size import accuracy_rows

KERNELS = ["add_fp8_e4m3", "add_f16", "upsample2x_nearest_f32", "read_only_f32", "add_f32", "stencil5_2d",
           "transpose_tiled_padded", "add_f16x8_unroll"]
UNITS = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1.0}


def measured(roofline, db):
    """(kernel, N, cache) -> the measured median in seconds, from `roofline accuracy`."""
    times = {}
    for cells in accuracy_rows(roofline, db, "1"):
        m = re.match(r"([\d.]+) (ns|µs|ms|s)$", cells[4])
        if m:
            times[(cells[0], cells[1], cells[2])] = float(m.group(1)) * UNITS[m.group(2)]
    return times


def calibrated(roofline, gpu, db, name):
    """A parameter's value as `predict --details` lists it with the run's calibration."""
    out = subprocess.run([roofline, "predict", "--kernel", "add_f32", "--n", "2^20", "--gpu", gpu, "--db", db,
                          "--details"], capture_output=True, text=True, check=True).stdout
    m = re.search(rf"^{name}\s+([\d.e+]+)\s", out, re.M)
    return float(m.group(1))


def rows(roofline, gpu, db):
    times = measured(roofline, db)
    out = subprocess.run([roofline, "predict", "--kernel", ",".join(KERNELS), "--n", "2^28", "--gpu", gpu, "--db", db,
                          "--cache", "warm", "--details"], capture_output=True, text=True, check=True).stdout
    bandwidth = calibrated(roofline, gpu, db, "dram_bandwidth_sustained")
    dram_bytes, kernel = {}, None
    for line in out.splitlines():
        m = re.match(r"^(\S+)\s+2\^28\s.*\s([\d.]+) (MB|GB)$", line)
        if m:
            dram_bytes[m.group(1)] = float(m.group(2)) * (1e6 if m.group(3) == "MB" else 1e9)
        m = re.match(r"^(\S+) N=(\d+) ", line)
        if m:
            kernel = (m.group(1), m.group(2))
        m = re.match(r"^latency\s+([\d.]+) (ns|µs|ms|s)\s+([\d.]+) MB in flight, ([\d.e+]+) rounds x", line)
        if not (m and kernel and (kernel[0], kernel[1], "warm") in times):
            continue
        bound = float(m.group(1)) * UNITS[m.group(2)]
        in_flight, rounds = float(m.group(3)), float(m.group(4))
        t = times[(kernel[0], kernel[1], "warm")]
        achieved = dram_bytes[kernel[0]] / t
        yield kernel[0], in_flight, bound / rounds * 1e9, t / rounds * 1e9, achieved / 1e12, achieved / bandwidth


def latest_calibration(roofline, db, condition):
    """key -> {key, value, method} of the latest calibration in DB (the one `accuracy` applies) whose
    keys meet the SQL condition."""
    sql = ("SELECT key, value, method FROM v_calibrations WHERE calibration_id = (SELECT MAX(calibration_id) "
           f"FROM v_calibrations) AND ({condition})")
    out = subprocess.run([roofline, "query", "--db", db, "--format", "json", sql], capture_output=True, text=True,
                         check=True).stdout
    return {r["key"]: r for r in json.loads(out)}


def calibration_points(roofline, db):
    """The line (intercept, slope in ns) and the points beside it: (what, u, measured round in ns), the
    one-in-flight points from the line's own first repetition, the two- and four-in-flight extras where
    the run's calibration has them (the latest calibration in DB, as `accuracy` applies it)."""
    values = latest_calibration(roofline, db, "key IN ('dram_stream_latency_ns', 'dram_queue_latency_ns') "
                                "OR key LIKE 'extra.dram_round_%_in_flight_ns'")
    line = values["dram_stream_latency_ns"]["value"], values["dram_queue_latency_ns"]["value"]
    points = [(f"1, {'all' if share == '1/1' else share} of the threads", float(u), float(ns)) for share, ns, u in
              re.findall(r"(1/\d+): (\d+) ns at u = ([\d.]+)", values["dram_stream_latency_ns"]["method"])]
    for k in (2, 4):
        extra = values.get(f"extra.dram_round_{k}_in_flight_ns")
        if extra:
            u = float(re.search(r"at u = ([\d.]+)", extra["method"]).group(1))
            points.append((f"{k}, all of the threads", u, extra["value"]))
    return line, points


def has_in_flight_rounds(points):
    """Whether calibration_points found the two- or four-in-flight rounds."""
    return any(what.startswith(("2,", "4,")) for what, _, _ in points)


def main():
    roofline, pairs = sys.argv[1], sys.argv[2:]
    print("# The DRAM round under load: the model's beside what whole-suite runs imply\n")
    print("Generated by `python3 scripts/evidence/round_latency.py " + " ".join(["ROOFLINE"] + pairs) + "`.")
    print("Latency-bound suite kernels at 2^28, warm, where a launch's fixed costs are under 1 % of its")
    print("time: the bytes in flight and the model's round (the latency bound over its rounds, `roofline")
    print("predict --details` with the run's calibration: a round of loads at the loaded latency")
    print("L(u) = `dram_stream_latency_ns` + `dram_queue_latency_ns` × u / (1 − u), and a round's stores")
    print("where it has them), the round the run measured (its median over the same rounds), and the DRAM")
    print("bandwidth the predicted DRAM bytes over the measured time come to, with its share u of the")
    print("calibrated sustained bandwidth. Below each, the calibration's own scalar stream: the rounds")
    print("the line was fitted to (one load in flight per thread) and, where the calibration measured them,")
    print("the rounds with two and four loads in flight per thread (`extra.dram_round_{2,4}_in_flight_ns`),")
    print("each beside the line's round at its u. Nothing here is fitted or used by the model.\n")
    for gpu, db in zip(pairs[::2], pairs[1::2]):
        print(f"## {gpu}: `{db}`\n")
        print("| kernel | MB in flight | model's round | measured round | error | DRAM TB/s | u |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for k, mb, model_ns, round_ns, tbs, u in rows(roofline, gpu, db):
            print(f"| {k} | {mb:.2f} | {model_ns:.0f} ns | {round_ns:.0f} ns | {(model_ns - round_ns) / round_ns:+.1%} | "
                  f"{tbs:.2f} | {u:.2f} |")
        (idle, queue), points = calibration_points(roofline, db)
        print(f"\nThe calibration's scalar stream (the line: {idle:.0f} ns + {queue:.1f} ns × u / (1 − u)):\n")
        print("| loads in flight per thread | u | measured round | the line's round | error |")
        print("|---|---:|---:|---:|---:|")
        for what, u, ns in points:
            line_ns = idle + queue * u / (1 - u)
            print(f"| {what} | {u:.2f} | {ns:.0f} ns | {line_ns:.0f} ns | {(line_ns - ns) / ns:+.1%} |")
        if not has_in_flight_rounds(points):
            print("\n(This calibration predates the two- and four-in-flight rounds.)")
        print()


if __name__ == "__main__":
    main()

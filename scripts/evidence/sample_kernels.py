#!/usr/bin/env python3
"""Kernels of NVIDIA's CUDA samples predicted from specs a user would write
(docs/results/h100/sample-kernels/specs.toml) beside what `roofline profile` measured when the
samples ran on an H100 (docs/results/h100/cuda-samples/cuda-samples.tar.gz).

Usage: sample_kernels.py ROOFLINE SPECS GPU [--kernel-timing] SAMPLES_TAR... > page-part.md
(--kernel-timing: predicted as the kernel's own time, `predict --timing kernel`, as a profile times it.)

Each SAMPLES_TAR holds cuda-samples/samples.db (`roofline profile` runs of samples, found by
their command lines) and each sample's plain run's output (cuda-samples/SAMPLE.plain.out); a
kernel is read from the first archive that ran its sample. GPU is the model to predict with.

Durations: the model's warm prediction (the samples launch each kernel back to back on the same
buffers) against the median of the profiled launches' own times (the Activity API's, no host
overhead) and the sample's own printed time where it prints one per kernel. Counters: the model's
cold prediction against the profiled counters, which replays collect with the L2 flushed first.
"""
import csv
import io
import re
import sqlite3
import statistics
import subprocess
import sys
import tarfile
import tempfile

from profile_db import launch_counters

# spec kernel -> (sample, demangled kernel, N, the sample's printed time for this kernel)
KERNELS = {
    "sample_reduce7": ("reduction", "void reduce7<int, 256u, true>(int const*, int*, unsigned int)", 2**24,
                       r"^Reduction, .*Time = ([0-9.e-]+) s"),
    "sample_transpose_naive": ("transpose", "transposeNaive(float*, float*, int, int)", 2**20,
                               r"^transpose naive .*Time = ([0-9.]+) ms"),
    "sample_transpose_coalesced": ("transpose", "transposeCoalesced(float*, float*, int, int)", 2**20,
                                   r"^transpose coalesced .*Time = ([0-9.]+) ms"),
    "sample_matrixmul_32": ("matrixMul", "void MatrixMulCUDA<32>(float*, float*, float*, int, int)", 320 * 640,
                            r"Time= ([0-9.]+) msec"),
    "sample_convolution_rows": ("convolutionSeparable", "convolutionRowsKernel(float*, float*, int, int, int)",
                                3072 * 3072, None),
    "sample_convolution_columns": ("convolutionSeparable",
                                   "convolutionColumnsKernel(float*, float*, int, int, int)", 3072 * 3072, None),
    # The sample prints the time of histogram256Kernel and its merge kernel together.
    "sample_histogram256": ("histogram", "histogram256Kernel(unsigned int*, unsigned int*, unsigned int)", 2**24,
                            None),
    "sample_histogram64": ("histogram", "histogram64Kernel(unsigned int*, uint4*, unsigned int)", 2**26, None),
    "sample_black_scholes": ("BlackScholes",
                             "BlackScholesGPU(float2*, float2*, float2*, float2*, float2*, float, float, int)",
                             4_000_000, r"BlackScholesGPU\(\) time\s*: ([0-9.]+) msec"),
}
COUNTERS = [("dram__sectors_read.sum", "DRAM read"), ("dram__sectors_write.sum", "DRAM write"),
            ("lts__t_sectors_srcunit_tex_op_read.sum", "L2 read"),
            ("lts__t_sectors_srcunit_tex_op_write.sum", "L2 write"), ("smsp__inst_executed.sum", "inst"),
            ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared loads (wavefronts)"),
            ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared stores (wavefronts)")]


def predict(roofline, specs, kernel, n, cache, gpu, timing="event"):
    out = subprocess.run([roofline, "predict", "--spec", specs, "--kernel", kernel, "--n", str(n), "--cache", cache,
                          "--gpu", gpu, "--format", "csv", "--timing", timing],
                         capture_output=True, text=True, check=True).stdout
    return next(csv.DictReader(io.StringIO(out)))


def sample_time_s(output, pattern):
    if pattern is None:
        return None
    for line in output.splitlines():
        if m := re.search(pattern, line):
            value = float(m.group(1))
            return value if pattern.endswith(" s") else value * 1e-3
    return None


def pct(predicted, measured):
    return f"{(predicted - measured) / measured * 100:+.1f} %" if measured else "–"


def counter_cell(predicted, measured):
    if measured is None:
        return "–"
    return f"{predicted:.4g} / {measured:.4g}" + (f" ({pct(predicted, measured)})" if measured else "")


def measure(roofline, specs, gpu, name, db, rows, n, own, timing="event"):
    """One kernel's rows of the two tables: its warm prediction against the median of its profiled
    launches (rows: their launch_id and duration_us in launch order, from db), its cold prediction's
    counters against its first launch's; own: a time the program printed for it, or None; timing:
    what the predicted duration times (`predict --timing`)."""
    measured = statistics.median(r[1] for r in rows) * 1e-6
    warm = predict(roofline, specs, name, n, "warm", gpu, timing)
    cold = predict(roofline, specs, name, n, "cold", gpu, timing)
    duration = (name, len(rows), float(warm["duration_s"]), warm["bound"], measured, own,
                db.execute("SELECT limiter FROM v_profile_launches WHERE launch_id = ?",
                           (rows[len(rows) // 2][0],)).fetchone()[0])
    measured_counters = launch_counters(db, rows[0][0])
    return duration, (name, [(float(cold.get(c) or 0), measured_counters.get(c)) for c, _ in COUNTERS])


def render(durations, counters, missing, own_label="the sample's own time"):
    print(f"| kernel | launches | predicted (warm) | bound | measured, median of the launches | error | "
          f"{own_label} | error | measured limiter |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---|")
    errors = []
    for name, count, p, bound, m, own, limiter in durations:
        errors.append(abs(p - m) / m)
        print(f"| `{name}` | {count} | {p * 1e6:.2f} µs | {bound} | {m * 1e6:.2f} µs | {pct(p, m)} | "
              f"{f'{own * 1e6:.2f} µs' if own else '–'} | {pct(p, own) if own else '–'} | {limiter} |")
    print(f"\n{sum(e <= 0.10 for e in errors)} of {len(errors)} kernels within ±10 % of the measured median, "
          f"median |error| {statistics.median(errors) * 100:.1f} %; the predicted bound is the measured limiter "
          f"for {sum(d[3] == d[6] for d in durations)} of {len(durations)}.\n")
    if missing:
        print(f"Not measured on this GPU (no profile of their samples here): {', '.join(missing)}.\n")
    print("Counters of each kernel's first profiled launch (collected with the L2 flushed, as "
          "`ncu --cache-control all` does) against the model's cold prediction:\n")
    print("| kernel | " + " | ".join(label for _, label in COUNTERS) + " |")
    print("|---|" + "---:|" * len(COUNTERS))
    for name, pairs in counters:
        print(f"| `{name}` | " + " | ".join(counter_cell(p, m) for p, m in pairs) + " |")


def main():
    # --kernel-timing: predicted as the kernel's own time (`predict --timing kernel`), what a profile measures.
    timing = "kernel" if "--kernel-timing" in sys.argv else "event"
    args = [a for a in sys.argv if a != "--kernel-timing"]
    roofline, specs, gpu, tars = args[1], args[2], args[3], args[4:]
    runs = {}  # sample -> (its database, its plain run's output)
    for tar_path in tars:
        scratch = tempfile.mkdtemp()
        with tarfile.open(tar_path) as tar:
            tar.extractall(scratch, filter="data")
        root = scratch + "/cuda-samples"
        db = sqlite3.connect(root + "/samples.db")
        for sample in {k[0] for k in KERNELS.values()} - runs.keys():
            if db.execute("SELECT 1 FROM runs WHERE command_line LIKE ?", (f"% -- ./{sample}",)).fetchone():
                with open(f"{root}/{sample}.plain.out", errors="replace") as f:
                    runs[sample] = (db, f.read())
    durations, counters = [], []
    missing = [name for name, k in KERNELS.items() if k[0] not in runs]
    for name, (sample, kernel, n, pattern) in KERNELS.items():
        if name in missing:
            continue
        db, output = runs[sample]
        rows = db.execute("SELECT launch_id, duration_us FROM v_profile_launches WHERE kernel = ? AND run_id = "
                          "(SELECT max(id) FROM runs WHERE command_line LIKE ?) ORDER BY seq",
                          (kernel, f"% -- ./{sample}")).fetchall()
        duration, counter_row = measure(roofline, specs, gpu, name, db, rows, n, sample_time_s(output, pattern),
                                        timing)
        durations.append(duration)
        counters.append(counter_row)
    render(durations, counters, missing)


if __name__ == "__main__":
    main()

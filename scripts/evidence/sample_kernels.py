#!/usr/bin/env python3
"""Kernels of NVIDIA's CUDA samples predicted from specs a user would write
(docs/results/h100/sample-kernels/specs.toml) beside what `roofline profile` measured when the
samples ran on an H100 (docs/results/h100/cuda-samples/cuda-samples.tar.gz).

Usage: sample_kernels.py ROOFLINE SAMPLES_TAR SPECS [GPU] > page-part.md

SAMPLES_TAR holds cuda-samples/samples.db (a `roofline profile` run of each sample, found by its
command line) and each sample's plain run's output (cuda-samples/SAMPLE.plain.out); GPU is the
model to predict with (h100-sxm by default).

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
}
COUNTERS = [("dram__sectors_read.sum", "DRAM read"), ("dram__sectors_write.sum", "DRAM write"),
            ("lts__t_sectors_srcunit_tex_op_read.sum", "L2 read"),
            ("lts__t_sectors_srcunit_tex_op_write.sum", "L2 write"), ("smsp__inst_executed.sum", "inst"),
            ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared loads (wavefronts)"),
            ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared stores (wavefronts)")]


def predict(roofline, specs, kernel, n, cache, gpu):
    out = subprocess.run([roofline, "predict", "--spec", specs, "--kernel", kernel, "--n", str(n), "--cache", cache,
                          "--gpu", gpu, "--format", "csv"], capture_output=True, text=True, check=True).stdout
    return next(csv.DictReader(io.StringIO(out)))


def sample_time_s(outputs, sample, pattern):
    if pattern is None:
        return None
    for line in outputs.get(sample, "").splitlines():
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


def main():
    roofline, tar_path, specs = sys.argv[1:4]
    gpu = sys.argv[4] if len(sys.argv) > 4 else "h100-sxm"
    scratch = tempfile.mkdtemp()
    with tarfile.open(tar_path) as tar:
        tar.extractall(scratch, filter="data")
    root = scratch + "/cuda-samples"
    outputs = {}
    for sample in {k[0] for k in KERNELS.values()}:
        with open(f"{root}/{sample}.plain.out", errors="replace") as f:
            outputs[sample] = f.read()
    db = sqlite3.connect(root + "/samples.db")
    durations, counters = [], []
    for name, (sample, kernel, n, pattern) in KERNELS.items():
        rows = db.execute("SELECT launch_id, duration_us FROM v_profile_launches WHERE kernel = ? AND run_id = "
                          "(SELECT max(id) FROM runs WHERE command_line LIKE ?) ORDER BY seq",
                          (kernel, f"% -- ./{sample}")).fetchall()
        measured = statistics.median(r[1] for r in rows) * 1e-6
        warm, cold = predict(roofline, specs, name, n, "warm", gpu), predict(roofline, specs, name, n, "cold", gpu)
        own = sample_time_s(outputs, sample, pattern)
        durations.append((name, len(rows), float(warm["duration_s"]), warm["bound"], measured, own,
                          db.execute("SELECT limiter FROM v_profile_launches WHERE launch_id = ?",
                                     (rows[len(rows) // 2][0],)).fetchone()[0]))
        measured_counters = dict(db.execute(
            "SELECT m.name, v.value FROM profiled_values v JOIN metrics m ON m.id = v.metric_id "
            "WHERE v.profiled_launch_id = ?", (rows[0][0],)).fetchall())
        counters.append((name, [(float(cold.get(c) or 0), measured_counters.get(c)) for c, _ in COUNTERS]))

    print("| kernel | launches | predicted (warm) | bound | measured, median of the launches | error | "
          "the sample's own time | error | measured limiter |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---|")
    errors = []
    for name, count, p, bound, m, own, limiter in durations:
        errors.append(abs(p - m) / m)
        print(f"| `{name}` | {count} | {p * 1e6:.2f} µs | {bound} | {m * 1e6:.2f} µs | {pct(p, m)} | "
              f"{f'{own * 1e6:.2f} µs' if own else '–'} | {pct(p, own) if own else '–'} | {limiter} |")
    print(f"\n{sum(e <= 0.10 for e in errors)} of {len(errors)} kernels within ±10 % of the measured median, "
          f"median |error| {statistics.median(errors) * 100:.1f} %; the predicted bound is the measured limiter "
          f"for {sum(d[3] == d[6] for d in durations)} of {len(durations)}.\n")
    print("Counters of each kernel's first profiled launch (collected with the L2 flushed, as "
          "`ncu --cache-control all` does) against the model's cold prediction:\n")
    print("| kernel | " + " | ".join(label for _, label in COUNTERS) + " |")
    print("|---|" + "---:|" * len(COUNTERS))
    for name, pairs in counters:
        print(f"| `{name}` | " + " | ".join(counter_cell(p, m) for p, m in pairs) + " |")


if __name__ == "__main__":
    main()

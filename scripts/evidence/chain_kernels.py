#!/usr/bin/env python3
"""The four kernels of tests/profile/chain_kernels.cu (a user's program) predicted from the specs
drafted from its binary (docs/results/h100/chain-kernels/specs.toml) beside what `roofline profile`
measured when the program ran, at each of its three sizes: the tables of
scripts/evidence/sample_kernels.py. With --no-chain, the specs' `dependent_cycles` lines are left
out first: what the drafts gave before they counted chains. With --kernel-timing, predicted as the
kernel's own time (`predict --timing kernel`), the time a profile measures.

Usage: chain_kernels.py ROOFLINE SPECS GPU PROFILE_TAR [--no-chain] [--kernel-timing] > page-part.md
"""
import sqlite3
import sys
import tarfile
import tempfile

import sample_kernels

KERNELS = {  # spec kernel -> its demangled name in the profile
    "softplus_bf16": "softplus_bf16(__nv_bfloat16 const*, __nv_bfloat16*, long long)",
    "polyval15_f32": "polyval15_f32(float const*, float*, long long)",
    "quantize_i8": "quantize_i8(float const*, signed char*, float, long long)",
    "normalize3_f32": "normalize3_f32(float*, float*, float*, long long)",
}
SIZES = {22: 2**22, 24: 2**24, 26: 2**26}  # the program's default sizes; one thread per element, blocks of 256


def main():
    roofline, specs, gpu, tar_path = sys.argv[1:5]
    scratch = tempfile.mkdtemp()
    with tarfile.open(tar_path) as tar:
        tar.extractall(scratch, filter="data")
    if "--no-chain" in sys.argv[5:]:
        with open(specs) as f:
            text = "".join(line for line in f if not line.startswith("dependent_cycles"))
        specs = scratch + "/specs-no-chain.toml"
        with open(specs, "w") as f:
            f.write(text)
    db = sqlite3.connect(scratch + "/chain/chain.db")
    durations, counters = [], []
    for name, kernel in KERNELS.items():
        for exponent, n in SIZES.items():
            rows = db.execute("SELECT launch_id, duration_us FROM v_profile_launches WHERE kernel = ? AND grid_x = ? "
                              "ORDER BY seq", (kernel, n // 256)).fetchall()
            duration, counter_row = sample_kernels.measure(
                roofline, specs, gpu, name, db, rows, n, None,
                "kernel" if "--kernel-timing" in sys.argv[5:] else "event")
            label = f"{name} 2^{exponent}"
            durations.append((label,) + duration[1:])
            counters.append((label, counter_row[1]))
    sample_kernels.render(durations, counters, [], own_label="the program's own time")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The two CUDA kernels of tests/profile/extension_step.py (a PyTorch extension) predicted from the
specs a user writes from roofline's drafts (docs/results/h100/extension/specs.toml) beside what
`roofline profile` measured in the script (docs/results/h100/extension/extension.db): the tables of
scripts/evidence/sample_kernels.py.

Usage: extension_kernels.py ROOFLINE SPECS GPU DB [CALIBRATION_DB] > page-part.md
"""
import sqlite3
import sys

import sample_kernels

# spec kernel -> (demangled kernel, N: the script's rows x cols and rows x hidden)
KERNELS = {
    "ext_rms_norm_bf16": ("void rms_norm_kernel<c10::BFloat16>(c10::BFloat16 const*, c10::BFloat16 const*, "
                          "c10::BFloat16*, int, float)", 8192 * 4096),
    "ext_swiglu_bf16": ("void swiglu_kernel<c10::BFloat16>(c10::BFloat16 const*, c10::BFloat16 const*, "
                        "c10::BFloat16*, long long)", 8192 * 11008),
}


def main():
    roofline, specs, gpu, db_path = sys.argv[1:5]
    db = sqlite3.connect(db_path)
    durations, counters = [], []
    for name, (kernel, n) in KERNELS.items():
        rows = db.execute("SELECT launch_id, duration_us FROM v_profile_launches WHERE kernel = ? ORDER BY seq",
                          (kernel,)).fetchall()
        duration, counter_row = sample_kernels.measure(roofline, specs, gpu, name, db, rows, n, None)
        durations.append(duration)
        counters.append(counter_row)
    sample_kernels.render(durations, counters, [], own_label="the script's own time")


if __name__ == "__main__":
    main()

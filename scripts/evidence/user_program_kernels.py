#!/usr/bin/env python3
"""The kernels of a user's program (tests/profile/chain_kernels.cu, loop_kernels.cu, tensor_kernels.cu,
staged_kernels.cu, staged_kernels2.cu, science_kernels.cu, fp64_kernels.cu, sfu_kernels.cu or int_kernels.cu) predicted from the specs drafted from its binary
(docs/results/h100/{chain,loop,tensor,staged}-kernels/specs.toml, staged-kernels-2/) beside what
`roofline profile` measured when the program ran, at each of its three sizes: the tables of
scripts/evidence/sample_kernels.py. The program is the archive's top folder (chain, loop, tensor, staged, staged2, science,
fp64, sfu or int). With
--no-chain, the specs' `dependent_cycles` lines are left out first: what the drafts gave before
they counted chains. With --kernel-timing, predicted as the kernel's own time (`predict --timing
kernel`), the time a profile measures.

Usage: user_program_kernels.py ROOFLINE SPECS GPU PROFILE_TAR [--no-chain] [--kernel-timing] > page-part.md
"""
import os
import sqlite3
import sys
import tarfile
import tempfile

import sample_kernels

PROGRAMS = {  # archive folder -> spec kernel -> its demangled name in the profile
    "chain": {
        "softplus_bf16": "softplus_bf16(__nv_bfloat16 const*, __nv_bfloat16*, long long)",
        "polyval15_f32": "polyval15_f32(float const*, float*, long long)",
        "quantize_i8": "quantize_i8(float const*, signed char*, float, long long)",
        "normalize3_f32": "normalize3_f32(float*, float*, float*, long long)",
    },
    "loop": {
        "rowmax_abs_f32": "rowmax_abs_f32(float const*, float*, int)",
        "gelu_tanh_f16x2": "gelu_tanh_f16x2(__half2 const*, __half2*, long long)",
    },
    "tensor": {
        "hgemm_wmma_global": "hgemm_wmma_global(__half const*, __half const*, float*, int)",
        "hgemm_wmma_shared": "hgemm_wmma_shared(__half const*, __half const*, float*, int)",
    },
    "staged": {
        "stencil5_tiled": "stencil5_tiled(float const*, float*, int)",
        "sobel_tiled": "sobel_tiled(float const*, float*, int)",
        "conv1d_tiled_r8": "conv1d_tiled_r8(float const*, float*, int)",
        "reverse_blocks": "reverse_blocks(float const*, float*)",
    },
    "staged2": {
        "box5x5_tiled": "box5x5_tiled(float const*, float*, int)",
        "conv1d_tiled_r16": "conv1d_tiled_r16(float const*, float*, int)",
        "gather_stage": "gather_stage(int const*, float const*, float*)",
    },
    "science": {
        "particles_aos_step": "particles_aos_step(Particle*, int, float)",
        "kmeans_assign_k16": "kmeans_assign_k16(float4 const*, int*, int)",
        "hist_warp_agg": "hist_warp_agg(unsigned char const*, unsigned int*)",
    },
    "fp64": {
        "daxpy": "daxpy(double const*, double*, int, double)",
        "dpoly_horner64": "dpoly_horner64(double const*, double*, int)",
        "jacobi2d_f64": "jacobi2d_f64(double const*, double*, int)",
    },
    "sfu": {
        "silu_f32": "silu_f32(float const*, float*, int)",
        "sigmoid_chain4": "sigmoid_chain4(float const*, float*, int)",
        "sigmoid_chain16": "sigmoid_chain16(float const*, float*, int)",
    },
    "int": {
        "xorshift32_x32": "xorshift32_x32(unsigned int const*, unsigned int*, int)",
        "murmur_fmix4": "murmur_fmix4(unsigned int const*, unsigned int*, int)",
    },
}
# Each program's three sizes in elements (the GEMMs': elements of C, sides 1024 to 4096), as
# exponent -> n.
SIZES = {"chain": {22: 2**22, 24: 2**24, 26: 2**26}, "loop": {22: 2**22, 24: 2**24, 26: 2**26},
         "tensor": {20: 2**20, 22: 2**22, 24: 2**24}, "staged": {20: 2**20, 22: 2**22, 24: 2**24},
         "staged2": {20: 2**20, 22: 2**22, 24: 2**24}, "science": {20: 2**20, 22: 2**22, 24: 2**24},
         "fp64": {20: 2**20, 22: 2**22, 24: 2**24}, "sfu": {20: 2**20, 22: 2**22, 24: 2**24},
         "int": {20: 2**20, 22: 2**22, 24: 2**24}}
# A kernel whose spec counts another element than the program's sizes do: its three sizes. The
# k-means points are float4s, and its spec's elements their floats.
KERNEL_SIZES = {"kmeans_assign_k16": {22: 2**22, 24: 2**24, 26: 2**26}}


def sizes(name, spec_kernel):
    """The kernel's three sizes as exponent -> n, in the order the program runs them."""
    return KERNEL_SIZES.get(spec_kernel, SIZES[name])


def main():
    roofline, specs, gpu, tar_path = sys.argv[1:5]
    options = sys.argv[5:]
    scratch = tempfile.mkdtemp()
    with tarfile.open(tar_path) as tar:
        tar.extractall(scratch, filter="data")
    name = next(p for p in PROGRAMS if os.path.isdir(f"{scratch}/{p}"))
    if "--no-chain" in options:
        with open(specs) as f:
            text = "".join(line for line in f if not line.startswith("dependent_cycles"))
        specs = scratch + "/specs-no-chain.toml"
        with open(specs, "w") as f:
            f.write(text)
    db = sqlite3.connect(f"{scratch}/{name}/{name}.db")
    durations, counters = [], []
    for spec_kernel, kernel in PROGRAMS[name].items():
        # Each size's launches, told apart by their order: five at each size, smallest first.
        launches = db.execute("SELECT launch_id, duration_us FROM v_profile_launches WHERE kernel = ? ORDER BY seq",
                              (kernel,)).fetchall()
        for k, (exponent, n) in enumerate(sizes(name, spec_kernel).items()):
            rows = launches[5 * k:5 * k + 5]
            duration, counter_row = sample_kernels.measure(
                roofline, specs, gpu, spec_kernel, db, rows, n, None,
                "kernel" if "--kernel-timing" in options else "event")
            label = f"{spec_kernel} 2^{exponent}"
            durations.append((label,) + duration[1:])
            counters.append((label, counter_row[1]))
    sample_kernels.render(durations, counters, [], own_label="the program's own time")


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# docs/results/sfu-kernels.md: an eighth user's program (tests/profile/sfu_kernels.cu: SiLU and
# chains of 4 and 16 sigmoids, with the fast intrinsics) taken through the user's loop on an H200
# when the model first took the special function unit as a pipe of its own: drafted from its
# binary, specified, predicted before any run (predicted-before.txt), then profiled twice and
# beside ncu. Made by `PROGRAM=sfu_kernels NAME=sfu KERNELS="silu_f32 sigmoid_chain4
# sigmoid_chain16" scripts/device/chain_kernels_evidence.sh draft`, then on the same H200
# `roofline calibrate --db sfu.db` in the run's folder, `... profile` twice (the second archived
# as profile-repeat.tar.gz) and ncu with the same metrics (ncu.csv.gz); the archives are in
# docs/results/h200/sfu-kernels/.
# Usage: scripts/evidence/write_sfu_kernels_doc.sh ROOFLINE
set -euo pipefail
R=$(realpath "$1")
cd "$(dirname "$0")/../.."
G=docs/results/h200/sfu-kernels
source scripts/evidence/wall_times.sh
raw=$(mktemp -d) && trap 'rm -rf "$raw"' EXIT
mkdir -p "$raw/draft" && tar -xzf $G/draft.tar.gz -C "$raw/draft"
{
cat <<'EOT'
# A user's program of special functions, predicted blind on an H200

`tests/profile/sfu_kernels.cu` is the eighth program written to test the drafts and the model on
kernels they were not developed on (after `chain-kernels.md`, `loop-kernels.md`,
`tensor-kernels.md`, the two of `staged-kernels.md`, `science-kernels.md` and `fp64-kernels.md`).
Its kernels compute activations with CUDA's fast intrinsics: `__expf` (an FMUL and a `MUFU.EX2`)
and `__fdividef` (a `MUFU.RCP` and an FMUL). `MUFU` runs on the special function unit (ncu's XU
pipe), 16 lanes an SM, an eighth of the FP32 lanes. No suite kernel spends more than two special
functions an element, and until this program was written the model had no place for them: a
spec could not say them, the drafts counted them only on the dependent chain, and neither
`predict --from-run` nor the counter analysis read the XU pipe. Now a spec's flops take
`op = "sfu"`, every GPU file carries `sfu_per_clock_per_sm` (16, the CUDA programming guide's
throughput), `roofline calibrate` measures it (15.96 on the H200 below), the drafts count `MUFU`,
`F2F`, `F2I`, `I2F` and `FRND` as such, the compute bound is the longest of the FP pipes, the
tensor cores and the unit, and `smsp__inst_executed_pipe_xu.sum` is a default counter. The
kernels:
- `silu_f32`: y = x sigmoid(x), two special functions an element between one load and one store.
- `sigmoid_chain4`: y = sigmoid applied 4 times to x, eight.
- `sigmoid_chain16`: 16 times, 32: the unit's time is longer than anything else the kernel does.

Each runs five launches back to back at 2^20, 2^22 and 2^24 elements, and the program checks a
sample of each output on the CPU. The loop:
1. Built with nvcc, each kernel drafted from the binary on an H200 (`draft.tar.gz`), in the
   device call that ran the GPU tests of this build (`docs/results/h200/gpu-tests-ed8343d/`).
2. The drafts kept as they were but for the names (`specs.toml`): they now draft the flops, the
   special functions among them, from the SASS.
3. Predicted for the H200 and the H100 from the GPU files, timed as the kernel and by events,
   and committed with the special function unit before the program ran (`predicted-before.txt`,
   commit ed8343d).
4. Then, on the same H200, calibrated, profiled twice and profiled by ncu. The commands:

EOT
loop_commands sfu_kernels sfu
cat <<'EOT'

The 16 sigmoids' draft, as made on the device:

```toml
EOT
sed -n '/^# per thread/p;/^\[\[kernel\]\]/,$p' "$raw/draft/sfu/sigmoid_chain16.toml"
cat <<'EOT'
```

EOT
loop_results "$R" $G sfu "$raw"
echo
echo "The XU pipe's counter (\`smsp__inst_executed_pipe_xu.sum\`): $(grep -c 'pipe_xu' "$raw/cmp.md" || true) values"
echo "outside 2 % of ncu's. Predicted from the specs beside what the profile measured, the first launch"
echo "of each kernel at each size:"
echo
python3 scripts/evidence/pipe_counter_table.py "$R" $G/specs.toml "$raw/h200/sfu/sfu.db" smsp__inst_executed_pipe_xu.sum silu_f32 sigmoid_chain4 sigmoid_chain16
cat <<'EOT'

## Without the special function unit

EOT
without_op "$R" $G sfu "$raw"
cat <<'EOT'

## What the rows say

- **Blind, 8 of the 9 kernels and sizes are within ±10 %** (8 of 9 against the repeat), median
  3.5 %, with the counters the model predicts from the specs right but the DRAM writes at 2^22:
  DRAM and L2 reads, the warp instructions and the XU pipe's instructions exact or within 2 %.
  At 2^22 the model writes back the 2 MiB of dirty lines a cold L2 holds
  (`l2_cold_dirty_bytes`), as a footprint past the L2's resident share does; these launches wrote
  a sixth of that.
- **The 16 sigmoids are bound by the special function unit, predicted and measured**, 3-6 %
  fast: 2^24 x 32 operations at 15.96 per SM per clock is 128 µs of the 134 measured. Without
  the unit the model called them latency-bound and 18-20 % fast.
- **The drafts' FMULs are three times what ran**: 48 a thread in the 16 sigmoids' SASS, 16
  measured (`roofline spec --from-run` on the profile says 16 f32 mul, 16 f32 add, 32 f32 sfu a
  thread): `__fdividef`'s scaling of large divisors is two predicated FMULs a sigmoid that do not
  run. The drafts count the SASS's path as `smsp__inst_executed` does, predicated-off
  instructions included; FP32's time is far from binding here.
- **The 4 sigmoids and SiLU are latency-limited**, their special functions under their rounds;
  at 2^24 they are 9.8 and 11.0 % fast, like the suite's one-shot kernel of 4-byte loads without
  arithmetic on the H200 (`read_only_f32`, 11-14 % fast at 2^24 in `docs/accuracy.md`): what is
  missing there is in the rounds, not in the unit.
EOT
echo
h100_section "$R" $G sfu "$raw"
} > docs/results/sfu-kernels.md
echo "docs/results/sfu-kernels.md written"

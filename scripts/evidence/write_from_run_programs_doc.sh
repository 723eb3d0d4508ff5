#!/usr/bin/env bash
# docs/results/from-run-programs.md: `roofline predict --from-run` judged on every program profiled
# on both GPUs (scripts/evidence/from_run_programs.py), with this build and, where given, an
# earlier one beside it.
# Usage (from the repo root): scripts/evidence/write_from_run_programs_doc.sh ROOFLINE [EARLIER_ROOFLINE REV]
set -euo pipefail
R=$1 EARLIER=${2:-} REV=${3:-}
{
cat <<EOT
# Programs profiled on the H100, predicted on the H200 from their own counters

Every program profiled on both GPUs: each H100 profile predicted on the H200 by \`roofline predict
--from-run RUN --db DB --gpu h200\` (the H200 model's catalog values, nothing measured on the H200
that ran the program), beside the same program's H200 profile, launches matched by kernel and
occurrence. A kernel's error is that of its launches' times summed; launches are grouped by the
limiter the H100's counters gave them. The first programs are those the prediction's rounds and
empty kernel (2026-11-28) were worked out on; the five users' CUDA programs after them, each
profiled on both GPUs for the drafts' pages, were held out of that work and read once it was done,
and so was the test program the GPU tests profile, on both GPUs with one build. The last
program, a convolutional network's training step, was written and profiled after the page's
changes.
Made by \`scripts/evidence/write_from_run_programs_doc.sh ROOFLINE EARLIER_ROOFLINE e30ce86\`, the
second a build of e30ce86 (\`scripts/evidence/from_run_programs.py\`); each program's own page has
its kernels one by one (\`docs/results/h200/profile-prediction.md\`, \`transformer-program.md\`,
\`triton-program.md\`, \`extension-program.md\`, \`graph-program.md\`,
\`docs/results/h200/cuda-samples/prediction.md\`, and the users' programs' pages).

## This build

EOT
python3 scripts/evidence/from_run_programs.py "$R"
if [[ -n $EARLIER ]]; then
  cat <<EOT

## Before: a build of $REV

The same programs and profiles through \`roofline predict --from-run\` as built at $REV, before an
event-timed launch's fixed part and its waves' floor took the model's launch (a grid's launch, a
cold one with the share of the fill its waves and reads come to; the waves counted as a fraction,
less those that turn over under a cold launch). The page as it was at 578117f has, beside a build
of 74675d3, the changes before: a launch's work floored by its grid's waves, each a round of its
loads and stores on the target, and a storing kernel's fixed part holding what its stores add
(\`kernel_trace_store_ns\`); and at 74675d3, beside a build of 1647b84, a kernel's own time split
into each GPU's empty kernel and its work and a latency-limited launch's work kept as its rounds
of loads.

EOT
  python3 scripts/evidence/from_run_programs.py "$EARLIER"
fi
cat <<'EOT'

## What it says

- **One launch rule with the model from specs** (the last change, against a build of e30ce86, the
  tables above). A suite run's launches are timed by an event pair, whose fixed part had been the
  empty kernel's overhead (warm) or it and the whole fill (cold), and whose waves' floor counted
  whole waves of \`block_wave_ns\`. The model from specs had come to take a grid's launch
  (at least \`block_wave_launch_ns\`, a cold one with the share of \`launch_fill_ns\` its waves and
  DRAM reads come to) and its waves as a fraction, less those that turn over under a cold launch
  (\`docs/model.md\`, the launch bound); \`--from-run\` now takes the same functions
  (\`grid_launch_s\`, \`wave_turnover_s\`). Profiles and imports, timed as kernels, do not move. The
  held-out batches went from 152 to 165 of 186 launches within ±10 %; the whole suite from 313
  to 310 of 348 (median 3.2 → 2.9 %). The warm 2^20 launches that the empty kernel's overhead had
  scaled by the two GPUs' ratio (0.91) went from 1–6 % fast to 2–9 % slow: the catalog's grid
  launches are the same on both GPUs (3.36 and 3.37 µs), where those launches measured 1–6 %
  shorter on the H200, as the model from specs finds too. Three crossed 10 %: the random gather
  and the scatter-add at 2^20 warm (+10.6, +12.5 %) and the read-only stream at 2^24 cold
  (−11.9 %, the latency-bound miss the model from specs has there).

Made on 2026-11-28 with a build of the page's commit then (578117f) and one of 74675d3, after two
changes:
- **A program written after both** (the last rows of each table): a convolutional network's
  training step (`tests/profile/conv_step.py`: cuDNN convolutions forward and backward, batch norm,
  ReLU, pooling, a linear layer, cross-entropy and SGD with momentum), FP32 and BF16 autocast,
  profiled on an H100 and an H200 (`scripts/device/conv_program.sh`,
  `docs/results/{h100,h200}/conv/`) with the prediction frozen at de80cac. 85 of its 88 kernels
  within ±10 % (the build of 74675d3: 80), 703 of its 875 launches (686), the median kernel 3.4 %
  off; the summed kernel time 0.5 % (FP32) and 0.9 % (BF16) slow. Its misses: cuDNN's FP32
  implicit-GEMM data gradient 12 % slow, a mean reduction 16 % slow and the BF16 run's NLL loss
  forward 14 % slow (the first two latency-limited on the H100, the last a launch of 2–3 µs).
- **What a store adds to a kernel's own time** (the second change). An exploratory probe under
  `roofline profile` (`docs/results/{h100,h200}/trace-fixed/`, `scripts/device/trace_fixed_probe.sh`)
  timed, by the Activity API, kernels that differ from the empty one in one thing each. A spin or
  empty blocks keep the empty kernel's difference between the GPUs (320 ns shorter on the H200); a
  store per thread adds 64 ns to a kernel's own time on the H100 (two runs) and 128, 160 and 160
  ns on H200s (three runs), so a one-block kernel that stores is 224–256 ns shorter there, as the
  one-block PyTorch adds were. That addition is `kernel_trace_store_ns` (64 and 160 ns in the GPU
  files), and a profiled kernel that stores (its L1 store requests counted) holds it in its fixed
  part beside the empty kernel's own time. `roofline calibrate` records the same kernel traced in
  its own process, where the H200's store read 64 ns as the H100's does
  (`docs/results/{h100,h200}/kernel-trace/store/`); profiles are what this page reads, so the files
  take the profiled probe's. The launch-limited launches of the programs it was worked out on went
  from 227 to 361 of 580 within ±10 % (median −11.3 → −3.6 %): the CUDA-graph program's from 462 to
  558 launches, the transformer step's from 202 to 230; all their kernels from 109 to 114 (the
  transformer step's MSE backward went from 9.9 to 10.5 % slow); latency-limited launches 878 →
  871. The held-out programs went from 18 to 21 of 22 kernels (the test program's 4 → 7 of 7) and
  from 205 to 210 launches; they had been read before both changes, so neither is blind on them. The H200's value, 160 ns where the first probe run read 128, gave 26
  more launches of the first programs and 2 of the held-out ones than 128. Suite runs are
  event-timed and did not move (taking the addition into an event pair's fixed part too, which was
  not measured, gave the whole suite 303 and the held-out batches ±2 launches: not kept).
- **The waves' floor** (the first change; the numbers here are its own, before the second): each
  wave of resident blocks (the occupancy of the launch's block, registers and shared memory on the
  target) waits at least one round of its loads, at the share of them DRAM serves, and one of its
  stores (`store_round_ns`), each with the DRAM's queue at the utilization the waves make, the
  model's one-shot round; a launch limited by anything but its launch takes at least that on the
  target. A suite launch takes its grid, block and registers from its prediction (not where
  shared memory limited its blocks: a suite run stores no shared-memory size). Worked
  out on the whole suite's DRAM-limited misses: the scalar adds, the FP16 pairs' add, the fused
  Hadamard product and the strided SAXPY at 2^24 and 2^28 went from 8–14 % fast to 4 % fast to 4 %
  slow, and the whole suite from 299 to 305 of 348 launches within ±10 % (DRAM-limited 96 → 102 of
  114); the 16-byte adds, whose many bytes in flight keep the H200's DRAM busy too, went 2–3
  points slower (+3 to +5 %). The read-only stream stayed 18–20 % fast: its loads' rounds are
  short, but a wave of blocks takes `block_wave_ns` however short its rounds (641 ns on the H200),
  as the model from specs says; with that floor on each wave too (added after the second change) it
  is 7–10 % fast, the write-only stream went from 2–5 % fast to 1–3 % slow, and the whole suite
  read 309 (DRAM-limited 106 of 114); nothing else moved. Last, a suite launch of several kernels
  that share a block and registers (the unfused Hadamard product's two multiplies) counts their
  blocks together, one kernel's waves after the other's, where it had no grid: its four launches
  went from 14 % fast to 1–5 % fast, and the whole suite reads 313 of 348 (DRAM-limited 110 of
  114). The programs it was worked
  out on went from 107 to 109 kernels within ±10 % (1415 → 1425 launches, DRAM-limited 168 → 178
  of 247; one CUDA-graph launch moved out), the held-out programs stayed at 18 of 22 kernels
  (median 4.7 → 3.5 %) and 205 launches, the fifth held-out batch went from 12 to 15 of 18, and no
  other suite run moved. Tried and not kept: the floor on launch-limited launches too (their first
  waves turn over under the launch, as the model from specs says): the held-out programs gained 14
  launches, the first programs lost 46 (the CUDA-graph program's short kernels came out slow). And
  inferring the bytes in flight from the source's rate and loaded round (Little's law at the DRAM
  utilization it ran at): 310 of the whole suite's launches, but the im2col and the grid-stride
  dot product up to 12 % slow, the eighth held-out batch 22 → 19 of 24: near saturation the loaded
  round, and so the bytes it implies, changes steeply with the utilization.

Before these two changes, against a build of 1647b84 (the page at 74675d3 has both builds'
tables; its numbers are a build of 74675d3's):
- The programs it was worked out on: 107 of 143 kernels within ±10 % against 90, median 5.0 %
  against 7.5 %; 1415 of 2035 launches against 1225.
- The held-out programs: 18 of 22 kernels within ±10 % as before, median 4.7 % against 5.2 %;
  but 205 of 251 launches against 221. The chain program's launches come out better (55 against
  47), the first staged program's (50 against 59), the loop program's (25 against 30) and the test
  program's (11 against 23 of 26) worse: their launches of a few microseconds now come out fast,
  as the CUDA samples' do. The five users' programs were read before the last two changes (the
  turnaround between reads and writes and the scattered misses counted in a launch's DRAM time as
  the model counts them, nothing fitted), which moved them by one launch; the test program after
  them. Read once they were: with the H100's empty kernel kept on the H200 (the rest as now;
  tried in a build not committed), the held-out programs read 20 of 22 kernels, median 2.2 %,
  215 launches, and the first programs 102 of 143 kernels, 1384 launches. The empty kernel's
  difference shows in the PyTorch programs' tiny kernels, which the first programs are full of,
  and not in these programs' launches of a few microseconds; the page keeps the measured
  difference, and which kernels it reaches is open.
- Latency-limited launches of the first programs, most of every program: 878 of 1066 within
  ±10 % against 718, the median error −1.4 % against −6.5 %. The ratio of loaded DRAM latencies
  (418 / 468 ns) made every one 11 % faster; rounds at each GPU's loaded round leave a launch
  whose DRAM was nearly idle (the random-number kernels) about as fast on both GPUs, as measured,
  and let one that kept the H100's DRAM busy gain from the H200's wider DRAM. Those that kept it
  60–76 % busy still ran nearer the bandwidth ratio (0.70) than their rounds give (0.85–0.90).
- Launch-limited launches of the first programs, a microsecond or a few: 227 of 580 within
  ±10 %, median −11.3 %, where keeping their time gave 200 and +17.6 %. The H200's empty kernel
  is 321 ns shorter; the PyTorch programs' tiny kernels ran 250–300 ns shorter, but the CUDA
  samples' short kernels and a 2.4 µs Triton kernel took about as long on both GPUs, and now come
  out up to 22 % fast: the CUDA samples read 13 of 19 kernels within ±10 %, 16 before.
- DRAM-limited launches are scaled by the ratio of the two DRAM times after their empty kernel,
  as before (now with each GPU's turnaround between reads and writes); the short ones do not
  reach it.
- The suite runs, which `--from-run` takes since this page's commit (1647b84 refused them) and
  which the rounds were not worked out on: 299 of the whole suite's 348 launches within ±10 %
  (85.9 %, median 3.3 %), where the model from the specs, calibrated on an H200, reads 83.9 % of
  354 (`docs/accuracy.md`); the held-out batches 60–96 % (the specs': 53–96 %). Read from the
  whole suite's misses, and the last change here: loads that missed L2 at scattered addresses
  (the DRAM's read sectors beyond the L2's, over the extra sectors a random fetch brings, at
  most the L2's) go at each GPU's random-load rate, as the model's DRAM bound takes them, which
  brought the random gather and the row SpMV at 2^28 from 28–33 % slow to 8–15 %, and the second
  held-out batch from 25 to 31 of 36; the whole suite went from 297 to 299. What still misses is
  systematic. Launches DRAM-limited on the H100 with few bytes in flight (the scalar adds, the
  read-only stream, the unfused Hadamard product) are scaled by the full DRAM ratio, 0.70, and
  come out 11–25 % fast: on the H200 they are latency-limited, which the counters cannot say.
  Launches whose loads scatter but hit L2 or land in few DRAM pages (the scatter-add, the warp
  SpMV, the naive transpose) come out 13–23 % slow. The column sum, 13–14 % fast, is the
  row-stride round the specs miss too.
EOT
} > docs/results/from-run-programs.md

#!/usr/bin/env bash
# docs/results/ddp-program.md: `roofline profile` on a program across two GPUs
# (scripts/device/ddp_evidence.sh on a two-GPU machine, its output in docs/results/h200/ddp/: the
# run's database, and one per way NCCL shared its buffers).
# Usage: scripts/evidence/write_ddp_doc.sh ROOFLINE
set -euo pipefail
R=$1
cd "$(dirname "$0")/../.."
G=docs/results/h200/ddp
source scripts/evidence/wall_times.sh
raw=$(mktemp -d) && trap 'rm -rf "$raw"' EXIT
tar -xzf $G/raw.tar.gz -C "$raw"
{
cat <<'EOT'
# A program across two GPUs: data-parallel training over NCCL

`tests/profile/ddp_step.py` runs under `torchrun` as one process per GPU: a small MLP wrapped in
PyTorch's `DistributedDataParallel`, whose gradients NCCL all-reduces between the two GPUs every
step, three steps; each rank then checks that every rank holds the same parameters. Made on a
machine with two GPUs by `scripts/device/ddp_evidence.sh`, rendered by
`scripts/evidence/write_ddp_doc.sh`:

    torchrun --standalone --nproc_per_node=2 tests/profile/ddp_step.py
    roofline profile --no-counters --db trace.db -- torchrun --standalone --nproc_per_node=2 tests/profile/ddp_step.py
    roofline profile --db ddp.db -- torchrun --standalone --nproc_per_node=2 tests/profile/ddp_step.py

The database, the wall times and every run's output are in `docs/results/h200/ddp/`.

EOT
sed 's/^/    /' $G/facts.txt
cat <<'EOT'

## What went wrong first, and what changed

The first `roofline profile` of this program (the build of 2026-11-27 before the change below, on
two H200s) replayed NCCL's kernels for their counters (its log shows a broadcast collected in 6
passes) and then hung; it was killed (SIGKILL) after 150 s, so nothing was stored. An NCCL kernel
waits for its peers' kernels on the other GPUs, so replayed alone it can wait for ever. Now:

- NCCL's kernels (`ncclKernel_*`, `ncclDevKernel_*`) are stored with their durations and without
  counters, saying why (`profiler/inject/communication_kernel.hpp`); the kernels between them are
  replayed as before.
- Memory shared with other processes (legacy IPC, or a physical allocation exported or imported
  through the virtual memory API, as NCCL's buffers can be) is neither saved nor restored for
  replay: a peer may write it while this process replays, and a restore would undo that
  (`profiler/inject/device_memory_tracker.hpp`). This second change came from reading what
  replay does, not from a run that showed it; the program was then profiled with NCCL taking
  each of the two ways (below), correct both times.

## The run

EOT
echo "| run | wall time |"
echo "|---|---:|"
echo "| the program alone | $(ms alone $G) ms |"
echo "| \`roofline profile --no-counters\` | $(ms trace $G) ms |"
echo "| \`roofline profile\` (default counters) | $(ms profile $G) ms |"
echo "| the same, NCCL sharing its buffers through legacy CUDA IPC (\`NCCL_CUMEM_ENABLE=0\`) | $(ms profile_cumem0 $G) ms |"
echo "| the same, NCCL sharing them through the virtual memory API (\`NCCL_CUMEM_ENABLE=1\`) | $(ms profile_cumem1 $G) ms |"
echo
echo "Every rank printed \"results correct\" in each of the five runs, with the same losses and"
echo "parameters:"
echo
echo '```'
for r in alone trace profile profile_cumem0 profile_cumem1; do grep -h "ddp_step" "$raw/$r.out" | sort | sed "s/^/$r: /"; done
echo '```'
echo
echo "How NCCL connected the two GPUs in the last two runs (its log, \`NCCL_DEBUG=INFO\`), the first"
echo "channel each way:"
echo
echo '```'
for c in 0 1; do
  grep -h "Channel 00/0 .* via P2P" "$raw/profile_cumem$c.out" "$raw/profile_cumem$c.err" | sed 's/.*NCCL INFO /NCCL_CUMEM_ENABLE='$c': /' | sort
done
echo '```'
echo
echo "roofline recorded $(recorded "$R" $G/ddp.db) (\`torchrun\` itself is a third"
echo "process, which launches nothing). Per process:"
echo
echo '```'
cat $G/processes.txt
echo '```'
echo
echo "NCCL's kernels, each stored with its duration and the reason it has no counters:"
echo
echo '```'
cat $G/nccl.txt
echo '```'
echo
cat <<'EOT'
Not checked: counters beside ncu on this program, and what the overlap of the two processes'
replays does to the other kernels' counters (they run side by side, as two programs under one
`roofline profile` do: `docs/profile.md`, Limits).
EOT
} > docs/results/ddp-program.md
echo "wrote docs/results/ddp-program.md"

#!/usr/bin/env bash
# `roofline profile` on a program across two GPUs (tests/profile/ddp_step.py under torchrun: one
# process per GPU, NCCL all-reducing the gradients), on a machine with two GPUs: the program
# alone, trace-only and with counters, each with a time limit (a hang is stopped with SIGTERM, so
# roofline stores what it had), and what the database holds per process; then profiled again with
# NCCL's buffers shared each of its two ways. Run from the repo root
# with .device/ unpacked (scripts/device/pack.sh); writes $OUT/ddp and $OUT/ddp.tar.gz.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
output_folder ddp
nvidia-smi -L >> $E/facts.txt
python3 -c 'import torch; print("torch", torch.__version__, "nccl", ".".join(map(str, torch.cuda.nccl.version())))' >> $E/facts.txt 2>&1
T="torchrun --standalone --nproc_per_node=2 tests/profile/ddp_step.py"
TIMED_LIMIT=120 timed alone $T
TIMED_LIMIT=120 timed trace $R profile --no-counters --db $E/trace.db -- $T
TIMED_LIMIT=240 timed profile $R profile --db $E/ddp.db -- $T
# NCCL shares its buffers between the processes through the virtual memory API (cuMem) or legacy
# CUDA IPC: both, with NCCL's log of which it took (NCCL_PATHS=0 skips them).
if [[ ${NCCL_PATHS:-1} == 1 ]]; then
  for c in 0 1; do
    NCCL_CUMEM_ENABLE=$c NCCL_DEBUG=INFO TIMED_LIMIT=240 timed profile_cumem$c $R profile --db $E/cumem$c.db -- $T
  done
fi
$R query --db $E/ddp.db "SELECT pid, device, count(*) AS launches, sum(counter_status = 'collected') AS with_counters, \
sum(kernel LIKE 'nccl%') AS nccl FROM v_profile_launches GROUP BY pid, device ORDER BY device" > $E/processes.txt 2>&1
$R query --db $E/ddp.db "SELECT DISTINCT kernel, counter_status, counter_note FROM v_profile_launches WHERE kernel LIKE 'nccl%'" \
  > $E/nccl.txt 2>&1
tar -C $OUT -czf $OUT/ddp.tar.gz ddp
cat $E/facts.txt $E/wall.txt $E/processes.txt; grep -h "results" $E/*.out | sort | uniq -c
grep -hi "cumem" $E/profile_cumem*.out $E/profile_cumem*.err | sort | uniq -c | head

#!/usr/bin/env bash
# Exploratory: builds scripts/device/shared_probe.cu on the device machine (nvcc there), profiles
# it with `roofline profile` and prints each launch's shared-memory wavefronts per LDS warp
# instruction. Run from the repo root with .device/ unpacked (scripts/device/pack.sh):
#   bash scripts/device/shared_probe.sh LABEL        (writes $OUT/LABEL/probe.txt)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
E=$OUT/${1:?usage: shared_probe.sh LABEL} && mkdir -p $E
nvcc -O3 -std=c++17 -arch=sm_90 -o $E/shared_probe scripts/device/shared_probe.cu
cuobjdump -sass $E/shared_probe | grep -oE "LDS(\.[0-9A-Z]+)*" | sort | uniq -c > $E/sass_lds.txt
extra=smsp__inst_executed_op_shared_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
$R profile --db $E/probe.db --metrics $extra -- $E/shared_probe > $E/profile.txt 2>&1
value() { echo "(SELECT v.value FROM profiled_values v JOIN metrics m ON m.id = v.metric_id
                 WHERE v.profiled_launch_id = l.launch_id AND m.name = '$1')"; }
{
  echo "made by: bash scripts/device/shared_probe.sh ${1} (roofline profile, then roofline query)"
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo "SASS of the probe (cuobjdump -sass): $(tr -s ' \n' ' ' < $E/sass_lds.txt)"
  $R query --db $E/probe.db "SELECT l.seq, l.kernel,
      $(value smsp__inst_executed_op_shared_ld.sum) AS lds_inst,
      $(value l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum) AS wavefronts,
      round($(value l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum) /
            $(value smsp__inst_executed_op_shared_ld.sum), 3) AS wavefronts_per_inst,
      $(value l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum) AS bank_conflicts
    FROM v_profile_launches l ORDER BY l.seq"
} | tee $E/probe.txt
rm -f $E/shared_probe $E/probe.db-*

#!/usr/bin/env bash
# Why the tensor-kernels program's GEMMs (tests/profile/tensor_kernels.cu) took longer than
# predicted (docs/results/tensor-kernels.md): ncu on one launch of each at side 2048, the L1's
# global-load wavefronts, requests, sectors and hit rate and the warps' stall reasons. Exploratory;
# writes $OUT/tensor-stalls.tar.gz.
# Usage: scripts/device/tensor_stalls_probe.sh
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
R=$PWD/.device/bin/roofline
E=$OUT/tensor-stalls && mkdir -p $E
facts $E/facts.txt
APP=/tmp/tensor_kernels
timed build nvcc -O3 -arch=sm_90 -o $APP tests/profile/tensor_kernels.cu
stalls=""
for s in long_scoreboard lg_throttle mio_throttle barrier math_pipe_throttle short_scoreboard tex_throttle wait; do
  stalls+=",smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio"
done
metrics=gpu__time_duration.sum,l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_read.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct
metrics+=,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum$stalls
for k in hgemm_wmma_global hgemm_wmma_shared; do
  # The second size's launches: the sixth to tenth of each kernel.
  timed "ncu_$k" ncu --clock-control none --cache-control all --kernel-name $k --launch-skip 5 --launch-count 1 \
    --metrics $metrics --csv $APP
done
tar -C $OUT -czf $OUT/tensor-stalls.tar.gz tensor-stalls
cat $E/wall.txt

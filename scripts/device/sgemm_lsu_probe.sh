#!/usr/bin/env bash
# Exploratory: what holds the SGEMMs below their LSU bound. ncu on the naive and the tiled SGEMM
# at 2^20 and 2^22 (one launch each, `roofline measure --once`), with the L1 data pipe's use,
# its hit and miss sectors and the warps' stall reasons. Run from the repo root with .device/
# carried (scripts/device/pack.sh); writes $OUT/sgemm-lsu/ncu.csv.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
mkdir -p $OUT/sgemm-lsu && cd $OUT/sgemm-lsu
m=l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
m+=,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
m+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
m+=,l1tex__m_xbar2l1tex_read_sectors.sum,l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed
m+=,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed
m+=,l1tex__t_requests.avg.pct_of_peak_sustained_elapsed,l1tex__m_xbar2l1tex_read_sectors.avg.pct_of_peak_sustained_elapsed
m+=,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_elapsed
for s in long_scoreboard lg_throttle mio_throttle short_scoreboard barrier; do
  m+=,smsp__average_warp_latency_issue_stalled_$s.ratio
done
m+=,smsp__average_warp_latency_per_inst_issued.ratio,smsp__issue_active.avg.pct_of_peak_sustained_elapsed
m+=,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second
timeout 400 ncu --clock-control none --cache-control all -k regex:sgemm --metrics $m --csv \
  $R measure --kernel sgemm_naive,sgemm_tiled --n 2^20,2^22 --once > ncu.csv 2> ncu.err
echo "ncu: exit $?"; grep -c sgemm ncu.csv

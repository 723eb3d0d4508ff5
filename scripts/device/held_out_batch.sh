#!/usr/bin/env bash
# A held-out batch of the patterns suite on the device at hand: the kernel runner's GPU tests of
# the batch's kernels (each checked against its CPU reference), `roofline calibrate`, then
# `roofline run` of the batch's kernels at their sizes, cold and warm, into one database. Each
# batch's specs were frozen before it ran: batch 2 at 9182daf, batch 3 at f81ead6, batch 4 at
# 7359236, batches 5 to 9 at the commit docs/results/accuracy/held-out-batchN.md names. Run from
# the repo root with .device/ unpacked (scripts/device/pack.sh): `bash
# scripts/device/held_out_batch.sh h100 3` writes under $OUT/h100 (BATCH defaults to 2). The
# run's table goes to a file, not the terminal.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
case ${2:-2} in
  2) K=gather_random,spmv_csr_row,gemv_warp_row,dot_gridstride,scan_block,conv1d_r3 ;;
  3) K=histogram_weighted_f32,scatter_add_f32,embedding_gather_f32,stencil7_3d_f32,bias_gelu_f32 ;;
  4) K=adam_step_f32,column_sum_f32,upsample2x_nearest_f32,bitonic_sort_block_f32,spmv_csr_warp_f32 ;;
  5) K=maxpool2x2_f32,saxpy_stride2_f32,blur3x3_shared_f32 ;;
  6) K=rope_f32,permute_0213_f32,dequant_int8_rowscale_f32,embedding_bag_sum_f32 ;;
  7) K=swiglu_f32,rmsnorm_row_f32,cross_entropy_row_f32,col_mean_tiled_f32 ;;
  8) K=bias_relu_f16x2,bilinear_up2x_f32,argmax_row_f32,im2col3x3_f32 ;;
  9) K=poly_horner_f32,poly_horner_f16x2,normalize_vec3_f32 ;;
  *) echo "held_out_batch.sh: batch 2 to 9, got ${2}" >&2; exit 2 ;;
esac
output_folder ${1:?usage: held_out_batch.sh LABEL [BATCH]}
# The batch's own kernels' GPU tests and the verification tests that list every patterns kernel
# (the suite's other kernels ran with earlier batches and the whole suite).
filter="$(echo "$K" | sed -e 's/[^,]*/*\/&_n*/g' -e 's/,/:/g'):PatternsVerification.*"
timeout 400 .device/tests/kernel_runner_gpu_test --gtest_filter="$filter" \
  > $E/kernel_runner_gpu_test.txt 2>&1
echo "kernel_runner_gpu_test: exit $?" >> $E/wall.txt
cd $E
timeout 120 $R calibrate --db suite.db > calibrate.txt 2>&1; echo "calibrate: exit $?" >> wall.txt
s=$(date +%s); timeout 200 $R run --kernel $K --cache both --db suite.db > run.txt 2> run.err
echo "run: exit $? in $(( $(date +%s) - s )) s" >> wall.txt
rm -f roofline-report.*
cat facts.txt wall.txt; tail -n 3 kernel_runner_gpu_test.txt run.err

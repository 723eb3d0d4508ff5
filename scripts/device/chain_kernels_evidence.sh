#!/usr/bin/env bash
# A user's CUDA program taken through the user's loop on the device: by default
# tests/profile/chain_kernels.cu (four elementwise kernels whose arithmetic between load and store
# is long); PROGRAM=loop_kernels NAME=loop KERNELS="rowmax_abs_f32 gelu_tanh_f16x2" for
# tests/profile/loop_kernels.cu (tensor_kernels, staged_kernels, staged_kernels2, science_kernels
# likewise). Step `draft`: built with nvcc as a user builds it, its SASS recorded and each kernel's
# spec drafted with `roofline spec --from-binary`. Step `profile` (after
# the specs and their predictions are committed): run alone, then under `roofline profile`. Run
# from the repo root with .device/ unpacked (scripts/device/pack.sh profile); writes
# $OUT/$NAME.tar.gz.
# Usage: [PROGRAM=... NAME=... KERNELS=...] scripts/device/chain_kernels_evidence.sh draft|profile
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
export LD_LIBRARY_PATH=$PWD/.device/lib:/usr/local/cuda/lib64
PROGRAM=${PROGRAM:-chain_kernels} NAME=${NAME:-chain}
KERNELS=${KERNELS:-softplus_bf16 polyval15_f32 quantize_i8 normalize3_f32}
R=$PWD/.device/bin/roofline
E=$OUT/$NAME && mkdir -p $E
facts $E/facts.txt
APP=/tmp/$PROGRAM
timed build nvcc -O3 -arch=sm_90 -o $APP tests/profile/$PROGRAM.cu
case ${1:-} in
  draft)
    cuobjdump -sass $APP > $E/$PROGRAM.sass && cuobjdump -res-usage $APP >> $E/$PROGRAM.sass
    for k in $KERNELS; do
      timed "draft_$k" $R spec --from-binary $APP --kernel $k -o $E/$k.toml
    done ;;
  profile)
    timed alone $APP
    timed profile $R profile --db $E/$NAME.db -- $APP ;;
  *) echo "chain_kernels_evidence.sh: draft or profile" >&2; exit 2 ;;
esac
tar -C $OUT -czf $OUT/$NAME.tar.gz $NAME
cat $E/wall.txt

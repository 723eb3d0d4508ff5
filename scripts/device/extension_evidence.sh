#!/usr/bin/env bash
# A PyTorch script with CUDA kernels of its own (tests/profile/extension_step.py, compiled at run
# time by torch.utils.cpp_extension) on the device: profiled, beside ncu, timed and predicted for
# the H200 by scripts/device/triton_evidence.sh, then its kernels' specs drafted both ways a user
# can: from the profile (`spec --from-run`) and from the compiled extension's SASS
# (`spec --from-sass`, the SASS kept). Run from the repo root with .device/ unpacked
# (scripts/device/pack.sh); writes $OUT/extension.tar.gz.
set -uo pipefail
export EXT_BUILD_DIR=/tmp/roofline_ext
NAME=extension PROGRAM=tests/profile/extension_step.py bash "$(dirname "${BASH_SOURCE[0]}")/triton_evidence.sh"
E=$OUT/extension
R=$PWD/${D:-.device}/bin/roofline
cuobjdump -sass $EXT_BUILD_DIR/roofline_ext.so > $E/roofline_ext.sass 2> $E/cuobjdump.err
cuobjdump -res-usage $EXT_BUILD_DIR/roofline_ext.so >> $E/roofline_ext.sass 2>> $E/cuobjdump.err
for k in 'rms_norm_kernel<c10::BFloat16>' 'swiglu_kernel<c10::BFloat16>'; do
  f=$(echo "$k" | cut -d'<' -f1)
  $R spec --from-run latest --db $E/extension.db --kernel "$k" -o $E/$f.from-run.toml > $E/$f.from-run.out 2>&1
  $R spec --from-sass $E/roofline_ext.sass --kernel "$k" -o $E/$f.from-sass.toml > $E/$f.from-sass.out 2>&1
done
tar -C $OUT -czf $OUT/extension.tar.gz extension
tail -n 3 $E/*.from-*.out

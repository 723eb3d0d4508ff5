set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
mkdir -p $OUT/f
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,ecc.mode.current --format=csv > $OUT/f/facts.txt 2>&1
cuobjdump -sass $R > $OUT/f/suite.sass 2>&1; cuobjdump -res-usage $R > $OUT/f/suite.res 2>&1
M=$($R metrics --names)
ncu --csv --page raw --print-units base --clock-control none --cache-control all --metrics "$M" --kernel-name-base function --kernel-name 'regex:add_f32$|add_f16x8_pack|write_only_f32_stride8' $R measure --once --kernel add_f32,add_f16x8_pack,write_only_f32_stride8 --n 2^20 > $OUT/f/ncu_raw.csv 2>&1
ncu --csv --clock-control none --cache-control all --kernel-name 'regex:add_f32$|add_f16x8_pack' $R measure --once --kernel add_f32,add_f16x8_pack --n 2^20 > $OUT/f/ncu_details.csv 2>&1
ROOFLINE_TRACE=1 $R measure --no-timing --profile-batch 1 --kernel add_f32,add_f16 --n 2^20 > $OUT/f/trace.txt 2>&1
s=$(date +%s%N); python3 tests/profile/train_step.py > $OUT/f/torch_plain.txt 2>&1; echo "plain $(( ($(date +%s%N)-s)/1000000 )) ms" >> $OUT/f/torch_wall.txt
s=$(date +%s%N); ncu --csv --page raw --print-units base --clock-control none --cache-control all --metrics "$M" python3 tests/profile/train_step.py > $OUT/f/torch_ncu.csv 2>&1; echo "ncu $(( ($(date +%s%N)-s)/1000000 )) ms" >> $OUT/f/torch_wall.txt
cat $OUT/f/torch_wall.txt; grep -c '^"' $OUT/f/torch_ncu.csv
scripts/device/l2_state_vs_ncu.sh > $OUT/f/l2_table.txt 2>&1
tar -C $OUT -czf $OUT/f.tar.gz f l2 && rm -rf $OUT/l2
cat $OUT/f/l2_table.txt | head -80

#!/usr/bin/env bash
# Where do the L2 read sectors ncu counts beyond roofline's, in short launches, come from? The
# same launches under ncu (--cache-control all and none) and roofline, with the L2 reads split by
# source unit: the SMs' L1/TEX (data) and the GPC's constant and instruction cache (GCC: code and
# kernel parameters). Then the test program and the PyTorch script profiled by ncu and by
# roofline (scripts/evidence/profile_vs_ncu.py reads them). Run from the repo root with .device/
# carried; writes $OUT/l2-code-reads.tar.gz and prints the table. (The committed run,
# docs/results/h100/l2-code-reads/, was made before roofline's counter passes evicted the code:
# it ran roofline both ways, the second with the switch that became the default.)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
APP=$PWD/.device/bin/profile_app
E=$OUT/l2-code-reads && mkdir -p $E
m=lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_gcc_op_read.sum,dram__sectors_read.sum,gpu__time_duration.sum
k=add_f32,read_only_f32,reduce_block_atomic
facts $E/facts.txt
for cc in all none; do
  ncu --csv --page raw --print-units base --clock-control none --cache-control $cc --metrics $m \
    --kernel-name-base function --kernel-name 'regex:add_|read_only|reduce_block' \
    $R measure --once --kernel $k --n 2^16,2^20 > $E/ncu_$cc.csv 2> $E/ncu_$cc.err
done
$R measure --no-timing --kernel $k --n 2^16,2^20 --metrics $m --format csv > $E/roofline.csv 2> $E/roofline.err
M=$($R metrics --names)
NCU="ncu --csv --page raw --print-units base --clock-control none --cache-control all --kernel-name-base mangled --metrics $M"
$NCU $APP --n 16777216 > $E/app_ncu.out 2> $E/app_ncu.err
$R profile --db $E/app.db -- $APP --n 16777216 > /dev/null 2> $E/app.err
$NCU python3 tests/profile/train_step.py > $E/torch_ncu.out 2> $E/torch_ncu.err
$R profile --db $E/torch.db -- python3 tests/profile/train_step.py > /dev/null 2> $E/torch.err
python3 - "$E" <<'PY' | tee $E/probe.txt
import csv, glob, os, sys
E = sys.argv[1]
cols = ["lts__t_sectors_op_read.sum", "lts__t_sectors_srcunit_gcc_op_read.sum", "dram__sectors_read.sum",
        "gpu__time_duration.sum"]
print("tool | kernel | grid | " + " | ".join(cols))
for cc in ("all", "none"):
    rows = [r for r in csv.reader(open(f"{E}/ncu_{cc}.csv")) if r]
    i = next(k for k, r in enumerate(rows) if r[0] == "ID")
    for r in rows[i + 2:]:
        d = dict(zip(rows[i], r))
        print(f"ncu {cc} | {d['Kernel Name'][:24]} | {d['Grid Size']} | " + " | ".join(d.get(c, "-") for c in cols))
for path in sorted(glob.glob(f"{E}/roofline*.csv")):
    tag = os.path.basename(path)[len("roofline"):-len(".csv")]
    for d in csv.DictReader(open(path)):
        print(f"roofline{tag} | {d['kernel']} | {d['n']} | " + " | ".join(d.get(c, "-") for c in cols))
PY
tar -C $OUT -czf $OUT/l2-code-reads.tar.gz l2-code-reads && rm -rf $E

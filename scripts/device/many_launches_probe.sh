#!/usr/bin/env bash
# `roofline profile` on a program of many tiny launches (tests/profile/many_launches.py, 50,000 by
# default): alone, traced (--no-counters) and with the first 200 launches' counters
# (--launch-count 200), then 5,000 launches with every launch's counters, each timed. Run from the repo root with .device/
# unpacked (scripts/device/pack.sh profile); writes $OUT/many.tar.gz.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
E=$OUT/many && mkdir -p $E
TIMED_LIMIT=300
facts $E/facts.txt
SCRIPT="python3 tests/profile/many_launches.py --launches ${LAUNCHES:-50000}"
timed alone $SCRIPT
timed trace $R profile --no-counters --db $E/trace.db -- $SCRIPT
timed first200 $R profile --launch-count 200 --db $E/first200.db -- $SCRIPT
timed all5000 $R profile --db $E/all.db -- python3 tests/profile/many_launches.py --launches 5000
tar -C $OUT -czf $OUT/many.tar.gz many
cat $E/wall.txt; grep -h "many_launches\|recorded" $E/*.out

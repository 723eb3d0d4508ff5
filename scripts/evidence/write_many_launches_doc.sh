#!/usr/bin/env bash
# docs/results/h100/many-launches/README.md from the runs kept beside it: before.tar.gz
# (scripts/device/many_launches_probe.sh, the databases left out) and after.tar.gz (its
# --launch-count 200 run again with the fix).
# Usage: scripts/evidence/write_many_launches_doc.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/evidence/wall_times.sh
D=docs/results/h100/many-launches
T=$(mktemp -d) && trap 'rm -rf "$T"' EXIT
tar -xzf $D/before.tar.gz -C "$T" && tar -xzf $D/after.tar.gz -C "$T"
B=$T/many A=$T/many2
{
  cat <<'EOT'
# A program of many tiny launches

`tests/profile/many_launches.py` launches a tiny in-place add 50,000 times in a loop, as an
optimizer over many small tensors or a long decode loop does, and checks the result. Made by
`scripts/device/many_launches_probe.sh` on an H100 (`before.tar.gz`, without its databases), then
its `--launch-count 200` run again with the fix (`after.tar.gz`: the device time left allowed that
run alone):

EOT
  sed 's/^/    /' "$B/facts.txt"
  echo
  echo "| run | wall time | launches recorded, with counters |"
  echo "|---|---:|---|"
  rec() { grep -o '[0-9]* kernel launches recorded, [0-9]* with counters' "$1" | sed 's/ kernel launches recorded,/,/'; }
  echo "| the script alone | $(ms alone "$B") ms | |"
  echo "| \`roofline profile --no-counters\` | $(ms trace "$B") ms | $(rec "$B/trace.out") |"
  echo "| \`roofline profile --launch-count 200\`, before | $(ms first200 "$B") ms (killed at 300 s) | $(rec "$B/first200.out") |"
  echo "| \`roofline profile --launch-count 200\`, after | $(ms first200 "$A") ms | $(rec "$A/first200.out") |"
  echo "| \`roofline profile\`, 5,000 launches, every one with counters | $(ms all5000 "$B") ms | $(rec "$B/all5000.out") |"
  cat <<'EOT'

Before, the batch holding the last of the 200 selected launches stayed open, and each of the
49,800 launches after it joined it: a batch's launches are replayed in order in every pass to
re-create the memory its counted launches saw, so all of them would have run six more times once
the program ended (the run was killed first, with 7 of its 200 counted launches not yet replayed).
Now, once no later launch can be selected, the open batch is replayed before the next launch
would join it. With every launch counted, a 5,000-launch loop takes about 24 ms a launch (batches
of 64, six passes each).
EOT
} > $D/README.md
echo "wrote $D/README.md"

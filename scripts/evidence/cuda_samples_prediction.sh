#!/usr/bin/env bash
# NVIDIA's CUDA samples profiled on the H100, predicted on the H200 by `roofline predict --from-run`
# from their own counters, beside the same samples profiled on an H200: per sample, per kernel
# (scripts/evidence/profile_prediction.py). The two raw outputs are scripts/device/cuda_samples.sh
# runs of the same sample list, so their runs have the same ids.
# Usage (from the repo root): cuda_samples_prediction.sh ROOFLINE H100_TAR H200_TAR > page.md
set -euo pipefail
R=$1 A=$2 B=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for gpu in h100 h200; do
  mkdir -p "$work/$gpu"
  tar -xzf "$([[ $gpu == h100 ]] && echo "$A" || echo "$B")" -C "$work/$gpu"
  sqlite3 "$work/$gpu/cuda-samples/samples.db" "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null
done
cat <<EOT
# NVIDIA's CUDA samples: the H100's profiles predicted on the H200

Each sample's H100 profile (\`$A\`) predicted on the H200 by
\`roofline predict --from-run RUN --db samples.db --gpu h200\`, from the launches' own counters
(same binary and work; the same efficiency against the ceiling that bound each launch on the H100;
\`docs/profile.md\`), with the H200 model's catalog values (nothing measured on the H200 that ran
the samples), beside the same samples profiled on an H200 (\`$B\`). Launches are matched by
kernel and occurrence; only launches with counters on the H100 are predicted (jacobiCudaGraphs'
first 300). Made by \`scripts/evidence/cuda_samples_prediction.sh $R $A $B\`.

\`\`\`
$(cat "$work/h100/cuda-samples/facts.txt")
$(cat "$work/h200/cuda-samples/facts.txt")
\`\`\`
EOT
sqlite3 -separator ' ' "$work/h100/cuda-samples/samples.db" \
  "SELECT id, substr(command_line, instr(command_line, '-- ./') + 5) FROM runs ORDER BY id" |
  while read -r run sample; do
    printf '\n## %s\n\n' "$sample"
    python3 scripts/evidence/profile_prediction.py "$R" "$work/h100/cuda-samples/samples.db" "$run" \
      "$work/h200/cuda-samples/samples.db" "$run" h200
  done | tee "$work/page.md"
# The kernels of every sample together.
awk '/^Per kernel:/ { within += $7; all += $9 }
     END { printf "\n## All samples\n\n%d of %d kernels within ±10 %%.\n", within, all }' "$work/page.md"

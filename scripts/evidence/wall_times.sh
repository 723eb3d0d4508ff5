# Reading what a device script wrote (its wall.txt, "NAME: exit CODE in T ms" per line, and its
# databases), and the sections the pages of profiled programs share; sourced by the scripts that turn
# those runs into pages.
# ms NAME DIR: NAME's milliseconds in DIR/wall.txt.
ms() { grep "^$1: " "$2/wall.txt" | sed -E 's/.* in ([0-9]+) ms/\1/'; }
# median VALUE...: the middle value, or the mean of the two middle ones.
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (a[int((NR+1)/2)] + a[int(NR/2)+1]) / 2}'; }
# time_table DIR: a profiled script's wall times (scripts/device/triton_evidence.sh: the script
# alone, under `roofline profile`, under ncu, and the alternating alone_i / trace_i runs) as a
# markdown table, then the profile / ncu ratio.
time_table() {
  local d=$1 alone=() trace=() i
  for i in $(seq "$(grep -c '^alone_' "$d/wall.txt")"); do alone+=("$(ms alone_$i "$d")"); trace+=("$(ms trace_$i "$d")"); done
  echo "| | wall time |"
  echo "|---|---:|"
  echo "| the script alone | $(ms plain "$d") ms |"
  echo "| \`roofline profile\` (default counters) | $(ms profile "$d") ms |"
  echo "| \`ncu\` with the same metrics | $(ms ncu "$d") ms |"
  echo "| the script alone, median of ${#alone[@]} | $(median "${alone[@]}") ms |"
  echo "| \`roofline profile --no-counters\`, median of ${#trace[@]}, alternating with those | $(median "${trace[@]}") ms |"
  echo
  awk -v p="$(ms profile "$d")" -v n="$(ms ncu "$d")" 'BEGIN {printf "Profiling took %.2f x the time of ncu.\n", p / n}'
}
# said FILE PROGRAM: what PROGRAM printed in FILE under its own name ("PROGRAM: results correct").
said() { grep -h "^$2: " "$1" | cut -d' ' -f2-; }
# program_run ROOFLINE DIR PROGRAM: a user's program's run on one GPU, DIR the folder
# scripts/device/chain_kernels_evidence.sh archived (its database DIR/<folder name>.db): the GPU's
# facts, what PROGRAM printed alone and under roofline, and what roofline recorded, ending a
# sentence the caller may continue on the next line.
program_run() {
  sed 's/^/    /' "$2/facts.txt"
  echo
  echo "The program printed \"$(said "$2/alone.out" "$3")\" alone and \"$(said "$2/profile.out" "$3")\" under"
  echo "roofline, which recorded $(recorded "$1" "$2/$(basename "$2").db")."
}
# checked_run ROOFLINE DIR: a user's program of sampled checks (tests/profile/staged_check.cuh's
# lines "NAME n = N: ok") run on one GPU, DIR the folder scripts/device/chain_kernels_evidence.sh
# archived: the GPU's facts, how many of its checks passed alone and under roofline, and what
# roofline recorded (its database DIR/<folder name>.db).
checked_run() {
  checked() { echo "$(grep -c ' n = .*: ok$' "$1") of $(grep -c ' n = ' "$1")"; }
  sed 's/^/    /' "$2/facts.txt"
  echo
  echo "The program's checks passed for $(checked "$2/alone.out") kernels and sizes alone and"
  echo "$(checked "$2/profile.out") under roofline, which recorded $(recorded "$1" "$2/$(basename "$2").db")."
}
# recorded ROOFLINE DB: "N launches, M with counters, of K kernels" of DB's profile runs.
recorded() {
  "$1" query --db "$2" "SELECT count(*) || ' launches, ' || sum(counter_status = 'collected') || ' with counters, of ' || \
count(DISTINCT kernel) || ' kernels' FROM v_profile_launches" --format csv | tail -n 1 | tr -d '"'
}
# kernels_section ROOFLINE DB SCRATCH: the "What roofline says about it" section, the first 15 rows
# of the first table of DB's report.
kernels_section() {
  echo "## What roofline says about it"
  echo
  echo "The first table of its report (\`roofline report --db $2\`), the first 15 kernels:"
  echo
  echo '```'
  "$1" report --db "$2" > "$3/kernels.txt"
  head -n 17 "$3/kernels.txt"
  echo '```'
}
# ncu_section DB NCU_CSV TITLE SCRATCH: the "Counters beside ncu" section up to its table of misses
# by metric; the comparison itself (every value outside 2 %) is left in SCRATCH/cmp.md.
ncu_section() {
  echo "## Counters beside ncu"
  echo
  echo "Matched by function name and occurrence; counts within 2 %, percentages within 2 points, a"
  echo "count negligible beside the launch's largest count of its unit judged against 1 % of that"
  echo "count (\`scripts/evidence/profile_vs_ncu.py\`)."
  echo
  python3 scripts/evidence/profile_vs_ncu.py "$1" "$2" --title "$3" > "$4/cmp.md"
  sed -n '3p' "$4/cmp.md"
  echo
  grep '^Launches ncu did not profile' "$4/cmp.md" && echo
  echo "The values outside 2 %, by metric:"
  echo
  echo "| metric | values outside 2 % |"
  echo "|---|---:|"
  awk -F'|' '/^\| `/ {n[$4]++} END {for (m in n) printf "|%s| %d |\n", m, n[m]}' "$4/cmp.md" | sort -t'|' -k3 -rn
}
# time_kernels_ncu ROOFLINE DIR DB NCU_CSV TITLE SCRATCH: the "Time", "What roofline says about it"
# and "Counters beside ncu" sections of a script profiled by scripts/device/triton_evidence.sh.
time_kernels_ncu() {
  echo "## Time"
  echo
  time_table "$2"
  echo
  kernels_section "$1" "$3" "$6"
  echo
  ncu_section "$3" "$4" "$5" "$6"
}
# evidence_commands NAME SCRIPT: the runs scripts/device/triton_evidence.sh makes of the Python
# SCRIPT (its profile into NAME.db, ncu with the same metrics, a trace-only profile), as a page
# quotes them: an indented code block.
evidence_commands() {
  echo "    roofline profile --db $1.db -- python3 $2"
  echo "    ncu --csv --page raw --print-units base --clock-control none --cache-control all \\"
  echo "        --kernel-name-base mangled --metrics \"\$(roofline metrics --names)\" python3 $2"
  echo "    roofline profile --no-counters --db trace.db -- python3 $2"
}
# loop_commands PROGRAM NAME: the commands of a user's program taken through the loop on one GPU
# (scripts/device/chain_kernels_evidence.sh draft, then a calibration, the profile and ncu's), as a
# page quotes them: an indented code block.
loop_commands() {
  echo "    nvcc -O3 -arch=sm_90 -o $1 tests/profile/$1.cu"
  echo "    roofline spec --from-binary $1 --kernel K -o K.toml        (each of the three)"
  echo "    roofline predict --spec specs.toml --gpu GPU --n 2^20,2^22,2^24 --cache warm --timing kernel"
  echo "    roofline calibrate --db $2.db; $1; roofline profile --db $2.db -- $1"
  echo "    ncu --csv --page raw --print-units base --clock-control none --cache-control all \\"
  echo "        --kernel-name-base mangled --metrics \"\$(roofline metrics --names)\" $1"
}
# loop_results ROOFLINE G NAME SCRATCH [GPU TITLE A]: what such a program's run on one GPU gave
# (GPU a model id, h200 by default; TITLE its short name, H200), G holding its specs.toml and
# predicted-before.txt, A (G by default) the GPU's profile.tar.gz, profile-repeat.tar.gz and
# ncu.csv.gz (NAME the archives' folder): the run, the predictions beside the profile, the blind
# predictions' lines and the counters beside ncu (the comparison left in SCRATCH/cmp.md).
loop_results() {
  local R=$1 G=$2 name=$3 raw=$4 gpu=${5:-h200} title=${6:-H200} A=${7:-$2}
  mkdir -p "$raw/$gpu" && tar -xzf "$A/profile.tar.gz" -C "$raw/$gpu" && gunzip -c "$A/ncu.csv.gz" > "$raw/ncu.csv"
  echo "## NVIDIA $title"
  echo
  checked_run "$R" "$raw/$gpu/$name"
  echo
  echo "Predicted as the kernel's own time from the committed specs and the GPU file by the model as it"
  echo "is now (the blind predictions to more digits; their own line follows the table):"
  echo
  python3 scripts/evidence/user_program_kernels.py "$R" "$G/specs.toml" $gpu "$A/profile.tar.gz" --kernel-timing
  echo
  echo "The committed blind predictions, read from \`predicted-before.txt\`: $(python3 scripts/evidence/blind_from_file.py "$G/predicted-before.txt" $gpu kernel "$A/profile.tar.gz")."
  echo "The program profiled again (\`profile-repeat.tar.gz\`): $(python3 scripts/evidence/blind_from_file.py "$G/predicted-before.txt" $gpu kernel "$A/profile-repeat.tar.gz")."
  echo
  ncu_section "$raw/$gpu/$name/$name.db" "$raw/ncu.csv" "$name on an $title" "$raw"
}
# h100_section ROOFLINE G NAME SCRATCH: a users'-program page's H100 section: the program as an
# H100 profiled it (docs/results/h100/NAME-kernels/, made by scripts/device/user_programs_profile.sh)
# judged as loop_results judges the H200's, or, until an H100 has, a line saying so.
h100_section() {
  local A=docs/results/h100/$3-kernels
  if [[ -f $A/profile.tar.gz ]]; then
    loop_results "$1" "$2" "$3" "$4" h100-sxm H100 "$A"
    return
  fi
  echo "## The H100"
  echo
  echo "No H100 has profiled this program yet: \`predicted-before.txt\` holds the H100's blind"
  echo "predictions beside the H200's, for the profile an H100 will make"
  echo "(\`scripts/device/user_programs_profile.sh\`, then \`docs/results/h100/$3-kernels/\`)."
}
# without_op ROOFLINE G OP SCRATCH: G's specs with their flops entries of op OP taken out,
# predicted as the kernel's own time beside G's profile: what the model said before it had OP.
without_op() {
  echo "The same specs with their \`$3\` entries taken out, predicted by the same model"
  echo "(\`sed '/op = \"$3\"/d' specs.toml\`):"
  echo
  sed "/op = \"$3\"/d" "$2/specs.toml" > "$4/no-$3.toml"
  python3 scripts/evidence/user_program_kernels.py "$1" "$4/no-$3.toml" h200 "$2/profile.tar.gz" --kernel-timing |
    sed -n '1,/^[0-9]* of [0-9]* kernels/p'
}

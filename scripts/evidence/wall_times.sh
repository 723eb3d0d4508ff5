# Reading what a device script wrote (its wall.txt, "NAME: exit CODE in T ms" per line, and its
# databases); sourced by the scripts that turn those runs into pages.
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
# recorded ROOFLINE DB: "N launches, M with counters, of K kernels" of DB's profile runs.
recorded() {
  "$1" query --db "$2" "SELECT count(*) || ' launches, ' || sum(counter_status = 'collected') || ' with counters, of ' || \
count(DISTINCT kernel) || ' kernels' FROM v_profile_launches" --format csv | tail -n 1 | tr -d '"'
}

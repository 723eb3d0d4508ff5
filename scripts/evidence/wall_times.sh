# Reading the wall.txt a device script writes ("NAME: exit CODE in T ms" per line); sourced by the
# scripts that turn those runs into pages.
# ms NAME DIR: NAME's milliseconds in DIR/wall.txt.
ms() { grep "^$1: " "$2/wall.txt" | sed -E 's/.* in ([0-9]+) ms/\1/'; }
# median VALUE...: the middle value, or the mean of the two middle ones.
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (a[int((NR+1)/2)] + a[int(NR/2)+1]) / 2}'; }

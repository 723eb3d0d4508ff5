# Sourced by the device scripts: the packed build they run, the folder they write, and what each
# of them records and times the same way.

# facts FILE: the date, the GPU and its driver, and roofline's version ($R), into FILE.
facts() {
  { echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    "$R" --version; } > "$1"
}

# ms START: the milliseconds since START, a `date +%s%N` reading.
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

# timed NAME COMMAND...: runs COMMAND with its output in $E/NAME.out and $E/NAME.err, and appends
# "NAME: exit CODE in T ms" to $E/wall.txt; stopped after $TIMED_LIMIT seconds where that is set.
timed() {
  local name=$1; shift
  local s=$(date +%s%N)
  timeout "${TIMED_LIMIT:-0}" "$@" > "$E/$name.out" 2> "$E/$name.err"
  echo "$name: exit $? in $(ms $s) ms" >> "$E/wall.txt"
}

# use_build: the build pack.sh packed ($D, .device by default): its libraries on the library path
# and its roofline as $R.
use_build() {
  D=${D:-.device}
  export LD_LIBRARY_PATH=$PWD/$D/lib:/usr/local/cuda/lib64
  R=$PWD/$D/bin/roofline
}

# output_folder NAME: $E, the folder $OUT/NAME, made, with the facts of this run in facts.txt.
output_folder() {
  E=$OUT/$1
  mkdir -p "$E"
  facts "$E/facts.txt"
}

# calibrated_folder NAME DB: output_folder NAME, entered, and `roofline calibrate` into DB there
# (calibrate.txt; its exit status in wall.txt), given at most $CALIBRATE_S seconds (180).
calibrated_folder() {
  output_folder "$1"
  cd "$E" || return
  timeout "${CALIBRATE_S:-180}" "$R" calibrate --db "$2" > calibrate.txt 2>&1
  echo "calibrate: exit $?" >> wall.txt
}

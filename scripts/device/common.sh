# Sourced by the device scripts: what each of them records and times the same way.

# facts FILE: the date, the GPU and its driver, and roofline's version ($R), into FILE.
facts() {
  { echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    "$R" --version; } > "$1"
}

# ms START: the milliseconds since START, a `date +%s%N` reading.
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

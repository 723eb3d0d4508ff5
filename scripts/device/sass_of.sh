#!/usr/bin/env bash
# The sm_90 SASS and resource usage of CUDA sources, for `roofline spec --from-sass`: compiles
# each file as the build does and runs cuobjdump (which a minimal toolkit may lack, so this runs
# on the device machine). Usage: sass_of.sh OUT_PREFIX FILE.cu... -> OUT_PREFIX.sass and
# OUT_PREFIX.res-usage.txt. Run from the repo root.
set -uo pipefail
prefix=$1; shift
obj=$(mktemp -d)
for f in "$@"; do
  nvcc -O3 -DNDEBUG "--generate-code=arch=compute_90,code=[compute_90,sm_90]" -Xcompiler=-fPIC -std=c++20 -I. \
    -c "$f" -o "$obj/$(basename "${f%.cu}").o" &
done
wait
for o in "$obj"/*.o; do echo "# file: $(basename "$o")"; cuobjdump -sass "$o"; done > "$prefix.sass"
for o in "$obj"/*.o; do echo "# file: $(basename "$o")"; cuobjdump -res-usage "$o"; done > "$prefix.res-usage.txt"
rm -rf "$obj"

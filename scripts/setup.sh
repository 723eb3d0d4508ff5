#!/usr/bin/env bash
# Installs what roofline needs to build and test, from Debian/Ubuntu packages, and says what
# it did. Safe to run again: packages already present are left alone. Needs root or sudo.
set -euo pipefail

packages=(cmake g++ make pkg-config libfmt-dev libsqlite3-dev libcli11-dev nlohmann-json3-dev
          libtomlplusplus-dev libgtest-dev libbenchmark-dev libxml2-dev tidy sqlite3)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages already installed"
else
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "setup: error: need root or sudo to install packages" >&2; exit 1; }
    sudo_cmd=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "setup: installed ${#missing[@]} package(s)"
fi

nvcc=${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [[ -x $nvcc ]]; then
  echo "setup: CUDA compiler: $($nvcc --version | tail -n 2 | head -n 1)"
else
  echo "setup: no CUDA compiler found: building without CUDA (predict, store, report and query only)"
fi

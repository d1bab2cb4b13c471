#!/usr/bin/env bash
# Installs the Debian packages dtb needs, when any is missing. Safe to run again.
set -euo pipefail
# The Python module and its tests: python3-dev pybind11-dev, python3-pytest python3-numpy, and
# python3-matplotlib for the example's test. The explorer's server: libboost-dev (Beast, Asio) and
# zlib1g-dev; libcpp-httplib-dev is the tests' HTTP client. Open MPI (openmpi-bin libopenmpi-dev):
# `mpirun dtb gen`.
packages=(g++ cmake make pkg-config libzstd-dev catch2 libxxhash-dev nlohmann-json3-dev libcli11-dev
          libbenchmark-dev zstd libboost-dev zlib1g-dev libcpp-httplib-dev python3-dev pybind11-dev
          python3-pytest python3-numpy python3-matplotlib openmpi-bin libopenmpi-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

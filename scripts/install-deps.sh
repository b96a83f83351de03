#!/bin/sh
# Installs the Debian packages the build and the tests need (only if missing).
# libclang-rt-14-dev: clang 14's sanitizer runtimes and libFuzzer (the
# ThreadSanitizer unit tests and the fuzz targets of scripts/test.sh are built
# with clang 14; clang-14 only recommends it).
# valgrind: callgrind counts the host instructions of a target region
# (bench/count_region_instructions.sh and its smoke test).
# python3-matplotlib: the timeline picture of tools/omptarget-profile (its
# test profile-png is skipped without it).
# pkg-config: the installed package's omptarget.pc is checked with it (test
# install-package).
set -eu
PACKAGES="cmake ninja-build g++ clang-14 libclang-rt-14-dev libomp-14-dev llvm-14-tools libffi-dev libgtest-dev libgmock-dev python3 python3-matplotlib binutils valgrind pkg-config"
missing=""
for p in $PACKAGES; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "installing:$missing"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi

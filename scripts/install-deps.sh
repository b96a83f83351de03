#!/bin/sh
# Installs the Debian packages that are missing, with apt-get (through sudo
# unless run as root), without their recommended packages.
#   install-deps.sh        what the build and every test need (scripts/test.sh)
#   install-deps.sh demo   what scripts/demo.sh needs: the compilers, cmake,
#                          ninja, libomp 14 and libffi
# Every package a test uses is named here: nothing comes in as a
# recommendation. The full set, beyond the demo's:
# libclang-rt-14-dev: clang 14's sanitizer runtimes and libFuzzer (the
# sanitizer trees and the fuzz targets of scripts/test.sh are built with
# clang 14, which only recommends it).
# llvm-14: llvm-link (the nvptx device runtime) and llvm-nm (the tests).
# llvm-14-tools: lit, FileCheck and not.
# libgtest-dev, libgmock-dev: the unit tests.
# valgrind: callgrind counts the host instructions of a target region
# (bench/count_region_instructions.sh and its smoke test).
# python3-matplotlib: the timeline picture of tools/omptarget-profile (its
# test profile-png is skipped without it; the Agg backend needs no Tk).
# pkg-config: the installed package's omptarget.pc is checked with it (test
# install-package).
# patch, xz-utils: scripts/build-tsan-libomp.sh unpacks and patches Debian's
# libomp 14 sources.
# clang-19: the offload programs are built by clang 19 as well (CTest's
# offload-c19-* configurations; tests/gpu/run_gpu_tests.sh's bin/c19), to run
# them on our runtime and on LLVM 19's. LLVM 19's OpenMP runtime itself
# (libomp5-19, libomp-19-dev) conflicts with LLVM 14's packages and is never
# installed: scripts/fetch-llvm19-runtime.sh unpacks it into the build tree.
# clang-tools-19: clang-offload-packager and clang-linker-wrapper, which
# clang-19 -fopenmp-targets=... runs to embed and link the device images.
# lld-19: LLVM 19's linker, which clang-19's offload toolchain links device
# images with where no vendor linker does (the x86_64 and NVIDIA images here
# link with ld and nvlink).
# libopenmpi-dev, openmpi-bin: the MPI plugin (libomptarget.rtl.mpi.so) and
# its device server are built against Open MPI, and its tests launch them
# with mpirun.
set -eu
DEMO_PACKAGES="cmake ninja-build g++ clang-14 libomp-14-dev libffi-dev"
case "${1:-all}" in
  demo) PACKAGES=$DEMO_PACKAGES ;;
  all)
    PACKAGES="$DEMO_PACKAGES libclang-rt-14-dev llvm-14 llvm-14-tools libgtest-dev libgmock-dev \
python3 python3-matplotlib binutils valgrind pkg-config patch xz-utils clang-19 clang-tools-19 lld-19 \
libopenmpi-dev openmpi-bin"
    ;;
  *) echo "usage: install-deps.sh [demo]" >&2; exit 2 ;;
esac
missing=""
for p in $PACKAGES; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "installing:$missing"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi

#!/bin/sh
# One command on a fresh machine: install what is missing, build omptarget,
# compile examples/demo.c with clang 14 and run it on our runtime (host device).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
build=${BUILD_DIR:-$root/build}
clang-14 -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -O2 "$root/examples/demo.c" -o "$build/demo"
echo "--- running $build/demo on $build/lib/libomptarget.so"
LD_LIBRARY_PATH="$build/lib" "$build/demo"

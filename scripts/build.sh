#!/bin/sh
# Configures and builds the whole tree (the runtime, its tools, the tests and
# the benchmarks) into ${BUILD_DIR:-build} (Release-with-debug-info, Ninja,
# ${JOBS:-2} jobs). CMAKE_ARGS adds cmake options (they come last and win).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
# Tests and benchmarks on: a tree that scripts/demo.sh configured has them off.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DOMPTARGET_BUILD_TESTS=ON -DOMPTARGET_BUILD_BENCH=ON ${CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "${JOBS:-2}"

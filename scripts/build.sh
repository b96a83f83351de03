#!/bin/sh
# Configures and builds into ${BUILD_DIR:-build} (Release-with-debug-info, Ninja).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "${JOBS:-2}"

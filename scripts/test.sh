#!/bin/sh
# One command on a fresh machine: install what is missing, build, run every
# test (unit tests, export check, offload programs on our runtime and in both
# interop mixes with LLVM 14). CTest prints the summary.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
build=${BUILD_DIR:-$root/build}
cd "$build"
ctest --output-on-failure -j "${JOBS:-2}"

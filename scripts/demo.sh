#!/bin/sh
# One command on a fresh machine: install the few packages the demo needs
# (scripts/install-deps.sh demo), build only what it runs (the core, the host
# plugin, the CUDA plugin where a CUDA driver is installed, omptarget-info)
# into ${BUILD_DIR:-build}, compile examples/demo.c with clang 14 and run it
# on our runtime. apt's and the build's output go to <build>/demo.log; the
# terminal gets the devices, where the region ran, its result and where to
# look next. A tree that scripts/build.sh or scripts/test.sh configured is
# reused as it is; a fresh one is configured without the tests and the
# benchmarks (scripts/build.sh turns them back on).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
mkdir -p "$build"
build=$(cd "$build" && pwd)
log="$build/demo.log"
: >"$log"
# Runs a step with its output in the log; on failure, shows the log's end.
step() {
  echo "--- $(date +%T) $*" >>"$log"
  if ! "$@" >>"$log" 2>&1; then
    tail -n 30 "$log"
    echo "demo: failed: $* (whole output: $log)"
    exit 1
  fi
}
echo "omptarget demo: installing missing packages and building the runtime (output: $log)"
step "$root/scripts/install-deps.sh" demo
if [ ! -f "$build/CMakeCache.txt" ]; then
  step cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DOMPTARGET_BUILD_TESTS=OFF -DOMPTARGET_BUILD_BENCH=OFF ${CMAKE_ARGS:-}
fi
targets="omptarget omptarget.rtl.x86_64 omptarget-info"
# The CUDA plugin (built where cuda.h is found) only where a driver could
# give it a GPU.
if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 ' &&
   cmake --build "$build" --target help 2>/dev/null | grep -q '^omptarget\.rtl\.cuda:'; then
  targets="$targets omptarget.rtl.cuda"
fi
step cmake --build "$build" -j "${JOBS:-2}" --target $targets
# Linked against our libomptarget.so (the demo calls our extension
# omptarget_get_device_properties), which LD_LIBRARY_PATH then loads.
step clang-14 -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -O2 -I"$root/include" \
  "$root/examples/demo.c" -L"$build/lib" -o "$build/demo"
# Paths as the user would type them from here.
here=$(pwd)
b=${build#"$here"/}
echo "running $b/demo (examples/demo.c) on $b/lib/libomptarget.so:"
LD_LIBRARY_PATH="$build/lib" "$build/demo"
echo "--- $(date +%T) done" >>"$log"
cat <<EOF
next:
  - every device with its properties: $b/bin/omptarget-info
  - where the time went (a summary on stderr; docs/usage.md, "Profiling"):
      LIBOMPTARGET_PROFILE=demo.json LIBOMPTARGET_PROFILE_SUMMARY=1 LD_LIBRARY_PATH=$b/lib $b/demo
  - every mapping, copy and launch as it happens:
      LIBOMPTARGET_INFO=-1 LD_LIBRARY_PATH=$b/lib $b/demo
  - the tests: ./scripts/test.sh (README.md says what it installs and how long it takes)
packages and build: $log
EOF

#!/bin/sh
# One command on a fresh machine: install what is missing, build, run every
# test. First the unit tests under ThreadSanitizer and under
# AddressSanitizer+UndefinedBehaviorSanitizer (their own build trees), then
# the main suite through CTest (unit tests, export check, the offload programs
# on our runtime and on both interop mixes with LLVM 14), whose summary ends
# the output. SANITIZERS=0 skips the sanitizer builds.
#
# Between the two, fuzz/run_fuzzers.sh builds the libFuzzer targets of fuzz/
# (clang 14, their own tree, build-fuzz) and runs each for FUZZ_SECONDS
# (default 15, about 75 s for the five) from its checked-in corpus,
# which holds the inputs of crashes found before; any crash, sanitizer
# report, leak or timeout fails the step, and it prints the executions per
# target. FUZZ=0 skips it.
#
# The ThreadSanitizer tree is built with clang 14 and its thread-safety
# analysis (OMPTARGET_THREAD_SAFETY_ANALYSIS: the lock annotations of
# support/thread_annotations.h, mismatches are errors), and builds every C++
# target of the tree (omptarget_cxx), so every annotated lock is checked; the
# others use the default compiler (g++) and build the unit tests only.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
build=${BUILD_DIR:-$root/build}
if [ "${SANITIZERS:-1}" != 0 ]; then
  for san in thread address,undefined; do
    dir="$build-$(echo "$san" | tr ',' '-')"
    if [ "$san" = thread ]; then
      echo "=== clang thread-safety analysis; unit tests under -fsanitize=$san ($dir)"
      extra="-DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DOMPTARGET_THREAD_SAFETY_ANALYSIS=ON"
      target=omptarget_cxx
    else
      echo "=== unit tests under -fsanitize=$san ($dir)"
      extra=""
      target=omptarget_unit_tests
    fi
    cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DOMPTARGET_SANITIZER="$san" -DOMPTARGET_BUILD_BENCH=OFF $extra >/dev/null
    cmake --build "$dir" -j "${JOBS:-2}" --target "$target"
    # Reports go to files too: tests that capture stderr would swallow them.
    rm -f "$dir"/sanitizer.log*
    if ! TSAN_OPTIONS="halt_on_error=1 log_path=$dir/sanitizer.log" \
         ASAN_OPTIONS="log_path=$dir/sanitizer.log" \
         UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$dir/sanitizer.log" \
         "$dir/bin/omptarget_unit_tests" --gtest_brief=1; then
      cat "$dir"/sanitizer.log* 2>/dev/null || true
      echo "unit tests failed under -fsanitize=$san"; exit 1
    fi
    if ls "$dir"/sanitizer.log* >/dev/null 2>&1; then
      cat "$dir"/sanitizer.log*; echo "sanitizer reports under -fsanitize=$san"; exit 1
    fi
  done
fi
if [ "${FUZZ:-1}" != 0 ]; then
  echo "=== fuzzing: the fuzz/ targets from their corpora ($build-fuzz)"
  "$root/fuzz/run_fuzzers.sh" "$build-fuzz"
fi
"$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure -j "${JOBS:-2}"

#!/bin/sh
# One command on a fresh machine: install what is missing, build, run every
# test. First two sanitizer trees, each built with clang 14: ThreadSanitizer,
# and AddressSanitizer+UndefinedBehaviorSanitizer (LeakSanitizer on). In
# each, the unit tests, then the offload programs (tests/offload) on our
# runtime (runtime=ours) with the host device in both its modes (hostmode=sync
# and async), built with the same -fsanitize and run on that tree's sanitized
# libomptarget.so and host plugin (lit.cfg.py: options, Archer for libomp's
# synchronisation under TSan, the suppression files of tests/sanitizers);
# under TSan on the libomp 14 of scripts/build-tsan-libomp.sh, whose task
# memory goes through malloc/free, which TSan sees. The TSan tree then runs
# the programs with threads, nowait and dependences on remote devices
# (remote=mpi2, two servers: the MPI plugin in the program, the device
# servers under TSan too, about 50 s).
# Any report fails the run: the programs halt on it, and the report files
# (which also catch what a test's own expected failure or stderr capture
# would hide) must stay empty. Then the main suite through CTest (unit
# tests, export check, the offload programs on our runtime and on both
# interop mixes with LLVM 14), whose summary ends the output. SANITIZERS=0
# skips the sanitizer builds.
#
# Between the two, fuzz/run_fuzzers.sh builds the libFuzzer targets of fuzz/
# (clang 14, their own tree, build-fuzz) and runs each for FUZZ_SECONDS
# (default 15, about 105 s for the seven) from its checked-in corpus,
# which holds the inputs of crashes found before; any crash, sanitizer
# report, leak or timeout fails the step, and it prints the executions per
# target. FUZZ=0 skips it.
#
# The ThreadSanitizer tree also runs clang's thread-safety analysis
# (OMPTARGET_THREAD_SAFETY_ANALYSIS: the lock annotations of
# support/thread_annotations.h, mismatches are errors), and builds every C++
# target of the tree (omptarget_cxx), so every annotated lock is checked.
# Clang for the AddressSanitizer tree too: a clang-14 program built with
# -fsanitize=address carries clang's ASan runtime, against which a
# clang-built sanitized libomptarget.so resolves (a g++-built one would want
# libasan's).
#
# Before the build, scripts/fetch-llvm19-runtime.sh unpacks LLVM 19's OpenMP
# runtime into $build/llvm19-runtime (once; it needs network access the first
# time): with clang-19, CTest then runs the offload programs built by clang 19
# too, on our runtime (offload-c19-ours, -ours-async, -ours-libomp14) and on
# LLVM 19's for comparison (offload-c19-llvm19).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
build=${BUILD_DIR:-$root/build}
"$root/scripts/fetch-llvm19-runtime.sh" "$build/llvm19-runtime" >/dev/null
# The programs of the remote run under TSan (a lit --filter, 12 programs
# run): 47 s with two servers here on 2 cores (38 s with one; two servers
# cover one server's paths and the copies between servers, so only mpi2).
remote_tsan_filter='nowait|thread|stress|depend|async|exchange'
# offload_programs OUT LABEL LIT-ARGS...: the offload programs of the
# sanitizer tree $dir on our runtime (lit over $dir/tests/offload, whose
# results and sanitizer-logs/ go to OUT); exits on a failed program or on
# any report. A report has a SUMMARY line (ASan, LSan, TSan, UBSan with its
# stack trace), an ERROR line or a failed sanitizer CHECK; files holding
# only ASan's "failed to allocate" warnings come from tests that ask for
# impossible sizes.
offload_programs() {
  out=$1 label=$2
  shift 2
  rm -rf "$out/sanitizer-logs"
  start=$(date +%s)
  status=0
  python3 "$lit" -sv --param runtime=ours "$@" "$dir/tests/offload" || status=$?
  echo "offload programs under -fsanitize=$san, $label: $(($(date +%s) - start)) s"
  reports=$(grep -l -E '^SUMMARY: |ERROR: |CHECK failed' "$out"/sanitizer-logs/* 2>/dev/null || true)
  if [ -n "$reports" ]; then
    cat $reports; echo "sanitizer reports in the offload programs under -fsanitize=$san, $label"; exit 1
  fi
  [ $status = 0 ] || { echo "offload programs failed under -fsanitize=$san, $label"; exit 1; }
}
if [ "${SANITIZERS:-1}" != 0 ]; then
  for san in thread address,undefined; do
    dir="$build-$(echo "$san" | tr ',' '-')"
    extra="-DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14"
    if [ "$san" = thread ]; then
      echo "=== clang thread-safety analysis; unit tests and offload programs under -fsanitize=$san ($dir)"
      # The offload programs' libomp under TSan (its task memory on malloc).
      libomp=$("$root/scripts/build-tsan-libomp.sh" "$build-tsan-libomp")
      extra="$extra -DOMPTARGET_THREAD_SAFETY_ANALYSIS=ON -DOMPTARGET_TSAN_LIBOMP_DIR=$libomp"
      targets="omptarget_cxx omptarget_offload_suite"
    else
      echo "=== unit tests and offload programs under -fsanitize=$san ($dir)"
      targets="omptarget_unit_tests omptarget_offload_suite"
    fi
    cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DOMPTARGET_SANITIZER="$san" -DOMPTARGET_BUILD_BENCH=OFF $extra >/dev/null
    cmake --build "$dir" -j "${JOBS:-2}" --target $targets
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
    # The offload programs, each host mode; lit.cfg.py sets the sanitizer
    # options and sends the reports to sanitizer-logs/ of each output tree.
    lit=$(sed -n 's/^OMPTARGET_LIT:[A-Z]*=//p' "$dir/CMakeCache.txt")
    for mode in sync async; do
      # (Not out=...$(test ...): under set -e a failing substitution ends the script.)
      if [ "$mode" = async ]; then out="$dir/tests/offload/ours-async"; else out="$dir/tests/offload/ours"; fi
      offload_programs "$out" "hostmode=$mode" -j "${JOBS:-2}" --param hostmode=$mode
    done
    # The MPI plugin's threads under TSan: the offload programs that use
    # threads, nowait and dependences on the devices of two device servers
    # (remote=mpi2) whose host devices are asynchronous (a worker thread per
    # queue, events on the servers), program and servers both built with
    # -fsanitize=thread (tests/offload/inputs/run_on_mpi.sh).
    if [ "$san" = thread ] && [ -x "$dir/bin/omptarget-mpi-device" ] && command -v mpirun >/dev/null; then
      offload_programs "$dir/tests/offload/ours-async-mpi2" "remote=mpi2, hostmode=async" -j 1 \
        --param hostmode=async --param remote=mpi2 --filter "$remote_tsan_filter"
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

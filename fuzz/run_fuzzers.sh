#!/bin/sh
# Builds the libFuzzer targets of fuzz/ in a tree of their own (clang 14,
# -DOMPTARGET_FUZZ=ON; the libraries they fuzz built with
# -fsanitize=fuzzer-no-link,address,undefined) and runs each for a bounded
# time from its checked-in corpus, fuzz/corpus/<target>/. Every run
# replays that corpus first, so the input of every crash found before (kept
# there as a regression) is run again. Prints the executions per target.
# Fails on any crash, failed check, sanitizer report, leak, timeout or
# out-of-memory, naming the input it saved.
#
#   fuzz/run_fuzzers.sh [BUILD_DIR]   default: ${BUILD_DIR:-build}-fuzz
#   FUZZ_SECONDS=N      seconds per target (default 15: about 105 s for the seven)
#   FUZZ_TARGETS="a b"  only these targets (names as in fuzz/CMakeLists.txt)
#   JOBS=N              build parallelism (default 2)
#
# New inputs the fuzzer finds go to BUILD_DIR/work/corpus/<target>/, its logs
# to BUILD_DIR/work/logs/, crashing inputs to BUILD_DIR/work/artifacts/;
# the repository is not written. To keep a crash as a regression, fix it,
# then copy its input into fuzz/corpus/<target>/ (see docs/architecture.md).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${BUILD_DIR:-$root/build}-fuzz}
seconds=${FUZZ_SECONDS:-15}
work=$build/work

start=$(date +%s)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DOMPTARGET_FUZZ=ON \
  -DOMPTARGET_BUILD_TESTS=OFF -DOMPTARGET_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j "${JOBS:-2}" --target omptarget_fuzzers
built=$(date +%s)

targets=${FUZZ_TARGETS:-}
if [ -z "$targets" ]; then
  for bin in "$build"/fuzz/fuzz_*; do
    [ -x "$bin" ] && targets="$targets ${bin##*/fuzz_}"
  done
fi
[ -n "$targets" ] || { echo "run_fuzzers: no fuzz target built in $build/fuzz"; exit 1; }

mkdir -p "$work/logs" "$work/artifacts"
summary=""
failed=""
for t in $targets; do
  bin=$build/fuzz/fuzz_$t
  given=$root/fuzz/corpus/$t
  [ -x "$bin" ] || { echo "run_fuzzers: $bin was not built"; exit 1; }
  [ -d "$given" ] || { echo "run_fuzzers: no corpus $given"; exit 1; }
  rm -rf "$work/corpus/$t"
  mkdir -p "$work/corpus/$t"
  log=$work/logs/$t.log
  echo "=== fuzz_$t: ${seconds} s from the $(ls "$given" | wc -l) inputs of fuzz/corpus/$t"
  # New units go to the first directory (the work corpus), never the checked-in one.
  if ASAN_OPTIONS="detect_leaks=1" \
     UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
     "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$work/artifacts/$t-" "$work/corpus/$t" "$given" >"$log" 2>&1; then
    status=ok
  else
    status=FAILED
    failed="$failed $t"
    tail -n 60 "$log"
    echo "fuzz_$t failed; its input: $(ls "$work/artifacts/$t-"* 2>/dev/null | tr '\n' ' ')"
    echo "(replay: $bin <input>)"
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  new=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -n 1)
  line=$(printf '%-26s %10s executions  %5s new units  %s' "fuzz_$t" "${runs:-?}" "${new:-?}" "$status")
  echo "$line"
  summary="$summary$line
"
done
end=$(date +%s)
echo "=== fuzzing: build $((built - start)) s, runs $((end - built)) s"
printf '%s' "$summary"
if [ -n "$failed" ]; then
  echo "fuzz targets failed:$failed"
  exit 1
fi

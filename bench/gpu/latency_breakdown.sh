#!/bin/bash
# Where the time of a region goes on the GPU, clang 19 binary against clang
# 14's. First the two nowait cases
# of omp_gpu_bench.c (f_nowait_chain_10k, f_nowait_4threads) on the clang 19
# binary (libomp 19: target tasks are re-queued until their queue is done,
# deferred_constructs.h) and on the clang 14 binary (libomp 14: a hidden
# helper thread synchronizes), each under variants of the settings that
# decide how a target task waits, interleaved round by round in one process
# tree so that every variant sees the same GPU; then one run per binary and
# case (the chain, the small and the empty region) with
# OMPTARGET_CUDA_API_STATS=1: the driver calls of that run, whose counts
# divided by its regions are the calls per region. Uses the bundle of
# run_gpu_bench.sh build (build/gpu-bench). See docs/benchmarks.md ("Nowait
# regions with libomp 19").
#
#   latency_breakdown.sh [BUNDLE_DIR]      on the GPU machine
#
# Variants (NOWAIT_VARIANTS, space-separated NAME=SETTING, SETTING "-" for
# none): default; qt0: OMPTARGET_QUERY_COUNT_THRESHOLD=0 (a thread waits
# for the queue at its first query of running work, like libomp 14's
# helper); qt1000 (never waits: always re-queues); hh1 / hh2:
# LIBOMP_NUM_HIDDEN_HELPER_THREADS=1 / 2 (default 8).
# NOWAIT_ROUNDS (3). Output: lines `side=S variant=V round=R case=... value=...`
# and a table of the best round per side, variant and case.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${1:-$HERE/../../build/gpu-bench}
ROUNDS=${NOWAIT_ROUNDS:-3}
VARIANTS=${NOWAIT_VARIANTS:-"default=- qt0=OMPTARGET_QUERY_COUNT_THRESHOLD=0 qt1000=OMPTARGET_QUERY_COUNT_THRESHOLD=1000 hh1=LIBOMP_NUM_HIDDEN_HELPER_THREADS=1 hh2=LIBOMP_NUM_HIDDEN_HELPER_THREADS=2"}
work=${OUT:-/tmp}/latency-breakdown
mkdir -p "$work"
[ -d "$work/bin" ] || tar -xzf "$DIR/bundle.tar.gz" -C "$work" || exit 1
for x in "$work"/lib/*/*.xz; do [ -e "$x" ] && xz -d "$x"; done
results=$work/results.txt
: > "$results"

run() {  # SIDE VARIANT SETTING CASE [EXTRA_ENV]
  local side=$1 variant=$2 setting=$3 kase=$4 extra=${5:-} bin libs
  case $side in
    ours-c19) bin=$work/bin/omp_gpu_bench_c19; libs=$work/lib/ours-c19:$work/lib/libomp-19 ;;
    ours) bin=$work/bin/omp_gpu_bench; libs=$work/lib/ours ;;
    raw) bin=$work/bin/raw_cuda_bench; libs= ;;
  esac
  env -u OMP_NUM_THREADS LD_LIBRARY_PATH="$libs" SETTING="$setting" EXTRA="$extra" \
    timeout 90 bash -c '[ "$SETTING" != - ] && export "$SETTING"; [ -n "$EXTRA" ] && export "$EXTRA"; exec "$0" "$1"' \
    "$bin" "$kase" 2>&1
}

for r in $(seq 1 "$ROUNDS"); do
  for kase in f_nowait_chain_10k f_nowait_4threads; do
    run raw default - "$kase" | grep '^case=' | sed "s/^/side=raw variant=default round=$r /" >> "$results"
    for side in ours-c19 ours; do
      for v in $VARIANTS; do
        run "$side" "${v%%=*}" "${v#*=}" "$kase" | grep '^case=' |
          sed "s/^/side=$side variant=${v%%=*} round=$r /" >> "$results"
      done
    done
  done
done
cat "$results"
echo "--- best of $ROUNDS rounds (regions/s)"
awk '{ for (i = 1; i <= NF; ++i) { split($i, kv, "="); f[kv[1]] = kv[2] }
       k = sprintf("%-20s %-9s %-8s", f["case"], f["side"], f["variant"])
       if (f["value"] + 0 > best[k]) best[k] = f["value"] + 0 }
     END { for (k in best) printf "%s %10.0f\n", k, best[k] }' "$results" | sort
for kase in f_nowait_chain_10k a_small_region b_empty_region; do
  for side in ours-c19 ours; do
    echo "--- driver calls (OMPTARGET_CUDA_API_STATS=1): side=$side case=$kase"
    run "$side" default - "$kase" OMPTARGET_CUDA_API_STATS=1 | head -40
  done
done

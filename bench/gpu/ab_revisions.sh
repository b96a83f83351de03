#!/bin/bash
# A/B of our runtime at several git revisions on the GPU: the same benchmark
# binaries (bench/gpu/omp_gpu_bench.c, built once, with LLVM 14's device
# runtime and with ours) run against each revision's libomptarget.so and
# libomptarget.rtl.cuda.so, interleaved round by round in one device call, so
# that the GPU, its clocks and the machine are the same for every revision.
# Two separate runs of run_gpu_bench.sh (separate device calls) can
# differ by more than a change does (the small region moved by 8% between
# calls with equivalent code); use this script to decide whether a change made
# a latency case slower. See docs/benchmarks.md ("Comparing revisions").
#
#   ab_revisions.sh build REV... [-- OUT_DIR]
#       Here: builds the core and the CUDA plugin of every REV (any git
#       revision; "work" means the current build/ tree) in a detached worktree
#       under build/ab-work/, strips them, compiles the benchmark programs and
#       packs everything into OUT_DIR/bundle.tar.gz (default build/gpu-ab,
#       ~2 MiB, carried to the device as is).
#   ab_revisions.sh run [OUT_DIR]
#       On the GPU machine: AB_ROUNDS rounds (default 10) of, for each
#       revision in turn, the cases AB_CASES (default: a_small_region
#       b_empty_region f_nowait_chain_10k) with both programs; prints per case
#       and revision the number of rounds, the median, the mean and the
#       standard deviation of the per-round figures. Raw results go to
#       $OUT/ab-results.txt (or OUT_DIR).
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
MAX_BUNDLE_MIB=60

die() { echo "ab_revisions.sh: $*" >&2; exit 1; }
. "$HERE/../bundle_common.sh"

build() {
  local revs=() out=$ROOT/build/gpu-ab
  while [ $# -gt 0 ]; do
    [ "$1" = -- ] && { out=${2:?OUT_DIR after --}; break; }
    revs+=("$1"); shift
  done
  [ ${#revs[@]} -ge 2 ] || die "give at least two revisions"
  bundle_require_tools
  local work=$ROOT/build/ab-work stage sm90 rev name wt lib
  stage=$work/stage sm90=$work/cuda-sm90
  rm -rf "$stage" "$out"; mkdir -p "$stage/bin" "$stage/lib" "$out"
  for rev in "${revs[@]}"; do
    if [ "$rev" = work ]; then
      name=work lib=$ROOT/build/lib
    else
      name=$(git -C "$ROOT" rev-parse --short "$rev") || die "unknown revision $rev"
      wt=$work/tree-$name
      [ -d "$wt" ] || git -C "$ROOT" worktree add --detach "$wt" "$name" >/dev/null || die "no worktree for $rev"
      echo "building $name (core and CUDA plugin)"
      (cd "$wt" && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null &&
        cmake --build build -j "${JOBS:-2}" --target omptarget omptarget.rtl.cuda >/dev/null) ||
        die "$rev did not build (see $wt/build)"
      lib=$wt/build/lib
    fi
    mkdir -p "$stage/lib/$name"
    cp "$lib/libomptarget.so" "$lib/libomptarget.rtl.cuda.so" "$LLVM/lib/libomp.so.5" "$stage/lib/$name/"
    strip "$stage/lib/$name/libomptarget.so" "$stage/lib/$name/libomptarget.rtl.cuda.so"
    echo "$name" >> "$stage/REVISIONS"
  done
  "$ROOT/tools/omptarget-sm90-path" "$sm90" >/dev/null || die "cannot make the sm_90 CUDA path"
  bundle_compile_offload "$HERE/omp_gpu_bench.c" "$stage/bin/omp_gpu_bench" "$sm90"
  local devrtl=$ROOT/build/lib/libomptarget-devicertl-nvptx.bc
  [ -f "$devrtl" ] || die "build the device runtime first (ninja -C build omptarget-devicertl)"
  bundle_compile_offload "$HERE/omp_gpu_bench.c" "$stage/bin/omp_gpu_bench_devrtl" "$sm90" \
    --libomptarget-nvptx-bc-path="$devrtl"
  rm -rf "$sm90"
  bundle_write_info "$stage"
  bundle_pack "$stage" "$out" KiB
  rm -rf "$stage"
}

run() {
  local bundle=${1:-$ROOT/build/gpu-ab} dir rounds=${AB_ROUNDS:-10}
  local cases=${AB_CASES:-a_small_region b_empty_region f_nowait_chain_10k}
  local results=${OUT:-$bundle}/ab-results.txt r name prog side
  dir=$(bundle_unpack "$bundle" omptarget-gpu-ab) || exit 1
  : > "$results"
  for r in $(seq 1 "$rounds"); do
    while read -r name; do
      for prog in omp_gpu_bench omp_gpu_bench_devrtl; do
        side=$name; [ $prog = omp_gpu_bench_devrtl ] && side=$name-devrtl
        # shellcheck disable=SC2086  # the case list is split on purpose
        env -u LIBOMPTARGET_INFO -u LIBOMPTARGET_DEBUG LD_LIBRARY_PATH="$dir/lib/$name" \
          timeout 120 "$dir/bin/$prog" $cases 2>&1 | grep '^case=' | sed "s/^/side=$side round=$r /" >> "$results"
      done
    done < "$dir/REVISIONS"
  done
  python3 - "$results" <<'PY'
import collections, statistics, sys
figures = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = dict(x.split('=', 1) for x in line.split() if '=' in x)
    if 'value' in f:
        figures[(f['case'], f['side'])].append(float(f['value']))
print('%-22s %-24s %3s %12s %12s %10s' % ('case', 'revision', 'n', 'median', 'mean', 'sd'))
for (case, side), v in sorted(figures.items()):
    sd = statistics.stdev(v) if len(v) > 1 else 0.0
    print('%-22s %-24s %3d %12.3f %12.3f %10.3f' % (case, side, len(v), statistics.median(v), statistics.mean(v), sd))
PY
  rm -rf "$dir"
}

case ${1:-} in
  build) shift; build "$@" ;;
  run) shift; run "$@" ;;
  *) die "usage: $0 build REV... [-- OUT_DIR] | run [OUT_DIR]" ;;
esac

#!/bin/bash
# Multi-GPU programs and benchmark (issue 5): omp_target_memcpy between every
# ordered device pair next to raw cuMemcpyPeerAsync, all pairs at once,
# multi-device offload programs, lazy peer access, start-up time.
# Works for any number of GPUs. See docs/benchmarks.md ("Multi-GPU").
#
#   run_multigpu.sh build [OUT_DIR]
#       Here (clang 14, the CUDA toolkit, build/lib built): compiles
#       peer_matrix.c and multi_device.c for nvptx64 (sm_90 through
#       tools/omptarget-sm90-path) and peer_matrix_raw.cu with nvcc, and packs
#       them with our libomptarget.so + libomptarget.rtl.cuda.so and LLVM 14's
#       libomp.so.5 into OUT_DIR/bundle.tar.gz (default build/multigpu).
#   run_multigpu.sh smoke [OUT_DIR]
#       Here, without a GPU: unpacks the bundle and runs the OpenMP programs
#       with MG_SMOKE=1 (no device: they print a skip line and exit 0).
#   run_multigpu.sh run [OUT_DIR]
#       On the GPU machine: multi_device; peer_matrix with LIBOMPTARGET_DEBUG=1
#       (small copies) counting the "peer access device i -> device j" trace
#       lines per ordered pair (each pair must be enabled exactly once);
#       peer_matrix and peer_matrix_raw for the figures (rounds interleaved);
#       then the table. Logs in $OUT (when set) or OUT_DIR: multigpu.log,
#       multigpu-table.txt.
# Knobs (run): MG_ROUNDS (2), MG_REPS (5), MG_BYTES (1 GiB), MG_TIMEOUT_S
# (150 per process), MG_BUDGET_S (240: no new round after that).
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
MAX_BUNDLE_MIB=10

die() { echo "run_multigpu.sh: $*" >&2; exit 1; }
. "$HERE/../bundle_common.sh"

build() {
  local out=${1:-$ROOT/build/multigpu} lib=$ROOT/build/lib
  bundle_require_tools
  local work=$ROOT/build/multigpu-work
  local stage=$work/stage sm90=$work/cuda-sm90 p
  rm -rf "$work" "$out"; mkdir -p "$stage/bin" "$stage/lib" "$out"
  "$ROOT/tools/omptarget-sm90-path" "$sm90" >/dev/null || die "cannot make the sm_90 CUDA path"
  for p in peer_matrix multi_device; do
    bundle_compile_offload "$HERE/$p.c" "$stage/bin/$p" "$sm90"
  done
  echo "compiling peer_matrix_raw (nvcc, sm_90)"
  "$CUDA/bin/nvcc" -O2 -std=c++17 -arch=sm_90 -o "$stage/bin/peer_matrix_raw" "$HERE/peer_matrix_raw.cu" \
    -L"$CUDA/lib64/stubs" -lcuda || die "peer_matrix_raw did not compile"
  cp "$lib/libomptarget.so" "$lib/libomptarget.rtl.cuda.so" "$LLVM/lib/libomp.so.5" "$stage/lib/"
  bundle_write_info "$stage"
  bundle_pack "$stage" "$out" KiB
  rm -rf "$work"
}

unpack() {  # BUNDLE_DIR -> prints the directory it unpacked to
  bundle_unpack "$1" omptarget-multigpu
}

# Runs a program with the bundle's libraries and none of the caller's runtime
# variables; extra VAR=VALUE arguments before the program.
runp() {  # DIR VAR=VALUE... PROGRAM
  local dir=$1; shift
  env DIR="$dir" timeout "${MG_TIMEOUT_S:-150}" bash -c '
    for v in $(compgen -e); do case $v in LIBOMPTARGET_*|OMP_*|OMPTARGET_*|KMP_*) unset "$v";; esac; done
    export LD_LIBRARY_PATH="$DIR/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    while [ $# -gt 1 ]; do export "$1"; shift; done
    exec "$DIR/bin/$1"' runp "$@" 2>&1
}

smoke() {
  local bundle=${1:-$ROOT/build/multigpu} dir status=0 p out rc
  dir=$(unpack "$bundle") || exit 1
  TMPD=$dir; trap 'rm -rf "$TMPD"' EXIT
  for p in multi_device peer_matrix; do
    out=$(runp "$dir" MG_SMOKE=1 "$p"); rc=$?
    echo "$out" | sed "s/^/[$p] /"
    if [ $rc != 0 ]; then echo "smoke $p: FAILED (exit $rc)"; status=1; else echo "smoke $p: ok"; fi
  done
  return $status
}

run() {
  local bundle=${1:-$ROOT/build/multigpu} t_start=$SECONDS
  local logdir=${OUT:-$bundle} dir rc out
  mkdir -p "$logdir"
  LOG=$logdir/multigpu.log; : > "$LOG"
  dir=$(unpack "$bundle") || exit 1
  TMPD=$dir; trap 'rm -rf "$TMPD"' EXIT
  cat "$dir/BUILD_INFO"
  nvidia-smi -L 2>/dev/null || echo "(nvidia-smi not found: no GPU?)"
  nvidia-smi topo -m 2>/dev/null | sed -n '1,12p'
  echo "libraries: $(LD_LIBRARY_PATH=$dir/lib ldd "$dir/bin/peer_matrix" | awk '/libomp/ {printf "%s ", $3}')"
  local status=0

  echo "== multi_device"
  out=$(runp "$dir" multi_device); rc=$?
  { echo "=== multi_device rc=$rc"; echo "$out"; } >> "$LOG"
  echo "$out"; [ $rc = 0 ] || { echo "multi_device: FAILED (exit $rc)"; status=1; }

  echo "== peer access trace (LIBOMPTARGET_DEBUG=1, 64 MiB copies, 1 rep)"
  out=$(runp "$dir" LIBOMPTARGET_DEBUG=1 MG_BYTES=$((64 << 20)) MG_REPS=1 peer_matrix); rc=$?
  { echo "=== peer_matrix debug rc=$rc"; echo "$out"; } >> "$LOG"
  local n peer_bad=0 i j c
  n=$(echo "$out" | awk -F'[= ]' '/^devices=/ {print $2; exit}')
  n=${n:-0}
  echo "$out" | grep -i 'peer access device' | sed 's/^/  trace: /' | head -$((n * n + 8))
  for ((i = 0; i < n; i++)); do
    for ((j = 0; j < n; j++)); do
      [ $i = $j ] && continue
      c=$(echo "$out" | grep -c "peer access device $i -> device $j:")
      echo "  peer access $i -> $j: $c trace line(s)"
      [ "$c" = 1 ] || peer_bad=1
    done
  done
  if [ $rc != 0 ]; then echo "peer trace run: FAILED (exit $rc)"; status=1; fi
  if [ "$n" -ge 2 ]; then
    [ $peer_bad = 0 ] && echo "peer access: enabled once per ordered pair: ok" ||
      { echo "peer access: NOT once per ordered pair"; status=1; }
  fi

  local rounds=${MG_ROUNDS:-2} r budget=${MG_BUDGET_S:-240} last=0 t_r
  local res=$logdir/multigpu-results.txt; : > "$res"
  for ((r = 1; r <= rounds; r++)); do
    if [ $r -gt 1 ] && [ $((SECONDS - t_start + last)) -gt "$budget" ]; then
      echo "info: time budget ${budget}s: stopping after $((r - 1)) round(s)"; break
    fi
    t_r=$SECONDS
    echo "== round $r (t=$((SECONDS - t_start))s)"
    local side
    for side in ours raw; do
      [ $((r % 2)) = 0 ] && side=$([ $side = ours ] && echo raw || echo ours)
      if [ $side = ours ]; then out=$(runp "$dir" peer_matrix); else out=$(runp "$dir" peer_matrix_raw); fi
      rc=$?
      { echo "=== $side round=$r rc=$rc"; echo "$out"; } >> "$LOG"
      echo "$out" | grep -E '^(startup_ms|pair|allpairs|error|peer_matrix)' | sed "s/^/  [$side] /"
      [ $rc = 0 ] || { echo "$side: FAILED (exit $rc)"; status=1; }
      echo "$out" | sed -n "s/^/side=$side round=$r /p" |
        grep -E ' (startup_ms|pair|allpairs threads|allpairs streams)=' | grep -v ' allpairs thread=' >> "$res"
    done
    last=$((SECONDS - t_r))
  done

  # Table: best round per figure (GB/s); startup_ms: the smallest.
  awk -v n="$n" '
    { side = $1; sub(/side=/, "", side) }
    / pair=/ && / gbps=/ {
      for (f = 1; f <= NF; f++) { split($f, kv, "="); v[kv[1]] = kv[2] }
      k = side SUBSEP v["pair"]; if (!(k in g) || v["gbps"] > g[k]) g[k] = v["gbps"]; next }
    / aggregate_gbps=/ {
      for (f = 1; f <= NF; f++) { split($f, kv, "="); v[kv[1]] = kv[2] }
      if (!(side in agg) || v["aggregate_gbps"] > agg[side]) agg[side] = v["aggregate_gbps"]; next }
    / startup_ms=/ {
      for (f = 1; f <= NF; f++) { split($f, kv, "="); v[kv[1]] = kv[2] }
      if (!("x" in st) || v["startup_ms"] < st["x"]) st["x"] = v["startup_ms"]; next }
    END {
      printf "omp_target_memcpy vs cuMemcpyPeerAsync, GB/s (best round), %d device(s)\n", n
      printf "%-8s %10s %10s %7s\n", "pair", "ours", "raw", "ratio"
      for (i = 0; i < n; i++) for (j = 0; j < n; j++) {
        p = i "," j; o = g["ours" SUBSEP p]; w = g["raw" SUBSEP p]
        printf "%-8s %10s %10s %7s\n", p, o == "" ? "-" : o, w == "" ? "-" : w, (o != "" && w > 0) ? sprintf("%.2f", o / w) : "-"
      }
      o = agg["ours"]; w = agg["raw"]
      printf "%-8s %10s %10s %7s\n", "allpairs", o == "" ? "-" : o, w == "" ? "-" : w, (o != "" && w > 0) ? sprintf("%.2f", o / w) : "-"
      printf "startup_ms (ours, program start -> end of first target region, best of rounds): %s\n", ("x" in st) ? st["x"] : "-"
    }' "$res" | tee "$logdir/multigpu-table.txt"
  echo "done: $((SECONDS - t_start)) s, status $status"
  return $status
}

case ${1:-} in
  build) shift; build "$@" ;;
  smoke) shift; smoke "$@" ;;
  run) shift; run "$@" ;;
  *) sed -n '2,25p' "$0"; exit 2 ;;
esac

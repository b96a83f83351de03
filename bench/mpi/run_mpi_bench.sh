#!/usr/bin/env bash
# The MPI plugin's benchmark: OpenMP offloading to a device server on
# another rank (mpi_offload_bench.c, side "omp") against plain MPI between
# two ranks exchanging the same messages (mpi_baseline.c, side "mpi"), run
# interleaved, ROUNDS rounds of omp then mpi; then, each round, the
# exchange cases (a copy between the devices of two servers) with two
# server ranks against three plain MPI ranks.
#
# Usage: bench/mpi/run_mpi_bench.sh
#
# Knobs (environment, all optional):
#   BUILD_DIR     the built tree: lib/ (libomptarget, plugins) and
#                 bin/omptarget-mpi-device (default <repo>/build)
#   OUT_DIR       where the two programs and the logs go
#                 (default BUILD_DIR/mpi-bench)
#   ROUNDS        interleaved rounds (default 3)
#   MAX_BYTES     largest copy size, of 4K 64K 1M 16M 256M 1G (default 1 GiB;
#                 268435456 skips 1 GiB on a small machine)
#   REGIONS       empty regions timed (default 2000)
#   CHAIN, CHAIN_REPS  nowait_chain: regions per chain, chains (500, 5)
#   COPY_BYTES    bytes per size and direction: reps = clamp(COPY_BYTES /
#                 size, 3, 100) (default 1 GiB)
#   DIAG          1 (default): after the rounds, one omp run with
#                 mpi_wait_probe.so (what each rank sent, polled and slept,
#                 lines "probe ...") and one with the probe's
#                 MPI_WAIT_PROBE_NOSLEEP=1 on the program's rank (side
#                 omp-nosleep: the plugin polling without sleeping); 0: none
#   CLANG, MPICC  compilers (default clang-14, mpicc)
#   MPI_TIMEOUT   seconds each mpirun may take (default 600)
#   BENCH_LOCK    a lock file: each build and each run holds it (flock)
#   MPIRUN_EXTRA  more mpirun options
# Launch as in tests/mpi: as root (--allow-run-as-root --oversubscribe),
# shared memory and self transports only (btl self,vader, no single-copy
# mechanism), no remote launch agent; the local host count is fixed at one
# device (OMPTARGET_HOST_NUM_DEVICES=1), so the remote device is device 1.
#
# Output (stdout; the raw output of every run in OUT_DIR/*.log): one line
# per figure
#   side=omp|mpi|omp-nosleep|omp-probe round=R case=CASE value=V unit=U
# (omp-probe: the probed run of DIAG, not in the table), the probe's lines
# ("sleep|nosleep probe rank=R ..."),
# then a table: per case, best of the rounds per side (lowest us/region,
# highest GB/s or regions/s), its spread ((max - min) / best over the
# rounds), the ratio omp/mpi, the goal and whether it is met:
#   empty_region  omp us / mpi round trips us <= 1.5
#   submit_*, retrieve_* of 1M and more: omp GB/s / mpi GB/s >= 0.90
#   nowait_chain  no goal; its mpi figure is 10^6 / mpi empty_region (the
#                 regions/s of the wire's round trips alone)
#   exchange_*    no goal of its own; shown with its ratio
# Exit status: 0 when every run finished and printed every figure, 1 when a
# build or a run failed or a figure is missing (never on a figure's value),
# 77 without mpirun.
set -u

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$SCRIPT_DIR/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-$REPO/build}
OUT_DIR=${OUT_DIR:-$BUILD_DIR/mpi-bench}
ROUNDS=${ROUNDS:-3}
MAX_BYTES=${MAX_BYTES:-1073741824}
REGIONS=${REGIONS:-2000}
CHAIN=${CHAIN:-500}
CHAIN_REPS=${CHAIN_REPS:-5}
COPY_BYTES=${COPY_BYTES:-1073741824}
DIAG=${DIAG:-1}
CLANG=${CLANG:-clang-14}
MPICC=${MPICC:-mpicc}
MPI_TIMEOUT=${MPI_TIMEOUT:-600}
BENCH_LOCK=${BENCH_LOCK:-}
MPIRUN_EXTRA=${MPIRUN_EXTRA:-}

command -v mpirun >/dev/null 2>&1 || { echo "SKIPPED: no mpirun (scripts/install-deps.sh installs openmpi-bin)"; exit 77; }
SERVER=$BUILD_DIR/bin/omptarget-mpi-device
[ -x "$SERVER" ] || { echo "ERROR: $SERVER is not built"; exit 1; }
mkdir -p "$OUT_DIR" || exit 1

locked() { if [ -n "$BENCH_LOCK" ]; then flock "$BENCH_LOCK" "$@"; else "$@"; fi; }

# ---- build (small programs, into OUT_DIR)
locked "$CLANG" -O2 -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu \
  "$SCRIPT_DIR/mpi_offload_bench.c" -o "$OUT_DIR/mpi_offload_bench" || { echo "ERROR: build of mpi_offload_bench failed"; exit 1; }
locked "$MPICC" -O2 "$SCRIPT_DIR/mpi_baseline.c" -o "$OUT_DIR/mpi_baseline" || { echo "ERROR: build of mpi_baseline failed"; exit 1; }
if [ "$DIAG" = 1 ]; then
  locked "$MPICC" -O2 -shared -fPIC "$SCRIPT_DIR/mpi_wait_probe.c" -o "$OUT_DIR/mpi_wait_probe.so" -ldl \
    || { echo "ERROR: build of mpi_wait_probe.so failed"; exit 1; }
fi

export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_plm_rsh_agent=false
export OMPTARGET_HOST_NUM_DEVICES=1 MPI_BENCH_LOCAL_DEVICES=1
export LD_LIBRARY_PATH=$BUILD_DIR/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export MPI_BENCH_MAX_BYTES=$MAX_BYTES MPI_BENCH_REGIONS=$REGIONS MPI_BENCH_CHAIN=$CHAIN
export MPI_BENCH_CHAIN_REPS=$CHAIN_REPS MPI_BENCH_COPY_BYTES=$COPY_BYTES
# shellcheck disable=SC2206
MPIRUN=(timeout "$MPI_TIMEOUT" mpirun --allow-run-as-root --oversubscribe $MPIRUN_EXTRA)

# The cases every run must print, in order.
CASES=(empty_region)
for S in 4096:4K 65536:64K 1048576:1M 16777216:16M 268435456:256M 1073741824:1G; do
  [ "${S%%:*}" -le "$MAX_BYTES" ] && CASES+=("submit_${S#*:}" "retrieve_${S#*:}")
done
[ "$CHAIN" -gt 0 ] && [ "$CHAIN_REPS" -gt 0 ] && CASES+=(nowait_chain)
# The exchange runs' cases (MPI_BENCH_CASES=exchange).
XCASES=()
for S in 1048576:1M 16777216:16M 268435456:256M 1073741824:1G; do
  [ "${S%%:*}" -le "$MAX_BYTES" ] && XCASES+=("exchange_${S#*:}")
done

FIGURES=$OUT_DIR/figures.txt
: >"$FIGURES"
FAILED=0
# run SIDE ROUND LOG COMMAND...: runs, then prints and keeps its figures
# (those of CASES, or of the array CASE_LIST names).
run() {
  local Side=$1 Round=$2 Log=$3
  local -n Want=${CASE_LIST:-CASES}
  shift 3
  if ! locked "${MPIRUN[@]}" "$@" >"$Log" 2>&1; then
    echo "ERROR: side=$Side round=$Round failed (exit $?); its output: $Log"
    tail -n 20 "$Log"
    FAILED=1
  fi
  grep '^ERROR' "$Log" && FAILED=1
  local C
  for C in "${Want[@]}"; do
    [ "$Side" = mpi ] && [ "$C" = nowait_chain ] && continue
    local L
    L=$(grep -m1 "^case=$C " "$Log") || { echo "ERROR: side=$Side round=$Round printed no figure for $C"; FAILED=1; continue; }
    L=$(sed -E 's/^case=([^ ]+) value=([^ ]+) unit=([^ ]+).*/case=\1 value=\2 unit=\3/' <<<"$L")
    echo "side=$Side round=$Round $L" | tee -a "$FIGURES"
  done
}

for ((R = 1; R <= ROUNDS; R++)); do
  run omp "$R" "$OUT_DIR/omp.$R.log" -np 1 "$OUT_DIR/mpi_offload_bench" : -np 1 "$SERVER"
  run mpi "$R" "$OUT_DIR/mpi.$R.log" -np 2 "$OUT_DIR/mpi_baseline"
  if [ ${#XCASES[@]} -gt 0 ]; then
    MPI_BENCH_CASES=exchange CASE_LIST=XCASES run omp "$R" "$OUT_DIR/omp-exchange.$R.log" \
      -x MPI_BENCH_CASES -np 1 "$OUT_DIR/mpi_offload_bench" : -np 2 "$SERVER"
    MPI_BENCH_CASES=exchange CASE_LIST=XCASES run mpi "$R" "$OUT_DIR/mpi-exchange.$R.log" \
      -x MPI_BENCH_CASES -np 3 "$OUT_DIR/mpi_baseline"
  fi
done

if [ "$DIAG" = 1 ]; then
  PRELOAD=$OUT_DIR/mpi_wait_probe.so
  for Mode in sleep nosleep; do
    PROBE_OUT=$OUT_DIR/probe.$Mode.txt
    rm -f "$PROBE_OUT"
    NS=0 Side=omp-probe
    [ $Mode = nosleep ] && NS=1 Side=omp-nosleep
    # The probe in both ranks; no sleeping (NS=1) in the program's rank only.
    MPI_WAIT_PROBE_OUT=$PROBE_OUT run "$Side" 1 "$OUT_DIR/omp.$Mode.log" \
      -x LD_PRELOAD="$PRELOAD" -x MPI_WAIT_PROBE_OUT -x MPI_WAIT_PROBE_NOSLEEP="$NS" \
      -np 1 "$OUT_DIR/mpi_offload_bench" : \
      -x LD_PRELOAD="$PRELOAD" -x MPI_WAIT_PROBE_OUT -x MPI_WAIT_PROBE_NOSLEEP=0 -np 1 "$SERVER"
    sed "s/^/$Mode /" "$PROBE_OUT" 2>/dev/null
  done
  grep -v '^side=omp-probe' "$FIGURES" >"$FIGURES.tmp" && mv "$FIGURES.tmp" "$FIGURES"
fi

# ---- the table
echo
awk -v cases="${CASES[*]} ${XCASES[*]}" '
  function better(u, a, b) { return u == "us/region" ? a < b : a > b }
  {
    for (i = 1; i <= NF; ++i) { split($i, kv, "="); f[kv[1]] = kv[2] }
    k = f["side"] SUBSEP f["case"]; v = f["value"] + 0; unit[f["case"]] = f["unit"]
    if (!(k in best) || better(f["unit"], v, best[k])) best[k] = v
    if (!(k in lo) || v < lo[k]) lo[k] = v
    if (!(k in hi) || v > hi[k]) hi[k] = v
  }
  function cell(s, c,   k) {
    k = s SUBSEP c
    if (!(k in best)) return "-"
    return sprintf("%.4g (%.0f%%)", best[k], best[k] ? 100 * (hi[k] - lo[k]) / best[k] : 0)
  }
  END {
    n = split(cases, C, " ")
    if (("mpi" SUBSEP "empty_region") in best && best["mpi" SUBSEP "empty_region"] > 0) {
      best["mpi" SUBSEP "nowait_chain"] = 1e6 / best["mpi" SUBSEP "empty_region"]
      lo["mpi" SUBSEP "nowait_chain"] = hi["mpi" SUBSEP "nowait_chain"] = best["mpi" SUBSEP "nowait_chain"]
    }
    printf "| case | unit | omp best (spread) | mpi best (spread) | omp/mpi | goal | met | omp-nosleep | omp-nosleep/mpi |\n"
    printf "|---|---|---|---|---|---|---|---|---|\n"
    for (i = 1; i <= n; ++i) {
      c = C[i]; o = "omp" SUBSEP c; m = "mpi" SUBSEP c; z = "omp-nosleep" SUBSEP c
      ratio = "-"; goal = "-"; met = "-"; zr = "-"
      if ((o in best) && (m in best) && best[m] > 0) ratio = sprintf("%.3g", best[o] / best[m])
      if ((z in best) && (m in best) && best[m] > 0) zr = sprintf("%.3g", best[z] / best[m])
      if (c == "empty_region") { goal = "<= 1.5"; if (ratio != "-") met = (ratio + 0 <= 1.5) ? "yes" : "NO" }
      else if (c ~ /^(submit|retrieve)_([0-9]+M|[0-9]+G)$/) { goal = ">= 0.90"; if (ratio != "-") met = (ratio + 0 >= 0.90) ? "yes" : "NO" }
      printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c, unit[c], cell("omp", c),
             cell("mpi", c) (c == "nowait_chain" ? " [1e6/empty_region]" : ""), ratio, goal, met, cell("omp-nosleep", c), zr
    }
  }' "$FIGURES" | tee "$OUT_DIR/table.md"
echo "(figures: $FIGURES; logs: $OUT_DIR/*.log; table: $OUT_DIR/table.md)"
exit "$FAILED"

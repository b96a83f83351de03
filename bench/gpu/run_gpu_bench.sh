#!/bin/bash
# GPU offloading benchmark: our runtime (core + CUDA plugin), LLVM 14's
# runtime (its core + its CUDA plugin) and raw CUDA doing the same
# operations, in the same run, interleaved; and, where clang 19 and LLVM 19's
# runtime are here, the same program built by clang 19 on our runtime (side
# ours-c19). See docs/benchmarks.md ("GPU").
#
#   run_gpu_bench.sh build [OUT_DIR]
#       Here (clang 14, the CUDA toolkit, a built tree in build/): compiles
#       bench/gpu/omp_gpu_bench.c for nvptx64 (sm_90 through
#       tools/omptarget-sm90-path) twice, with LLVM 14's device runtime
#       (omp_gpu_bench) and with ours (omp_gpu_bench_devrtl,
#       build/lib/libomptarget-devicertl-nvptx.bc), bench/gpu/raw_cuda_bench.cu with nvcc,
#       and packs them with our libomptarget.so + libomptarget.rtl.cuda.so,
#       LLVM 14's libomptarget.so + libomptarget.rtl.cuda.so, libomp.so.5, and
#       the libraries LLVM 14's CUDA plugin needs (libLLVM-14 and friends,
#       xz-compressed) into OUT_DIR/bundle.tar.gz (default build/gpu-bench;
#       the directory holds nothing else, so it can be carried as is).
#       Where clang 19 (CLANG19, default /usr/bin/clang-19) and LLVM 19's
#       OpenMP runtime (LLVM19_RUNTIME_DIR, default
#       build/llvm19-runtime/usr/lib/llvm-19, as scripts/fetch-llvm19-
#       runtime.sh unpacks it) are here, it also compiles omp_gpu_bench.c
#       with clang 19 for sm_90 with LLVM 19's device runtime
#       (omp_gpu_bench_c19, linked against libomptarget.so.19.1 and libomp
#       19) and adds lib/ours-c19 (links to our core, under the name
#       libomptarget.so.19.1 too, and CUDA plugin in lib/ours) and
#       lib/libomp-19 (LLVM 19's libomp.so.5 alone: LLVM 19's directory also
#       holds its own libomptarget.so.19.1); otherwise it prints a NOTE and
#       builds the bundle without them. GPU_BENCH_C19=0 leaves them out.
#   run_gpu_bench.sh smoke [OUT_DIR]
#       Here, without a GPU: unpacks the bundle and runs the OpenMP binary
#       with tiny sizes (GPU_BENCH_SMOKE=1) on both runtimes, and the clang 19
#       binary on ours with libomp 19 (ours-c19, when the bundle has it),
#       which fall back to the host; checks that each starts on its own core,
#       CUDA plugin and libomp, runs every case and exits cleanly.
#   run_gpu_bench.sh run [OUT_DIR]
#       On the GPU machine: unpacks the bundle, runs every case on raw CUDA,
#       ours, LLVM 14, devrtl (ours with the program built with our device
#       runtime) and ours-c19 (the clang 19 binary on our core and CUDA
#       plugin with libomp 19; not run when the bundle has no clang 19 build
#       or GPU_BENCH_C19=0); one process per side and case, interleaved,
#       rounds repeated; case e also on ours with OMPTARGET_CUDA_BLOCKS_PER_SM=0,1,
#       2,4,8, and prints the tables (ours-c19 with c19/raw and c19/ours, its
#       time over raw's and over ours'). The peer copy runs only with >= 2
#       GPUs.
#       Case g (locked host memory) runs as three processes per side, g_bw,
#       g_lock and g_overlap, on raw, ours, LLVM 14 and ours-c19 (not devrtl:
#       the device runtime plays no part in them). Case h (device allocation)
#       runs as two, h_alloc (omp_target_alloc + omp_target_free; raw:
#       cuMemAlloc + cuMemFree and a stream-ordered pool) on raw, ours, LLVM
#       14 and ours-c19, and also on ours without the memory manager (side
#       ours-nomm: LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD=0) and ours with
#       synchronous allocations from cuMemAlloc (ours-poolq:
#       OMPTARGET_CUDA_MEMORY_POOL=2), and h_map (loops of regions whose maps,
#       3 x 1 MiB or 3 x 64 MiB, to/from or all tofrom, are created and
#       deleted every time) on all five sides and on ours without the
#       memory pool (ours-nopool: OMPTARGET_CUDA_MEMORY_POOL=0). Cases a, b
#       and f also run on ours with each CUDA synchronization mode (sides
#       ours-spin, ours-yield, ours-blocking: OMPTARGET_CUDA_SYNC_MODE=...;
#       ours is the default, the primary context's flags left alone).
#       Case f_nowait_4threads: 4 host threads issuing independent nowait
#       regions (raw: 4 threads launching on their own streams).
#       There is no llvm19 side (the clang 19 binary on LLVM 19's runtime):
#       LLVM 19's CUDA plugin refuses the cubins of the CUDA 13 toolkit
#       (docs/benchmarks.md, "clang 19 programs on the GPU, and LLVM 19's
#       runtime as a side").
#       Logs go to $OUT (when set) or OUT_DIR: gpu-bench.log (every output),
#       gpu-bench-results.txt (one line per figure), gpu-bench-table.txt.
#
# Knobs (run): GPU_BENCH_ROUNDS (3), GPU_BENCH_BUDGET_S (420: a new round
# starts only if it should end within that many seconds of the start),
# GPU_BENCH_HARD_S (460: no new case starts after that), GPU_BENCH_TIMEOUT_S
# (90, per process),
# GPU_BENCH_CASES (space-separated subset of: a b c_memcpy_d2d_1g
# c_memcpy_peer_1g d e f f_nowait_4threads g h, where g = g_bw g_lock
# g_overlap and h = h_alloc h_map, which can also be named alone),
# GPU_BENCH_BPSM ("0 1 2 4 8"; empty: none), GPU_BENCH_SYNC_MODES ("spin
# yield blocking"; empty: none), GPU_BENCH_SYNC_CASES (the cases they run
# for, "a b f"), GPU_BENCH_C19 (1; 0: no ours-c19 side), GPU_BENCH_BATCH_MS,
# GPU_BENCH_REPS (passed through to the programs).
# Knobs (build): GPU_BENCH_C19 (1; 0: no clang 19 build), CLANG19,
# LLVM19_RUNTIME_DIR (see build).
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
MAX_BUNDLE_MIB=60

die() { echo "run_gpu_bench.sh: $*" >&2; exit 1; }
. "$HERE/../bundle_common.sh"

# ---------------------------------------------------------------- build ----
build() {
  local out=${1:-$ROOT/build/gpu-bench}
  local work=$ROOT/build/gpu-bench-work lib=$ROOT/build/lib
  bundle_require_tools
  local stage=$work/stage sm90=$work/cuda-sm90
  rm -rf "$stage" "$out"; mkdir -p "$stage"/bin "$out"
  "$ROOT/tools/omptarget-sm90-path" "$sm90" >/dev/null || die "cannot make the sm_90 CUDA path"

  bundle_compile_offload "$HERE/omp_gpu_bench.c" "$stage/bin/omp_gpu_bench" "$sm90"
  local devrtl=$lib/libomptarget-devicertl-nvptx.bc
  [ -f "$devrtl" ] || die "build the device runtime first (ninja -C build omptarget-devicertl)"
  bundle_compile_offload "$HERE/omp_gpu_bench.c" "$stage/bin/omp_gpu_bench_devrtl" "$sm90" \
    --libomptarget-nvptx-bc-path="$devrtl"
  echo "compiling raw_cuda_bench (nvcc, sm_90)"
  "$CUDA/bin/nvcc" -O2 -std=c++17 -arch=sm_90 -o "$stage/bin/raw_cuda_bench" "$HERE/raw_cuda_bench.cu" \
    -L"$CUDA/lib64/stubs" -lcuda || die "raw_cuda_bench did not compile"
  rm -rf "$sm90"

  # clang 19 (side ours-c19), where it and LLVM 19's runtime are here.
  local clang19=${CLANG19:-/usr/bin/clang-19} c19=0
  local l19=${LLVM19_RUNTIME_DIR:-$ROOT/build/llvm19-runtime/usr/lib/llvm-19}/lib
  if [ "${GPU_BENCH_C19:-1}" = 0 ]; then
    echo "NOTE: GPU_BENCH_C19=0: no clang 19 build (side ours-c19)"
  elif [ ! -x "$clang19" ]; then
    echo "NOTE: no $clang19 (CLANG19): no clang 19 build (side ours-c19)"
  elif [ ! -f "$l19/libomptarget.so.19.1" ] || [ ! -f "$l19/libomp.so.5" ] ||
       [ ! -f "$l19/libomptarget-nvptx-sm_90.bc" ] || [ ! -f "$l19/clang/19/include/omp.h" ]; then
    echo "NOTE: no LLVM 19 runtime in $l19 (scripts/fetch-llvm19-runtime.sh, LLVM19_RUNTIME_DIR):" \
      "no clang 19 build (side ours-c19)"
  else
    c19=1
    # As tests/gpu/run_gpu_tests.sh builds its clang 19 variant: clang 19
    # knows sm_90 and takes the toolkit's ptxas and nvlink as they are; LLVM
    # 19's omp.h, libomp, libomptarget (soname libomptarget.so.19.1) and
    # nvptx device runtime come from LIBRARY_PATH.
    echo "compiling omp_gpu_bench_c19 (clang 19, sm_90, LLVM 19's device runtime)"
    env LIBRARY_PATH="$l19" "$clang19" -O2 -fopenmp --offload-arch=sm_90 --cuda-path="$CUDA" \
      -Wno-unknown-cuda-version -I"$l19/clang/19/include" -Wall -Wextra \
      -o "$stage/bin/omp_gpu_bench_c19" "$HERE/omp_gpu_bench.c" || die "omp_gpu_bench.c did not compile with clang 19"
  fi

  bundle_stage_runtimes "$stage" "$ROOT/build/bundle-cache"
  if [ $c19 = 1 ]; then
    # lib/ours-c19: our core (also as libomptarget.so.19.1, the name clang 19
    # programs ask for) and CUDA plugin, links into lib/ours, whose
    # libomp.so.5 is LLVM 14's; lib/libomp-19: libomp 19 alone.
    mkdir -p "$stage/lib/ours-c19" "$stage/lib/libomp-19"
    ln -s ../ours/libomptarget.so ../ours/libomptarget.rtl.cuda.so "$stage/lib/ours-c19/"
    if [ -L "$lib/libomptarget.so.19.1" ] || [ ! -e "$lib/libomptarget.so.19.1" ]; then
      ln -s ../ours/libomptarget.so "$stage/lib/ours-c19/libomptarget.so.19.1"
    else
      cp "$lib/libomptarget.so.19.1" "$stage/lib/ours-c19/"
    fi
    cp "$l19/libomp.so.5" "$stage/lib/libomp-19/"
  fi

  bundle_write_info "$stage"
  [ $c19 = 0 ] || echo "clang19=$("$clang19" --version | head -1)" >> "$stage/BUILD_INFO"
  bundle_pack "$stage" "$out" MiB
  rm -rf "$stage"
}

# ----------------------------------------------------------- unpacking ----
unpack() {  # BUNDLE_DIR -> prints the directory it unpacked to
  local dir
  dir=$(bundle_unpack "$1" omptarget-gpu-bench) || exit 1
  bundle_unpack_llvm_deps "$dir"
  echo "$dir"
}

# ------------------------------------------------------------------ run ----
# What of OUT (a process's output: its "lib kind=..." lines) shows other
# libraries than the side's: the core LIBDIR/CORE_NAME, with PLUGIN=1 the
# CUDA plugin in LIBDIR, and with OMP that libomp.so.5. Paths are compared
# resolved (lib/ours-c19 holds links into lib/ours; /proc/self/maps, which
# the program reads, names the files linked to). Prints nothing when all are
# right.
wrong_libs() {  # OUT LIBDIR CORE_NAME PLUGIN(0|1) [OMP]
  local out=$1 want=$2 core_name=$3 check_plugin=$4 omp=${5:-} core plugin lib bad=""
  core=$(echo "$out" | awk '/^lib kind=core path=/ {sub(/.*path=/, ""); print; exit}')
  plugin=$(echo "$out" | awk '/^lib kind=plugin path=.*libomptarget\.rtl\.cuda\.so/ {sub(/.*path=/, ""); print; exit}')
  lib=$(echo "$out" | awk '/^lib kind=openmp path=/ {sub(/.*path=/, ""); print; exit}')
  [ -n "$core" ] && [ "$(realpath -m -- "$core")" = "$(realpath -m -- "$want/$core_name")" ] ||
    bad="core=${core:-none}"
  if [ "$check_plugin" = 1 ]; then
    [ -n "$plugin" ] && [ "$(realpath -m -- "$plugin")" = "$(realpath -m -- "$want/libomptarget.rtl.cuda.so")" ] ||
      bad="$bad plugin=${plugin:-none}"
  fi
  if [ -n "$omp" ]; then
    [ -n "$lib" ] && [ "$(realpath -m -- "$lib")" = "$(realpath -m -- "$omp")" ] || bad="$bad openmp=${lib:-none}"
  fi
  echo "${bad# }"
}

# Runs one side of one case; appends to the log and the results file.
run_one() {  # DIR SIDE ROUND CASE
  local dir=$1 side=$2 round=$3 kase=$4 libs="" bin extra_env="" out rc core_name=libomptarget.so omp=""
  case $side in
    raw) bin=$dir/bin/raw_cuda_bench ;;
    ours) bin=$dir/bin/omp_gpu_bench; libs=$dir/lib/ours ;;
    ours-c19)
      bin=$dir/bin/omp_gpu_bench_c19; libs=$dir/lib/ours-c19:$dir/lib/libomp-19
      core_name=libomptarget.so.19.1; omp=$dir/lib/libomp-19/libomp.so.5 ;;
    devrtl) bin=$dir/bin/omp_gpu_bench_devrtl; libs=$dir/lib/ours ;;
    llvm) bin=$dir/bin/omp_gpu_bench; libs=$dir/lib/llvm:$dir/lib/llvm-deps ;;
    ours-bpsm*) bin=$dir/bin/omp_gpu_bench; libs=$dir/lib/ours; extra_env="OMPTARGET_CUDA_BLOCKS_PER_SM=${side#ours-bpsm}" ;;
    ours-nomm) bin=$dir/bin/omp_gpu_bench; libs=$dir/lib/ours; extra_env="LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD=0" ;;
    ours-poolq) bin=$dir/bin/omp_gpu_bench; libs=$dir/lib/ours; extra_env="OMPTARGET_CUDA_MEMORY_POOL=2" ;;
    ours-nopool) bin=$dir/bin/omp_gpu_bench; libs=$dir/lib/ours; extra_env="OMPTARGET_CUDA_MEMORY_POOL=0" ;;
    ours-spin|ours-yield|ours-blocking|ours-auto)
      bin=$dir/bin/omp_gpu_bench; libs=$dir/lib/ours; extra_env="OMPTARGET_CUDA_SYNC_MODE=${side#ours-}" ;;
    *) die "unknown side $side" ;;
  esac
  local arg=$kase
  [ "$kase" = d ] && arg=d_update_to_1g
  [ "$kase" = e ] && arg=e_triad
  [ "$kase" = a ] && arg=a_small_region
  [ "$kase" = b ] && arg=b_empty_region
  [ "$kase" = f ] && arg=f_nowait_chain_10k
  local t0=$SECONDS
  # Like the test runner: the caller's runtime variables stay out.
  out=$(env LIBS="$libs" EXTRA="$extra_env" BIN="$bin" ARG="$arg" timeout "${GPU_BENCH_TIMEOUT_S:-90}" bash -c '
      for v in $(compgen -e); do case $v in LIBOMPTARGET_*|OMP_*|OMPTARGET_*|KMP_*) unset "$v";; esac; done
      [ -n "$LIBS" ] && export LD_LIBRARY_PATH="$LIBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
      [ -n "$EXTRA" ] && export "$EXTRA"
      exec "$BIN" "$ARG"' 2>&1)
  rc=$?
  { echo "=== side=$side round=$round case=$kase rc=$rc seconds=$((SECONDS - t0))"; echo "$out"; } >> "$LOG"
  # The OpenMP sides must have run on their own libraries.
  if [ "$side" != raw ]; then
    local bad
    bad=$(wrong_libs "$out" "${libs%%:*}" "$core_name" 1 "$omp")
    if [ -n "$bad" ] && ! echo "$out" | grep -q '^case=all error='; then
      echo "side=$side round=$round case=$arg error=MISCONFIGURED($bad)" >> "$RESULTS"
      echo "  $side $kase: MISCONFIGURED ($bad)"
      return
    fi
  fi
  local lines
  lines=$(echo "$out" | grep '^case=' | sed "s/^case=all /case=$arg /")
  if [ -z "$lines" ]; then
    echo "side=$side round=$round case=$arg error=no-output(rc=$rc)" >> "$RESULTS"
    echo "  $side $kase: no output (exit $rc; see the log)"
    return
  fi
  echo "$lines" | sed "s/^/side=$side round=$round /" >> "$RESULTS"
  if [ $rc != 0 ]; then echo "  $side $kase: exit $rc: $(echo "$lines" | grep error= | head -2 | tr '\n' ' ')"; fi
}

run() {
  local bundle=${1:-$ROOT/build/gpu-bench}
  local t_start=$SECONDS budget=${GPU_BENCH_BUDGET_S:-420} rounds=${GPU_BENCH_ROUNDS:-3}
  local hard=${GPU_BENCH_HARD_S:-460}
  local logdir=${OUT:-$bundle} dir
  mkdir -p "$logdir"
  LOG=$logdir/gpu-bench.log RESULTS=$logdir/gpu-bench-results.txt
  : > "$LOG"; : > "$RESULTS"
  dir=$(unpack "$bundle") || exit 1
  BENCH_TMP=$dir
  trap 'rm -rf "$BENCH_TMP"' EXIT
  cat "$dir/BUILD_INFO"
  nvidia-smi -L 2>/dev/null || echo "(nvidia-smi not found: no GPU?)"
  nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv 2>/dev/null
  local gpus
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  bundle_link_libcuda "$dir"

  local cases=${GPU_BENCH_CASES:-"a b c_memcpy_d2d_1g c_memcpy_peer_1g d e f f_nowait_4threads g h"}
  cases=$(echo " $cases " | sed 's/ g / g_bw g_lock g_overlap /; s/ h / h_alloc h_map /')
  if [ "${gpus:-0}" -lt 2 ]; then
    cases=$(echo " $cases " | sed 's/ c_memcpy_peer_1g / /')
    echo "info: $gpus GPU(s): c_memcpy_peer_1g not run"
  fi
  local bpsm=${GPU_BENCH_BPSM-"0 1 2 4 8"}
  local sync_modes=${GPU_BENCH_SYNC_MODES-"spin yield blocking"} sync_cases=" ${GPU_BENCH_SYNC_CASES:-a b f} "
  local c19=1
  if [ "${GPU_BENCH_C19:-1}" = 0 ]; then
    c19=0; echo "info: GPU_BENCH_C19=0: ours-c19 not run"
  elif [ ! -x "$dir/bin/omp_gpu_bench_c19" ]; then
    c19=0; echo "info: the bundle has no clang 19 build: ours-c19 not run"
  fi
  local orders=("raw ours llvm devrtl ours-c19" "ours-c19 ours devrtl llvm raw" "llvm ours-c19 devrtl raw ours")
  local r done_rounds=0 last=0 t_round
  for ((r = 1; r <= rounds; r++)); do
    # A new round starts only if one as long as the last still fits.
    if [ $r -gt 1 ] && [ $((SECONDS - t_start + last)) -gt "$budget" ]; then
      echo "info: time budget (${budget}s): stopping after $done_rounds round(s) (last one took ${last}s)"; break
    fi
    t_round=$SECONDS
    echo "round $r (t=$((SECONDS - t_start))s)"
    local kase side b
    for kase in $cases; do
      if [ $((SECONDS - t_start)) -gt "$hard" ]; then
        echo "info: hard time limit (${hard}s) reached: the rest of round $r is not run"; break
      fi
      for side in ${orders[$(((r - 1) % 3))]}; do
        case $side:$kase in devrtl:g_*|devrtl:h_alloc*) continue ;; ours-c19:*) [ $c19 = 1 ] || continue ;; esac
        run_one "$dir" "$side" "$r" "$kase"
      done
      if [ "$kase" = e ]; then
        for b in $bpsm; do run_one "$dir" "ours-bpsm$b" "$r" e; done
      fi
      if [[ $sync_cases == *" $kase "* ]]; then
        local m
        for m in $sync_modes; do run_one "$dir" "ours-$m" "$r" "$kase"; done
      fi
      case $kase in
        h_alloc) run_one "$dir" ours-nomm "$r" h_alloc; run_one "$dir" ours-poolq "$r" h_alloc ;;
        h_map) run_one "$dir" ours-nopool "$r" h_map ;;
      esac
    done
    done_rounds=$r; last=$((SECONDS - t_round))
  done
  echo "done: $done_rounds round(s), $gpus GPU(s), $((SECONDS - t_start)) s"
  if command -v python3 >/dev/null 2>&1; then
    python3 "$HERE/gpu_bench_report.py" "$RESULTS" "$gpus" | tee "$logdir/gpu-bench-table.txt"
  else
    echo "(no python3: raw results follow)"; cat "$RESULTS"
  fi
}

# ---------------------------------------------------------------- smoke ----
smoke() {
  local bundle=${1:-$ROOT/build/gpu-bench} dir status=0 side libs out bin core_name omp sides="ours llvm"
  dir=$(unpack "$bundle") || exit 1
  BENCH_TMP=$dir
  trap 'rm -rf "$BENCH_TMP"' EXIT
  if [ -x "$dir/bin/omp_gpu_bench_c19" ]; then
    sides="$sides ours-c19"
  else
    echo "smoke: the bundle has no clang 19 build: no ours-c19"
  fi
  for side in $sides; do
    bin=$dir/bin/omp_gpu_bench core_name=libomptarget.so
    case $side in
      ours) libs=$dir/lib/ours omp=$dir/lib/ours/libomp.so.5 ;;
      llvm) libs=$dir/lib/llvm:$dir/lib/llvm-deps omp=$dir/lib/llvm/libomp.so.5 ;;
      ours-c19)
        bin=$dir/bin/omp_gpu_bench_c19 core_name=libomptarget.so.19.1
        libs=$dir/lib/ours-c19:$dir/lib/libomp-19 omp=$dir/lib/libomp-19/libomp.so.5 ;;
    esac
    out=$(env GPU_BENCH_SMOKE=1 LD_LIBRARY_PATH="$libs" timeout 300 "$bin" all 2>&1)
    local rc=$? ncase nerr bad
    ncase=$(echo "$out" | grep -c '^case=.* value=')
    nerr=$(echo "$out" | grep -c '^case=.* error=')
    echo "$out" | sed "s/^/[$side] /"
    # Its own core, CUDA plugin and libomp.
    bad=$(wrong_libs "$out" "${libs%%:*}" "$core_name" 1 "$omp")
    # a b c_d2d d_to d_from e f f_nowait_4threads: 8 figures (the peer copy
    # is skipped), g's pageable ones: 4 copies and the overlap (the locked
    # ones may skip), and h's 8: 4 alloc + free sizes, 4 map loops
    if [ -n "$bad" ]; then
      echo "smoke $side: MISCONFIGURED ($bad)"; status=1
    elif [ $rc != 0 ] || [ "$nerr" != 0 ] || [ "$ncase" -lt 21 ]; then
      echo "smoke $side: FAILED (exit $rc, $ncase figure(s), $nerr error(s))"; status=1
    else
      echo "smoke $side: ok ($ncase figures on the host fallback)"
    fi
  done
  return $status
}

case ${1:-} in
  build) shift; build "$@" ;;
  smoke) shift; smoke "$@" ;;
  run) shift; run "$@" ;;
  *) sed -n '2,82p' "$0"; exit 2 ;;
esac

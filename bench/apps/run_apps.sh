#!/bin/bash
# Third-party OpenMP offload applications on our runtime and on LLVM 14's,
# next to each application's own CUDA version: BabelStream (copy, triad,
# dot), XSBench (hash and unionized grids), miniBUDE, TeaLeaf, CloverLeaf;
# and, where clang 19 is here, each OpenMP version built by clang 19 on ours.
# See docs/benchmarks.md ("Applications").
#
#   run_apps.sh build [OUT_DIR]
#       Here (git, clang 14, the CUDA toolkit, build/lib built with the
#       device runtime). Gets each application's sources at the commit
#       pinned below into build/apps-src/NAME (never into the tracked tree):
#       from $APPS_MIRROR/OWNER+NAME (a bare git directory, or one holding
#       repo/, as the search tools' fetch makes; default /work/.mirror), else
#       by `git clone https://github.com/OWNER/NAME`. Compiles each OpenMP
#       version with clang 14 for sm_90 (tools/omptarget-sm90-path, the flags
#       of bench/bundle_common.sh) twice, with LLVM 14's device runtime
#       (bin/APP_omp) and with ours (bin/APP_omp_devrtl,
#       build/lib/libomptarget-devicertl-nvptx.bc), each CUDA version with
#       nvcc -arch=sm_90 (bin/APP_cuda), and, where clang 19 ($CLANG19,
#       default /usr/bin/clang-19) and LLVM 19's OpenMP runtime
#       ($LLVM19_RUNTIME_DIR/lib, default build/llvm19-runtime/usr/lib/llvm-19,
#       as scripts/fetch-llvm19-runtime.sh unpacks it) are here, each OpenMP
#       version once more with clang 19 for sm_90 (--offload-arch=sm_90, the
#       CUDA toolkit as it is) with LLVM 19's device runtime, its omp.h and
#       its libraries to link (bin/APP_omp_c19); without them (a NOTE line)
#       or with APPS_C19=0 the bundle has no clang 19 binaries. Binaries are
#       kept in build/gpu-apps-work/bin and rebuilt only when their command,
#       their sources or the device runtime changed. Packs them with the
#       input decks, our libomptarget.so + libomptarget.rtl.cuda.so (+
#       libomptarget.so.19.1, the soname clang 19 programs load: the build's,
#       a link to libomptarget.so when it is one) in lib/ours, LLVM 19's
#       libomp.so.5 alone in lib/libomp-19 (never LLVM 19's directory: it
#       holds LLVM 19's own libomptarget.so.19.1), LLVM 14's libomptarget.so
#       + CUDA plugin + libomp.so.5 and LLVM 14's plugin dependencies (xz)
#       into OUT_DIR/bundle.tar.gz (default build/gpu-apps; it holds nothing
#       else, so it can be carried as is); fails when the bundle is 60 MiB or
#       more (then choose fewer with APPS=..., or APPS_C19=0).
#   run_apps.sh smoke [OUT_DIR]
#       Here, without a GPU: unpacks the bundle, runs every OpenMP binary
#       (both device runtimes' builds) on both runtimes, and the clang 19
#       builds on ours, with tiny inputs (the offload falls back to the host)
#       and checks that each starts, passes its own verification and exits
#       0; then prints the report table from those outputs. The CUDA
#       binaries are only checked to be in the bundle. Logs in $OUT (when
#       set) or OUT_DIR/smoke-logs.
#   run_apps.sh run [OUT_DIR]
#       On the GPU machine: unpacks the bundle, runs every case on the sides
#       ours (bin/APP_omp on lib/ours), ours-devrtl (bin/APP_omp_devrtl on
#       lib/ours), ours-c19 (bin/APP_omp_c19 on lib/ours with libomp 19:
#       lib/libomp-19 first in the search path, as lib/ours holds LLVM 14's
#       libomp.so.5; left out when the bundle has no clang 19 binary of the
#       application), llvm (bin/APP_omp on LLVM 14's runtime) and cuda
#       (bin/APP_cuda), one process each, interleaved, in rounds, with
#       OMP_TARGET_OFFLOAD=MANDATORY (a run that does not reach the GPU
#       fails); then prints the table (apps_report.py): per case the median
#       of each side, ours/LLVM 14, ours-devrtl/LLVM 14, ours/CUDA,
#       ours-c19/CUDA, ours-c19/ours and the geometric means. Logs in $OUT
#       (when set) or OUT_DIR/logs: one file per process (raw/), apps.log,
#       apps-table.txt. There is no side of clang 19's binaries on LLVM 19's
#       own runtime: its CUDA plugin refuses the cubins of the CUDA 13
#       toolkit (docs/benchmarks.md, "clang 19 programs on the GPU, and LLVM
#       19's runtime as a side").
#
# Knobs: APPS (build, smoke, run: a subset of "babelstream xsbench minibude
# tealeaf cloverleaf"), APPS_C19 (build, smoke, run: 0 leaves the clang 19
# builds and the side ours-c19 out; default 1), CLANG19 and
# LLVM19_RUNTIME_DIR (build, above), APPS_MIRROR (/work/.mirror),
# APPS_BUILD_LOCK (a file that each compiler command is run under `flock`
# of; unset: none), APPS_ROUNDS (3), APPS_BUDGET_S (480: a new round starts
# only if it should end within that many seconds of the start), APPS_HARD_S
# (540: no new process starts after that), APPS_END_S (585: no process runs
# past that), APPS_TIMEOUT_S (150 per process), APPS_ARGS_<case> (replaces
# the arguments of one case in `run`, e.g.
# APPS_ARGS_xsbench_unionized="-m event -s small -G unionized").
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
MAX_BUNDLE_MIB=60

die() { echo "run_apps.sh: $*" >&2; exit 1; }
. "$HERE/../bundle_common.sh"

SRC_ROOT=$ROOT/build/apps-src
WORK=$ROOT/build/gpu-apps-work
APPS_ALL="babelstream xsbench minibude tealeaf cloverleaf"
# clang 19 and LLVM 19's OpenMP runtime (unpacked, not installed), for the
# APP_omp_c19 builds.
CLANG19=${CLANG19:-/usr/bin/clang-19}
L19=${LLVM19_RUNTIME_DIR:-$ROOT/build/llvm19-runtime/usr/lib/llvm-19}/lib
C19=0  # build: set by c19_check

# ------------------------------------------------------------ the apps ----
# NAME OWNER/REPO COMMIT PATHS...: the commit each application is built at
# (the one the mirror held when this was written) and the paths taken from it.
#  - BabelStream v5.0, its last release: later commits make the CUDA version
#    need NVML (nvml.h, libnvidia-ml), which the CUDA toolkit here lacks.
#  - XSBench: the repository moved from ANL-CESAR to ANL-TESSA (GitHub
#    forwards the old name).
#  - miniBUDE: only the bm1 deck (the mirror lacks bm2_long's large files).
#  - TeaLeaf: branch main (newer than master, the mirror's default branch).
app_pin() {  # NAME -> "OWNER/REPO COMMIT PATHS..."
  case $1 in
    babelstream) echo "UoB-HPC/BabelStream f6ae48de899408cf50c24079417dc71a03dbb5a8 src" ;;
    xsbench) echo "ANL-CESAR/XSBench ba08e5221af6106252b866e50ea123c69d31a4e2 openmp-offload cuda" ;;
    minibude) echo "UoB-HPC/miniBUDE 570f66c1fd0c29b7f3ab6fa96fba87f4561aa44c src data/bm1" ;;
    tealeaf) echo "UoB-HPC/TeaLeaf 9a66e15639730a01a2eec3aad659f71f6625e269 driver src tea.in tea.problems" ;;
    cloverleaf) echo "UoB-HPC/CloverLeaf ba256dccb033d385c23a4a02983b2d137eebeca4 driver src InputDecks" ;;
    *) die "unknown application '$1' (known: $APPS_ALL)" ;;
  esac
}

selected_apps() {
  local a
  for a in ${APPS:-$APPS_ALL}; do app_pin "$a" >/dev/null; echo "$a"; done
}

# The processes ("cases") of an application; babelstream's one process
# gives three figures (copy, triad, dot).
app_cases() {  # NAME
  case $1 in
    xsbench) echo "xsbench_hash xsbench_unionized" ;;
    *) echo "$1" ;;
  esac
}

# -------------------------------------------------------------- sources ----
# The git directory to take REPO from: the mirror's, else a bare clone.
repo_gitdir() {  # OWNER/REPO
  local repo=$1 m=${APPS_MIRROR:-/work/.mirror}/${1/\//+} clone
  [ -d "$m/repo" ] && m=$m/repo
  if git --git-dir="$m" rev-parse --git-dir >/dev/null 2>&1; then echo "$m"; return; fi
  clone=$SRC_ROOT/.clones/${repo/\//+}
  if ! git --git-dir="$clone" rev-parse --git-dir >/dev/null 2>&1; then
    echo "cloning https://github.com/$repo (no mirror at $m)" >&2
    rm -rf "$clone"; mkdir -p "$SRC_ROOT/.clones"
    git clone --quiet --bare "https://github.com/$repo" "$clone" >&2 || die "cannot clone $repo"
  fi
  echo "$clone"
}

# Writes PATH (a directory or a file) of COMMIT under DEST. Each path is
# taken alone: the mirror may lack the blobs of paths not asked for.
export_path() {  # GITDIR COMMIT PATH DEST
  local g=$1 c=$2 p=$3 d=$4
  case $(git --git-dir="$g" cat-file -t "$c:$p" 2>/dev/null) in
    tree) git --git-dir="$g" archive --format=tar --prefix="$p/" "$c:$p" | tar -C "$d" -xf - &&
            [ "${PIPESTATUS[0]}" = 0 ] ;;
    blob) mkdir -p "$d/$(dirname "$p")" && git --git-dir="$g" cat-file blob "$c:$p" > "$d/$p" ;;
    *) return 1 ;;
  esac
}

# Exports the pinned commit's paths into build/apps-src/NAME (once).
get_sources() {  # NAME
  local name=$1 repo commit paths gitdir dest=$SRC_ROOT/$1
  read -r repo commit paths <<< "$(app_pin "$name")"
  [ "$(cat "$dest/.pinned" 2>/dev/null)" = "$repo $commit" ] && return 0
  gitdir=$(repo_gitdir "$repo") || exit 1
  git --git-dir="$gitdir" cat-file -e "$commit^{commit}" 2>/dev/null ||
    die "$gitdir lacks commit $commit of $repo (fetch the repository again)"
  echo "sources: $repo at ${commit:0:12} -> ${dest#"$ROOT"/}"
  rm -rf "$dest" "$dest.tmp"; mkdir -p "$dest.tmp"
  local p
  for p in $paths; do export_path "$gitdir" "$commit" "$p" "$dest.tmp" || die "cannot export $p of $repo at $commit"; done
  echo "$repo $commit" > "$dest.tmp/.pinned"
  mv "$dest.tmp" "$dest"
  rm -f "$WORK/bin/${name}"_*  # new sources: the kept binaries are stale
}

# ------------------------------------------------------------ compiling ----
# Runs a compiler command unless OUT is newer than every file under the
# DEPS and was made by the same command (kept in OUT.cmd).
compile() {  # OUT "DEP..." COMMAND...
  local out=$1 deps=$2; shift 2
  local cmd; cmd=$(printf '%q ' "$@")
  if [ -x "$out" ] && [ "$(cat "$out.cmd" 2>/dev/null)" = "$cmd" ] &&
     [ -z "$(find $deps -newer "$out" -print -quit 2>/dev/null)" ]; then
    echo "  $(basename "$out"): up to date"; return 0
  fi
  echo "  compiling $(basename "$out")"
  rm -f "$out" "$out.cmd"
  local log=$out.log
  if ! ${APPS_BUILD_LOCK:+flock "$APPS_BUILD_LOCK"} "$@" -o "$out" > "$log" 2>&1; then
    tail -30 "$log" >&2; die "$(basename "$out") did not compile (log: ${log#"$ROOT"/})"
  fi
  printf '%s' "$cmd" > "$out.cmd"
}

# The OpenMP builds of one program: NAME_omp (LLVM 14's device runtime,
# clang's default), NAME_omp_devrtl (ours) and, with C19=1, NAME_omp_c19
# (clang 19, LLVM 19's device runtime). DRIVER is clang or clang++; ARGS are
# the application's own flags, the same for both compilers; C19_EXTRA (set
# by the caller: words) adds flags for clang 19 only.
compile_omp() {  # NAME DRIVER "SRC_DIR..." ARGS...
  local name=$1 driver=$2 src=$3; shift 3
  local devrtl=$ROOT/build/lib/libomptarget-devicertl-nvptx.bc
  # shellcheck disable=SC2046  # the flags are words
  compile "$WORK/bin/${name}_omp" "$src" "$LLVM/bin/$driver" $(bundle_offload_flags "$SM90") "$@"
  # shellcheck disable=SC2046
  compile "$WORK/bin/${name}_omp_devrtl" "$src $devrtl" "$LLVM/bin/$driver" $(bundle_offload_flags "$SM90") \
    --libomptarget-nvptx-bc-path="$devrtl" "$@"
  [ "$C19" = 1 ] || return 0
  # clang 19 knows sm_90 and takes the toolkit's ptxas and nvlink as they
  # are (no sm_90 wrapper). LLVM 19's omp.h, and its libomp, libomptarget
  # (soname libomptarget.so.19.1) and nvptx device runtime through
  # LIBRARY_PATH, as tests/gpu/run_gpu_tests.sh builds its clang 19 variant.
  local cc19=$CLANG19
  [ "$driver" = clang++ ] && cc19=${CLANG19%clang-19}clang++-19
  compile "$WORK/bin/${name}_omp_c19" "$src $L19/libomptarget-nvptx-sm_90.bc $L19/libomptarget.devicertl.a" \
    env LIBRARY_PATH="$L19" "$cc19" -fopenmp --offload-arch=sm_90 --cuda-path="$CUDA" -Wno-unknown-cuda-version \
    -I"$L19/clang/19/include" ${C19_EXTRA:-} "$@"
}

# Whether the clang 19 builds are made (sets C19); a NOTE when they cannot be.
c19_check() {
  local why=""
  if [ "${APPS_C19:-1}" = 0 ]; then why="APPS_C19=0"
  elif [ ! -x "$CLANG19" ] || [ ! -x "${CLANG19%clang-19}clang++-19" ]; then why="no $CLANG19 (or its clang++-19)"
  elif [ ! -f "$L19/libomp.so.5" ] || [ ! -f "$L19/libomptarget.so.19.1" ] ||
       [ ! -f "$L19/libomptarget-nvptx-sm_90.bc" ] || [ ! -f "$L19/clang/19/include/omp.h" ]; then
    why="no LLVM 19 runtime in $L19 (scripts/fetch-llvm19-runtime.sh)"
  fi
  if [ -n "$why" ]; then
    C19=0; echo "NOTE: no clang 19 builds (side ours-c19): $why"
  else
    C19=1; echo "clang 19 builds: $CLANG19, LLVM 19's runtime $L19"
  fi
}

# For the side ours-c19: lib/ours/libomptarget.so.19.1 (the build's; a link
# to libomptarget.so when it is one, or when the build has none: the loader
# takes any file by that name) and libomp 19 alone in lib/libomp-19.
stage_c19_runtimes() {  # STAGE
  local stage=$1 lib=$ROOT/build/lib
  if [ ! -e "$lib/libomptarget.so.19.1" ] ||
     [ "$(realpath "$lib/libomptarget.so.19.1")" = "$(realpath "$lib/libomptarget.so")" ]; then
    ln -s libomptarget.so "$stage/lib/ours/libomptarget.so.19.1"
  else
    cp "$lib/libomptarget.so.19.1" "$stage/lib/ours/"
  fi
  mkdir -p "$stage/lib/libomp-19"
  cp "$L19/libomp.so.5" "$stage/lib/libomp-19/"
}

compile_cuda() {  # NAME "SRC_DIR..." ARGS...
  local name=$1 src=$2; shift 2
  compile "$WORK/bin/${name}_cuda" "$src" "$CUDA/bin/nvcc" -arch=sm_90 "$@"
}

# BabelStream (CMake: MODEL=omp, OFFLOAD: -DOMP -DOMP_TARGET_GPU; MODEL=cuda:
# -DCUDA, MEM=DEFAULT; C++11, -O3).
build_babelstream() {
  local s=$SRC_ROOT/babelstream/src
  compile_omp babelstream clang++ "$s" -std=c++17 -O3 -DOMP -DOMP_TARGET_GPU -I"$s" -I"$s/omp" \
    "$s/main.cpp" "$s/omp/OMPStream.cpp"
  compile_cuda babelstream "$s" -std=c++17 -O3 -DCUDA -DDEFAULT -I"$s" -I"$s/cuda" \
    -x cu "$s/main.cpp" "$s/cuda/CUDAStream.cu"
}

# XSBench (openmp-offload/Makefile COMPILER=llvm: -std=gnu99 -O3, -lm;
# cuda/Makefile: nvcc -std=c++14 -O3 -Xcompiler -O3; C++17 here: the
# Thrust of CUDA 13 needs it).
build_xsbench() {
  local s=$SRC_ROOT/xsbench
  compile_omp xsbench clang "$s/openmp-offload" -std=gnu99 -O3 "$s"/openmp-offload/*.c -lm
  compile_cuda xsbench "$s/cuda" -std=c++17 -O3 -Xcompiler -O3 "$s"/cuda/*.cu -lm
}

# miniBUDE (CMake MODEL=omp OFFLOAD=NVIDIA:sm_xx: -DOMP -DOMP_TARGET, -O3
# -ffast-math, C++17; MODEL=cuda: main.cpp as CUDA, -use_fast_math -restrict
# -extended-lambda). The pose-per-work-item sizes compiled are those `run`
# tunes over (miniBUDE's default is 1..128; nvcc needs the commas escaped).
# clang 19 refuses src/omp/fasten.hpp's `devices.template emplace_back(...)`
# (-Wmissing-template-arg-list-after-template-kw, an error by default from
# clang 19 on): its build makes that a warning again.
BUDE_PPWI="1 2 4 8"
build_minibude() {
  local s=$SRC_ROOT/minibude/src ppwi
  ppwi=$(echo $BUDE_PPWI | tr ' ' ,)
  C19_EXTRA=-Wno-error=missing-template-arg-list-after-template-kw compile_omp minibude clang++ "$s" -std=c++17 -O3 -ffast-math -DOMP -DOMP_TARGET -DUSE_PPWI="$ppwi" -I"$s" \
    "$s/main.cpp"
  compile_cuda minibude "$s" -std=c++17 -O3 -use_fast_math -restrict -extended-lambda -DCUDA \
    -DUSE_PPWI="${ppwi//,/\\,}" -I"$s" -x cu "$s/main.cpp"
}

# TeaLeaf (CMake MODEL=omp OFFLOAD=...: -DUSE_OMP -DOMP_TARGET
# -DDIFFUSE_OVERLOAD, and -DNO_MPI without ENABLE_MPI; MODEL=cuda: every
# source as CUDA, -DUSE_CUDA; C++17, -O3).
build_tealeaf() {
  local s=$SRC_ROOT/tealeaf
  compile_omp tealeaf clang++ "$s/driver $s/src" -std=c++17 -O3 -DUSE_OMP -DOMP_TARGET -DDIFFUSE_OVERLOAD -DNO_MPI \
    -I"$s/driver" -I"$s/src/omp" "$s"/driver/*.cpp "$s"/src/omp/*.cpp -lm
  compile_cuda tealeaf "$s/driver $s/src" -std=c++17 -O3 -use_fast_math -restrict -extended-lambda -DUSE_CUDA -DNO_MPI \
    -I"$s/driver" -I"$s/src/cuda" -x cu "$s"/driver/*.cpp "$s"/src/cuda/*.cpp
}

# CloverLeaf (CMake MODEL=omp-target OFFLOAD=...: -DUSE_OMP_TARGET
# -DOMP_TARGET -DDIFFUSE_OVERLOAD, -DNO_MPI; MODEL=cuda: every source as
# CUDA, -DUSE_CUDA; C++17, -O3).
build_cloverleaf() {
  local s=$SRC_ROOT/cloverleaf
  compile_omp cloverleaf clang++ "$s/driver $s/src" -std=c++17 -O3 -DUSE_OMP_TARGET -DOMP_TARGET -DDIFFUSE_OVERLOAD -DNO_MPI \
    -I"$s/driver" -I"$s/src/omp-target" "$s"/driver/*.cpp "$s"/src/omp-target/*.cpp
  compile_cuda cloverleaf "$s/driver $s/src" -std=c++17 -O3 -use_fast_math -restrict -extended-lambda -DUSE_CUDA -DNO_MPI \
    -I"$s/driver" -I"$s/src/cuda" -x cu "$s"/driver/*.cpp "$s"/src/cuda/*.cpp
}

# The inputs a case needs at run time, under STAGE/data.
stage_data() {  # NAME STAGE
  local d=$2/data
  case $1 in
    minibude) mkdir -p "$d/minibude"; cp -r "$SRC_ROOT/minibude/data/bm1" "$d/minibude/" ;;
    tealeaf)
      mkdir -p "$d/tealeaf"; cp "$SRC_ROOT/tealeaf/tea.problems" "$d/tealeaf/"
      # Their tea.in (CG, 5 states) at the sizes of two reference solutions
      # of tea.problems: 2000x2000 for 10 steps (run), 64x64 for 1 (smoke).
      tea_deck 2000 10 > "$d/tealeaf/tea_2000_10.in"
      tea_deck 64 1 > "$d/tealeaf/tea_64_1.in" ;;
    cloverleaf)
      mkdir -p "$d/cloverleaf"
      cp "$SRC_ROOT/cloverleaf/InputDecks/clover_bm16_short.in" "$d/cloverleaf/"
      clover_small_deck > "$d/cloverleaf/clover_10x2.in" ;;
  esac
}

# The deck driver/clover_leaf.cpp writes when it is given none, which this
# version no longer uses (it opens clover.in): 10x2 cells to t=3.0, test
# problem 1 (a reference solution of driver/report.cpp).
clover_small_deck() {
  printf '%s\n' '*clover' ' state 1 density=0.2 energy=1.0' \
    ' state 2 density=1.0 energy=2.5 geometry=rectangle xmin=0.0 xmax=5.0 ymin=0.0 ymax=2.0' \
    ' x_cells=10' ' y_cells=2' ' xmin=0.0' ' ymin=0.0' ' xmax=10.0' ' ymax=2.0' ' initial_timestep=0.04' \
    ' timestep_rise=1.5' ' max_timestep=0.04' ' end_time=3.0' ' test_problem 1' '*endclover'
}

tea_deck() {  # CELLS STEPS
  sed -e "s/^x_cells=.*/x_cells=$1/" -e "s/^y_cells=.*/y_cells=$1/" -e "s/^end_step=.*/end_step=$2/" \
    -e '/^profiler_on/d' "$SRC_ROOT/tealeaf/tea.in"
}

build() {
  local out=${1:-$ROOT/build/gpu-apps} app stage=$WORK/stage
  bundle_require_tools
  [ -f "$ROOT/build/lib/libomptarget-devicertl-nvptx.bc" ] ||
    die "build the device runtime first (ninja -C build omptarget-devicertl)"
  command -v git >/dev/null || die "git not found"
  rm -rf "$stage" "$out"; mkdir -p "$stage/bin" "$WORK/bin" "$out"
  c19_check
  SM90=$WORK/cuda-sm90
  "$ROOT/tools/omptarget-sm90-path" "$SM90" >/dev/null || die "cannot make the sm_90 CUDA path"
  for app in $(selected_apps); do
    get_sources "$app"
    echo "$app:"
    "build_$app"
    cp "$WORK/bin/${app}_omp" "$WORK/bin/${app}_omp_devrtl" "$WORK/bin/${app}_cuda" "$stage/bin/"
    [ $C19 = 1 ] && cp "$WORK/bin/${app}_omp_c19" "$stage/bin/"
    stage_data "$app" "$stage"
  done
  bundle_stage_runtimes "$stage" "$ROOT/build/bundle-cache"
  [ $C19 = 1 ] && stage_c19_runtimes "$stage"
  bundle_write_info "$stage"
  { echo "apps=$(selected_apps | tr '\n' ' ')"
    [ $C19 = 1 ] && echo "clang19=$("$CLANG19" --version | head -1)"
    for app in $(selected_apps); do echo "pin.$app=$(app_pin "$app" | cut -d' ' -f1-2)"; done; } >> "$stage/BUILD_INFO"
  ls -l "$stage/bin" | awk 'NR > 1 {printf "  %-28s %6d KiB\n", $NF, $5 / 1024}'
  bundle_pack "$stage" "$out" MiB
  rm -rf "$stage"
}

# ---------------------------------------------------------------- cases ----
# The arguments of CASE on the GPU (MODE run) or on the host fallback (MODE
# smoke); DATA is the bundle's data directory. Sizes are discussed in
# docs/benchmarks.md ("Applications").
case_args() {  # CASE MODE DATA
  local kase=$1 mode=$2 data=$3 side=${4:-}
  if [ "$mode" = run ]; then
    local var=APPS_ARGS_$kase
    [ -n "${!var:-}" ] && { echo "${!var}"; return; }
  fi
  case $kase:$mode in
    # 2^28 doubles per array (2 GiB, 3 arrays), 100 times each kernel.
    babelstream:run) echo "-s 268435456 -n 100" ;;
    babelstream:smoke) echo "-s 262144 -n 5" ;;
    # The default lookups (17M, event based): the only count whose
    # checksum XSBench knows.
    xsbench_hash:run) echo "-m event -s large -G hash" ;;
    xsbench_unionized:run) echo "-m event -s large -G unionized" ;;
    # Smoke: 200,000 lookups (the default 17M take ~50 s on this host): the
    # checksum XSBench then prints, 599527, is checked by apps_report.py.
    xsbench_hash:smoke) echo "-m event -s small -G hash -l 200000" ;;
    xsbench_unionized:smoke) echo "-m event -s small -G unionized -l 200000" ;;
    # Deck bm1, 50 timed iterations per configuration, miniBUDE's own
    # tuning over poses per work item x work-group size (OpenMP: the
    # num_teams of the kernel; CUDA: threads per block); the best is kept.
    minibude:run)
      if [ "$side" = cuda ]; then echo "--deck $data/minibude/bm1 -i 50 -p 1,2,4,8 -w 64,128,256,512"
      else echo "--deck $data/minibude/bm1 -i 50 -p 1,2,4,8 -w 128,256,512,1024"; fi ;;
    minibude:smoke) echo "--deck $data/minibude/bm1 -n 256 -i 2 -p 1,4 -w 1,2" ;;
    tealeaf:run) echo "--file $data/tealeaf/tea_2000_10.in --problems $data/tealeaf/tea.problems" ;;
    tealeaf:smoke) echo "--file $data/tealeaf/tea_64_1.in --problems $data/tealeaf/tea.problems" ;;
    # bm16_short: 3840x3840 cells, 87 steps (test problem 4). Smoke: 10x2
    # cells (test problem 1).
    cloverleaf:run) echo "--file $data/cloverleaf/clover_bm16_short.in" ;;
    cloverleaf:smoke) echo "--file $data/cloverleaf/clover_10x2.in" ;;
    *) die "no arguments for case $kase ($mode)" ;;
  esac
}

case_app() { case $1 in xsbench_*) echo xsbench ;; *) echo "$1" ;; esac; }

# ------------------------------------------------------------ unpacking ----
unpack() {  # BUNDLE_DIR -> prints the directory it unpacked to
  local dir
  dir=$(bundle_unpack "$1" omptarget-gpu-apps) || exit 1
  bundle_unpack_llvm_deps "$dir"
  echo "$dir"
}

# ------------------------------------------------------------------ run ----
# Runs CASE on SIDE (binary BIN with the libraries LIBS) in a scratch
# directory, with none of the caller's runtime variables; the output goes to
# RAW/CASE.SIDE.rROUND.log, followed by a "# exit rc=N seconds=S" line, and
# the loader's list of loaded files (LD_DEBUG=files) to the same name + .ld.
run_process() {  # DIR MODE SIDE ROUND CASE BIN LIBS RAW
  local dir=$1 mode=$2 side=$3 round=$4 kase=$5 bin=$6 libs=$7 raw=$8
  local log=$raw/$kase.$side.r$round.log scratch args t0=$SECONDS rc limit=${APPS_TIMEOUT_S:-150}
  args=$(case_args "$kase" "$mode" "$dir/data" "$side") || exit 1
  # In `run`, no process outlives APPS_END_S after the start (the device
  # tool stops a command at 600 s; the table must be printed before).
  if [ -n "${RUN_T0:-}" ]; then
    local left=$((${APPS_END_S:-585} - (SECONDS - RUN_T0)))
    [ "$left" -lt "$limit" ] && limit=$((left > 5 ? left : 5))
  fi
  scratch=$(mktemp -d "$dir/run.XXXXXX")
  rm -f "$log" "$log".ld*
  {
    echo "# case=$kase side=$side round=$round mode=$mode"
    echo "# command: $(basename "$bin") $args"
  } > "$log"
  # The braces keep bash's own "Aborted ..." notice of a crashed process out.
  # shellcheck disable=SC2086  # args are words
  { (cd "$scratch" && env LIBS="$libs" MODE="$mode" CASE="$kase" LDLOG="$log.ld" timeout "$limit" bash -c '
      for v in $(compgen -e); do case $v in LIBOMPTARGET_*|OMP_*|OMPTARGET_*|KMP_*) unset "$v";; esac; done
      [ -n "$LIBS" ] && export LD_LIBRARY_PATH="$LIBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
      [ "$MODE" = run ] && export OMP_TARGET_OFFLOAD=MANDATORY
      # Host fallback: one thread. With more, the host teams of libomp (LLVM
      # 14) trip an assertion in TeaLeaf (kmp_runtime.cpp(1122)), whichever
      # libomptarget runs. On the GPU too: with the 16 CPUs of the H200 machine
      # TeaLeaf aborted there in its first second on both runtimes (the same
      # assertion, 2026-12-02), so TeaLeaf always runs with one host thread
      # (its host code is serial; its kernels are target regions).
      [ "$MODE" = smoke ] && export OMP_NUM_THREADS=1
      case $CASE in tealeaf*) export OMP_NUM_THREADS=1 ;; esac
      export LD_DEBUG=files LD_DEBUG_OUTPUT="$LDLOG"
      exec "$@"' run "$bin" $args) >> "$log" 2>&1; } 2>/dev/null
  rc=$?
  echo "# exit rc=$rc seconds=$((SECONDS - t0))" >> "$log"
  cat "$log".ld.* > "$log.ld" 2>/dev/null; rm -f "$log".ld.*
  rm -rf "$scratch"
  echo "  r$round $kase $side: exit $rc, $((SECONDS - t0)) s"
}

# The binary and libraries of SIDE for APP. ours-c19: libomp 19 comes
# first, as lib/ours also holds LLVM 14's libomp.so.5 (for the clang 14
# binaries); lib/libomp-19 holds nothing else, so the core and the plugin
# are lib/ours'.
side_bin() {
  case $2 in
    ours|llvm) echo "$1/bin/$3_omp" ;; ours-devrtl) echo "$1/bin/$3_omp_devrtl" ;;
    ours-c19) echo "$1/bin/$3_omp_c19" ;; cuda) echo "$1/bin/$3_cuda" ;;
  esac
}
side_libs() {
  case $2 in
    ours|ours-devrtl) echo "$1/lib/ours" ;; ours-c19) echo "$1/lib/libomp-19:$1/lib/ours" ;;
    llvm) echo "$1/lib/llvm:$1/lib/llvm-deps" ;; cuda) echo "" ;;
  esac
}

# Whether the bundle in DIR has APP's clang 19 build (and APPS_C19 is not 0).
has_c19() {  # DIR APP
  [ "${APPS_C19:-1}" != 0 ] && [ -x "$1/bin/$2_omp_c19" ] && [ -f "$1/lib/libomp-19/libomp.so.5" ]
}

bundle_apps() {  # DIR: the applications in the bundle, in APPS if given
  local have a
  have=$(sed -n 's/^apps=//p' "$1/BUILD_INFO")
  for a in ${APPS:-$have}; do
    case " $have " in *" $a "*) echo "$a" ;; *) echo "warning: $a is not in the bundle" >&2 ;; esac
  done
}

# The figures and the table, from the raw outputs in LOGDIR/raw.
report() {  # DIR LOGDIR MODE
  if command -v python3 >/dev/null 2>&1; then
    python3 "$HERE/apps_report.py" --mode "$3" --libs "$1/lib" --results "$2/apps-results.txt" "$2/raw" |
      tee "$2/apps-table.txt"
    return "${PIPESTATUS[0]}"
  fi
  echo "(no python3: the raw outputs are in $2/raw)"; return 1
}

run() {
  local bundle=${1:-$ROOT/build/gpu-apps}
  local t_start=$SECONDS budget=${APPS_BUDGET_S:-480} hard=${APPS_HARD_S:-540} rounds=${APPS_ROUNDS:-3}
  RUN_T0=$t_start
  local logdir=${OUT:-$bundle/logs} dir app
  mkdir -p "$logdir/raw"; rm -f "$logdir"/raw/*
  dir=$(unpack "$bundle") || exit 1
  APPS_TMP=$dir
  trap 'rm -rf "$APPS_TMP"' EXIT
  {
    cat "$dir/BUILD_INFO"
    nvidia-smi -L 2>/dev/null || echo "(nvidia-smi not found: no GPU?)"
    nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv 2>/dev/null
    bundle_link_libcuda "$dir"
    for app in $(bundle_apps "$dir"); do
      has_c19 "$dir" "$app" || echo "info: $app: no clang 19 build in the bundle (or APPS_C19=0): no side ours-c19"
    done
    local orders=("cuda ours ours-c19 llvm ours-devrtl" "ours ours-devrtl llvm cuda ours-c19"
                  "ours-c19 llvm ours-devrtl cuda ours")
    local r last=0 t_round done_rounds=0 kase side stop=0
    for ((r = 1; r <= rounds && !stop; r++)); do
      # A new round starts only if one as long as the last still fits.
      if [ $r -gt 1 ] && [ $((SECONDS - t_start + last)) -gt "$budget" ]; then
        echo "info: time budget (${budget}s): stopping after $done_rounds round(s) (last one took ${last}s)"; break
      fi
      t_round=$SECONDS
      echo "round $r (t=$((SECONDS - t_start))s)"
      for app in $(bundle_apps "$dir"); do
        for kase in $(app_cases "$app"); do
          for side in ${orders[$(((r - 1) % 3))]}; do
            [ "$side" = ours-c19 ] && ! has_c19 "$dir" "$app" && continue
            if [ $((SECONDS - t_start)) -gt "$hard" ]; then
              echo "info: hard time limit (${hard}s) reached: the rest of round $r is not run"; stop=1; break 3
            fi
            run_process "$dir" run "$side" "$r" "$kase" "$(side_bin "$dir" "$side" "$app")" \
              "$(side_libs "$dir" "$side")" "$logdir/raw"
          done
        done
      done
      done_rounds=$r; last=$((SECONDS - t_round))
    done
    echo "done: $done_rounds round(s), $((SECONDS - t_start)) s"
  } 2>&1 | tee "$logdir/apps.log"
  report "$dir" "$logdir" run
}

# ---------------------------------------------------------------- smoke ----
smoke() {
  local bundle=${1:-$ROOT/build/gpu-apps} dir status=0 app kase side bin
  local logdir=${OUT:-$bundle/smoke-logs}
  mkdir -p "$logdir/raw"; rm -f "$logdir"/raw/*
  dir=$(unpack "$bundle") || exit 1
  APPS_TMP=$dir
  trap 'rm -rf "$APPS_TMP"' EXIT
  for app in $(bundle_apps "$dir"); do
    [ -x "$dir/bin/${app}_cuda" ] || { echo "smoke: $app: no CUDA binary in the bundle"; status=1; }
    for kase in $(app_cases "$app"); do
      # Both builds (LLVM 14's device runtime, ours) on both runtimes.
      for side in ours llvm; do
        for bin in "${app}_omp" "${app}_omp_devrtl"; do
          local tag=$side
          [ "$bin" = "${app}_omp_devrtl" ] && tag=$side-devrtl
          run_process "$dir" smoke "$tag" 1 "$kase" "$dir/bin/$bin" "$(side_libs "$dir" "$side")" "$logdir/raw"
        done
      done
      # The clang 19 build on ours (with libomp 19), where the bundle has it.
      if has_c19 "$dir" "$app"; then
        run_process "$dir" smoke ours-c19 1 "$kase" "$(side_bin "$dir" ours-c19 "$app")" \
          "$(side_libs "$dir" ours-c19)" "$logdir/raw"
      fi
    done
    has_c19 "$dir" "$app" || echo "smoke: $app: no clang 19 build in the bundle (or APPS_C19=0): no side ours-c19"
  done
  report "$dir" "$logdir" smoke || status=1
  [ $status = 0 ] && echo "smoke: ok" || echo "smoke: FAILED"
  return $status
}

case ${1:-} in
  build) shift; build "$@" ;;
  smoke) shift; smoke "$@" ;;
  run) shift; run "$@" ;;
  *) sed -n '2,74p' "$0"; exit 2 ;;
esac

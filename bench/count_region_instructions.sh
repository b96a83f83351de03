#!/usr/bin/env bash
# Host instructions per target region, by object (our core, our plugin, the
# driver, libomp, libc), counted with callgrind: deterministic where timings
# are not, so that a change to the per-region path can be compared
# instruction by instruction, and a machine shared with builds does not blur
# it. See docs/benchmarks.md ("Host instructions per region").
#
# Usage: bench/count_region_instructions.sh [BUILD_DIR]
#
# For each target and case, bench/region_instructions.c runs under
# `valgrind --tool=callgrind` with COUNT_A and COUNT_B regions;
# bench/callgrind_objects.py divides the difference of each object's self
# cost by COUNT_B - COUNT_A. Targets:
#   host        x86_64 offloading, our runtime (synchronous host device)
#   host-async  the same with OMPTARGET_HOST_ASYNC=1
#   host-llvm   x86_64 offloading on LLVM 14's runtime (the comparison)
#   host-c19    the program built by clang 19, on our runtime with libomp 19
#   host-llvm19 the same clang 19 binary on LLVM 19's runtime
#               (both only where clang-19 and LLVM 19's runtime are here:
#               LLVM19_LIB, default BUILD_DIR/llvm19-runtime/usr/lib/llvm-19/lib)
#   cuda-fake   nvptx64 image on our CUDA plugin and the fake CUDA driver of
#               the test suite (BUILD_DIR/fake-cuda; kernels do not run, so
#               the fake driver's own cost is its bookkeeping, not a GPU's).
#               Also prints the driver calls per region
#               (OMPTARGET_CUDA_API_STATS=1, counts of the two runs
#               differenced).
# Cases: small, empty, chain (see bench/region_instructions.c).
#
# Environment: REGION_TARGETS (default "host host-async host-llvm host-c19
# host-llvm19 cuda-fake"; cuda-fake is skipped when BUILD_DIR has no fake
# driver, the clang 19 targets without clang-19 or LLVM 19), REGION_CASES
# (default "small empty chain"), COUNT_A / COUNT_B (20 / 220).
#
# Output: lines `target=T case=C object=O per_region=IR` (or `error=WHY` when
# a run's results were wrong: then the exit status is 1), then a table.
# Needs valgrind, clang 14 and, for cuda-fake, the CUDA toolkit's ptxas.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
build=${1:-$root/build}
build=$(cd "$build" && pwd)
llvm=${LLVM14_DIR:-/usr/lib/llvm-14}
clang=$llvm/bin/clang
targets=${REGION_TARGETS:-"host host-async host-llvm host-c19 host-llvm19 cuda-fake"}
clang19=$(command -v clang-19 || true)
llvm19_lib=${LLVM19_LIB:-$build/llvm19-runtime/usr/lib/llvm-19/lib}
cases=${REGION_CASES:-"small empty chain"}
count_a=${COUNT_A:-20}
count_b=${COUNT_B:-220}
work=$build/region-instructions
mkdir -p "$work"

die() { echo "count_region_instructions: $*" >&2; exit 1; }
command -v valgrind >/dev/null || die "valgrind not found"
[ -x "$clang" ] || die "clang 14 not found at $clang"
[ -f "$build/lib/libomptarget.so" ] || die "no $build/lib/libomptarget.so: build first (scripts/build.sh)"

compile() {  # compile TARGET -> prints the binary's path
  local kind=$1 bin
  case $kind in
    host-c19 | host-llvm19)
      bin=$work/region_instructions_x86_c19
      [ "$bin" -nt "$here/region_instructions.c" ] ||
        "$clang19" -O2 -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -I"$llvm19_lib/clang/19/include" \
          -L"$llvm19_lib" -o "$bin" "$here/region_instructions.c"
      # libomp 19 alone for host-c19 (LLVM 19's directory also has its
      # libomptarget.so.19.1).
      mkdir -p "$work/libomp-19"
      ln -sf "$llvm19_lib/libomp.so.5" "$work/libomp-19/libomp.so.5"
      ;;
    host*)
      bin=$work/region_instructions_x86
      [ "$bin" -nt "$here/region_instructions.c" ] ||
        "$clang" -O2 -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -o "$bin" "$here/region_instructions.c"
      ;;
    cuda-fake)
      bin=$work/region_instructions_nvptx
      if ! [ "$bin" -nt "$here/region_instructions.c" ]; then
        "$root/tools/omptarget-sm90-path" "$work/cuda-sm90" >/dev/null || die "cannot make the sm_90 CUDA path"
        "$clang" -O2 -fopenmp -fopenmp-targets=nvptx64-nvidia-cuda -Xopenmp-target -march=sm_80 \
          --cuda-path="$work/cuda-sm90" -Wno-unknown-cuda-version -o "$bin" "$here/region_instructions.c"
      fi
      ;;
  esac
  echo "$bin"
}

environment() {  # environment TARGET -> env words for the run
  case $1 in
    host) echo "LD_LIBRARY_PATH=$build/lib:$llvm/lib" ;;
    host-async) echo "LD_LIBRARY_PATH=$build/lib:$llvm/lib OMPTARGET_HOST_ASYNC=1" ;;
    host-llvm) echo "LD_LIBRARY_PATH=$llvm/lib" ;;
    host-c19) echo "LD_LIBRARY_PATH=$build/lib:$work/libomp-19" ;;
    host-llvm19) echo "LD_LIBRARY_PATH=$llvm19_lib" ;;
    cuda-fake) echo "LD_LIBRARY_PATH=$build/fake-cuda:$build/lib:$llvm/lib REGION_CHECK=0" ;;
  esac
}

# One run under callgrind; libomp's threads sleep at once (KMP_BLOCKTIME=0)
# so that their spinning, which depends on timing, stays out of the counts.
callgrind_run() {  # callgrind_run TARGET BIN CASE COUNT OUTFILE
  local t=$1 bin=$2 kase=$3 count=$4 out=$5
  # shellcheck disable=SC2046
  env $(environment "$t") OMP_TARGET_OFFLOAD=mandatory OMP_NUM_THREADS=1 KMP_BLOCKTIME=0 \
    valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" "$kase" "$count" \
    >"$out.log" 2>&1 || true
  grep -q "region_instructions $kase $count: ok" "$out.log"
}

# Driver calls per region: the plugin's statistics lines are
# "omptarget cuda api stats: NAME CALLS TOTAL_US MEAN_US" (see src/plugins/cuda/cuda_api_stats.h).
driver_calls() {  # driver_calls BIN CASE
  local bin=$1 kase=$2 a b
  # shellcheck disable=SC2046
  a=$(env $(environment cuda-fake) OMPTARGET_CUDA_API_STATS=1 OMP_TARGET_OFFLOAD=mandatory "$bin" "$kase" "$count_a" 2>&1)
  # shellcheck disable=SC2046
  b=$(env $(environment cuda-fake) OMPTARGET_CUDA_API_STATS=1 OMP_TARGET_OFFLOAD=mandatory "$bin" "$kase" "$count_b" 2>&1)
  python3 - "$kase" "$((count_b - count_a))" <<EOF
import re, sys
kase, ops = sys.argv[1], int(sys.argv[2])
def counts(text):
    out = {}
    for m in re.finditer(r'omptarget cuda api stats: (cu\S+) +(\d+)', text):
        out[m.group(1)] = out.get(m.group(1), 0) + int(m.group(2))
    return out
a, b = counts('''$a'''), counts('''$b''')
total = 0
for name in sorted(set(a) | set(b)):
    d = (b.get(name, 0) - a.get(name, 0)) / ops
    if d:
        total += d
        print(f"target=cuda-fake case={kase} driver_call={name} per_region={d:g}")
print(f"target=cuda-fake case={kase} driver_call=TOTAL per_region={total:g}")
EOF
}

results=$work/results.txt
: >"$results"
status=0
for t in $targets; do
  if [ "$t" = cuda-fake ] && [ ! -f "$build/fake-cuda/libcuda.so.1" ]; then
    echo "info: no fake CUDA driver in $build/fake-cuda: cuda-fake skipped"; continue
  fi
  if [[ $t == host-c19 || $t == host-llvm19 ]] && { [ -z "$clang19" ] || [ ! -f "$llvm19_lib/libomptarget.so.19.1" ]; }; then
    echo "info: no clang-19 or no LLVM 19 runtime in $llvm19_lib: $t skipped"; continue
  fi
  bin=$(compile "$t")
  for kase in $cases; do
    if ! callgrind_run "$t" "$bin" "$kase" "$count_a" "$work/cg.$t.$kase.a" ||
       ! callgrind_run "$t" "$bin" "$kase" "$count_b" "$work/cg.$t.$kase.b"; then
      # A wrong result is reported, never counted (LLVM 14's host runtime
      # gets the chain wrong under callgrind, whose threads run one at a
      # time: its taskwait returns before the regions are done).
      why=$(grep -h "^region_instructions [a-z]*: " "$work"/cg."$t"."$kase".*.log | head -1)
      echo "target=$t case=$kase error=${why:-failed under callgrind (see $work/cg.$t.$kase.*.log)}" | tee -a "$results"
      status=1
      continue
    fi
    python3 "$here/callgrind_objects.py" "$work/cg.$t.$kase.a" "$count_a" "$work/cg.$t.$kase.b" "$count_b" |
      sed "s/^object=\(.*\) per_op=/target=$t case=$kase object=\1 per_region=/" | tee -a "$results"
    if [ "$t" = cuda-fake ]; then driver_calls "$bin" "$kase" | tee -a "$results"; fi
  done
done

python3 - "$results" <<'EOF'
import re, sys
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r'target=(\S+) case=(\S+) object=(\S+) per_region=(-?\d+)', line)
    if not m:
        continue
    t, c, o, v = m.group(1), m.group(2), m.group(3), int(m.group(4))
    r = rows.setdefault((t, c), {'ours': 0, 'plugin': 0, 'core': 0, 'driver': 0, 'libomp': 0, 'TOTAL': 0})
    if o == 'TOTAL':
        r['TOTAL'] = v
    elif o.startswith('libomptarget.rtl.'):
        r['plugin'] += v
    elif o.startswith('libomptarget.so'):
        r['core'] += v
    elif o.startswith('libcuda'):
        r['driver'] += v
    elif o.startswith('libomp.so') or o.startswith('libomp-'):
        r['libomp'] += v
print()
print(f"{'target':<11} {'case':<6} {'core':>8} {'plugin':>8} {'core+plugin':>12} {'driver':>8} {'libomp':>8} {'total':>8}")
for (t, c), r in rows.items():
    print(f"{t:<11} {c:<6} {r['core']:>8} {r['plugin']:>8} {r['core'] + r['plugin']:>12} {r['driver']:>8} {r['libomp']:>8} {r['TOTAL']:>8}")
print("instructions per region (callgrind self cost; core = libomptarget.so, plugin = libomptarget.rtl.*,")
print("driver = libcuda (the fake driver for cuda-fake), total = every object incl. libc and the program)")
EOF
exit $status

#!/usr/bin/env bash
# Side-by-side host-offloading benchmark: LLVM 14's libomptarget vs ours,
# ours once more with the asynchronous host device (OMPTARGET_HOST_ASYNC=1,
# column "ours-async"), and, where clang-19 and LLVM 19's runtime are here,
# the same program built by clang 19 on ours ("ours-c19", with libomp 19 as
# a clang 19 user has it) and on LLVM 19's runtime ("llvm19").
#
# Usage: bench/run_host_bench.sh [BUILD_DIR]
#
#   BUILD_DIR   the CMake build directory (default: <repo>/build). The
#               benchmark binary and raw outputs go to BUILD_DIR/bench/;
#               "ours" is BUILD_DIR/lib unless OMPTARGET_BENCH_OURS_LIB says
#               otherwise.
#
# Environment (all optional):
#   OMPTARGET_BENCH_OURS_LIB  directory holding our libomptarget.so and
#                             libomptarget.rtl.x86_64.so  (default BUILD_DIR/lib)
#   OMPTARGET_BENCH_LLVM_LIB  LLVM 14's lib directory (default $LLVM14_DIR/lib)
#   LLVM14_DIR                LLVM 14 install (default /usr/lib/llvm-14)
#   OMPTARGET_BENCH_CLANG     compiler (default $LLVM14_DIR/bin/clang)
#   BENCH_ROUNDS              interleaved rounds, LLVM, ours, ours-async (default 3)
#   BENCH_ASYNC               0 skips the ours-async runs (default 1)
#   BENCH_C19                 0 skips the clang 19 sides (default 1)
#   OMPTARGET_BENCH_CLANG19   clang 19 (default: clang-19 on PATH)
#   OMPTARGET_BENCH_LLVM19_LIB  LLVM 19's lib directory (libomptarget.so.19.1,
#                             libomp.so.5, clang/19/include; default
#                             BUILD_DIR/llvm19-runtime/usr/lib/llvm-19/lib,
#                             where scripts/fetch-llvm19-runtime.sh puts it)
#   BENCH_OMP_NUM_THREADS     OMP_NUM_THREADS of the runs (default 1, see
#                             docs/benchmarks.md)
#   BENCH_BATCHES, BENCH_BATCH_MS, BENCH_CASES   passed to the program
#
# Prints a table: per-op time of each case on both runtimes (best of the
# rounds' medians), the ratio LLVM-14/ours (>1 means ours is faster) and
# whether the case's goal is met. It never fails on a figure: the exit status
# is non-zero only when something could not be built or run, or a run was
# found on the wrong libraries.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$script_dir")
build_dir=${1:-$repo_dir/build}
mkdir -p "$build_dir"
build_dir=$(cd "$build_dir" && pwd)

llvm14_dir=${LLVM14_DIR:-/usr/lib/llvm-14}
llvm_lib=${OMPTARGET_BENCH_LLVM_LIB:-$llvm14_dir/lib}
ours_lib=${OMPTARGET_BENCH_OURS_LIB:-$build_dir/lib}
clang=${OMPTARGET_BENCH_CLANG:-$llvm14_dir/bin/clang}
rounds=${BENCH_ROUNDS:-3}
bench_async=${BENCH_ASYNC:-1}
threads=${BENCH_OMP_NUM_THREADS:-1}
bench_c19=${BENCH_C19:-1}
clang19=${OMPTARGET_BENCH_CLANG19:-$(command -v clang-19 || true)}
llvm19_lib=${OMPTARGET_BENCH_LLVM19_LIB:-$build_dir/llvm19-runtime/usr/lib/llvm-19/lib}

out_dir=$build_dir/bench
raw_dir=$out_dir/last-run
bin=$out_dir/offload_bench
bin_c19=$out_dir/offload_bench_c19
mkdir -p "$out_dir"
rm -rf "$raw_dir"
mkdir -p "$raw_dir"

die() { echo "run_host_bench: error: $*" >&2; exit 1; }

[[ -f $llvm_lib/libomptarget.so ]] || die "LLVM 14 runtime not found: $llvm_lib/libomptarget.so"
[[ -x $clang ]] || die "compiler not found: $clang"

have_ours=1
if [[ ! -f $ours_lib/libomptarget.so ]]; then
  have_ours=0
  echo "run_host_bench: NOTE: $ours_lib/libomptarget.so does not exist (our runtime not built?)."
  echo "run_host_bench: NOTE: running LLVM 14 only; build the runtime or set OMPTARGET_BENCH_OURS_LIB."
elif [[ ! -f $ours_lib/libomptarget.rtl.x86_64.so ]]; then
  echo "run_host_bench: WARNING: $ours_lib/libomptarget.rtl.x86_64.so missing; our core may find no host device."
fi

echo "run_host_bench: compiling $bin"
"$clang" -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -O2 -Wno-openmp-mapping \
  "$script_dir/offload_bench.c" -o "$bin" -ldl

have_c19=0
if [[ $bench_c19 == 0 ]]; then
  echo "run_host_bench: BENCH_C19=0: no clang 19 sides"
elif [[ -z $clang19 || ! -x $clang19 ]]; then
  echo "run_host_bench: NOTE: no clang-19 (OMPTARGET_BENCH_CLANG19): no clang 19 sides"
elif [[ ! -f $llvm19_lib/libomptarget.so.19.1 || ! -f $llvm19_lib/libomp.so.5 ]]; then
  echo "run_host_bench: NOTE: no LLVM 19 runtime in $llvm19_lib (scripts/fetch-llvm19-runtime.sh): no clang 19 sides"
else
  have_c19=1
  echo "run_host_bench: compiling $bin_c19 (clang 19)"
  "$clang19" -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -O2 -Wno-openmp-mapping \
    -I"$llvm19_lib/clang/19/include" -L"$llvm19_lib" \
    "$script_dir/offload_bench.c" -o "$bin_c19" -ldl
  # libomp 19 alone, for ours-c19 (LLVM 19's directory would also bring its
  # libomptarget.so.19.1).
  mkdir -p "$out_dir/libomp-19"
  ln -sf "$llvm19_lib/libomp.so.5" "$out_dir/libomp-19/libomp.so.5"
fi

# A clean environment: no runtime knobs from the caller, a fixed thread count.
while IFS= read -r var; do
  unset "$var"
done < <(compgen -e | grep -E '^(LIBOMPTARGET_|OMPTARGET_|OMP_|KMP_)' || true)
export OMP_NUM_THREADS=$threads

# Runs a program on one side's libraries, checks which ones it ran on:
# libdir's core, and its host plugin where libdir has one (LLVM 19's is
# built into its core); with openmp_lib, that libomp.so.5.
# Extra arguments are VAR=VALUE settings for that side's runs.
run_side() { # side program libdir search_path openmp_lib|- outfile [VAR=VALUE...]
  local side=$1 program=$2 libdir=$3 search=$4 openmp=$5 out=$6
  shift 6
  if ! env "$@" LD_LIBRARY_PATH="$search" "$program" >"$out" 2>&1; then
    cat "$out" >&2
    # The asynchronous mode is measured for information: a failed run (the
    # program checks its results) is reported, and its figures are dropped.
    if [[ $side == ours-async ]]; then
      echo "run_host_bench: WARNING: ours-async run failed (output above); its figures are not used" >&2
      mv "$out" "$out.failed"
      return 0
    fi
    die "$side run failed (output above)"
  fi
  # Compare resolved files, so a directory of symlinks (e.g. a core of one
  # side with the plugin of the other) is checked for what it points to.
  local want_core core plugin lib
  want_core=$(realpath "$libdir/libomptarget.so")
  core=$(sed -n 's/^lib kind=core path=//p' "$out" | head -1)
  plugin=$(sed -n 's/^lib kind=plugin path=\(.*libomptarget\.rtl\.x86_64\.so\)$/\1/p' "$out" | head -1)
  [[ -n $core ]] || die "$side run: no libomptarget.so in its memory map (see $out)"
  [[ $(realpath "$core") == "$want_core" ]] ||
    die "MISCONFIGURED $side run: core is $core, expected $want_core"
  if [[ -e $libdir/libomptarget.rtl.x86_64.so ]]; then
    [[ -n $plugin ]] || die "$side run: no libomptarget.rtl.x86_64.so in its memory map (see $out)"
    [[ $(realpath "$plugin") == $(realpath "$libdir/libomptarget.rtl.x86_64.so") ]] ||
      die "MISCONFIGURED $side run: host plugin is $plugin, expected $libdir/libomptarget.rtl.x86_64.so"
  else
    [[ -z $plugin ]] || die "MISCONFIGURED $side run: host plugin $plugin loaded; $libdir has none"
    plugin="(built into the core)"
  fi
  if [[ $openmp != - ]]; then
    lib=$(sed -n 's/^lib kind=openmp path=//p' "$out" | head -1)
    [[ -n $lib && $(realpath "$lib") == $(realpath "$openmp") ]] ||
      die "MISCONFIGURED $side run: libomp is ${lib:-none}, expected $openmp"
  fi
  if [[ $round == 1 ]]; then
    echo "  $side: core=$core"
    echo "  $side: plugin=$plugin"
    grep '^info devices=' "$out" | sed "s/^/  $side: /"
  fi
}

echo "run_host_bench: OMP_NUM_THREADS=$OMP_NUM_THREADS, $rounds interleaved round(s), raw output in $raw_dir"
for ((round = 1; round <= rounds; ++round)); do
  echo "run_host_bench: round $round/$rounds"
  run_side llvm14 "$bin" "$llvm_lib" "$llvm_lib" - "$raw_dir/llvm14.$round.txt"
  if ((have_ours)); then
    run_side ours "$bin" "$ours_lib" "$ours_lib" - "$raw_dir/ours.$round.txt"
    if [[ $bench_async != 0 ]]; then
      run_side ours-async "$bin" "$ours_lib" "$ours_lib" - "$raw_dir/ours-async.$round.txt" \
        OMPTARGET_HOST_ASYNC=1
    fi
  fi
  if ((have_c19)); then
    if ((have_ours)); then
      run_side ours-c19 "$bin_c19" "$ours_lib" "$ours_lib:$out_dir/libomp-19" \
        "$llvm19_lib/libomp.so.5" "$raw_dir/ours-c19.$round.txt"
    fi
    run_side llvm19 "$bin_c19" "$llvm19_lib" "$llvm19_lib" "$llvm19_lib/libomp.so.5" \
      "$raw_dir/llvm19.$round.txt"
  fi
done

python3 - "$raw_dir" "$rounds" "$have_ours" <<'EOF'
import os, re, statistics, sys

raw_dir, rounds, have_ours = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
# The clang 19 sides' goals (informational columns): ours-c19 within 5% of
# ours (the clang 14 binary), and LLVM 19's time at least 2.5x ours-c19's.
C19_WITHIN = 1.05
C19_GOAL = 2.5
# Goal: LLVM-14 time / our time must reach this factor. None: informational.
GOALS = {
    "a_empty_target": 2.0,
    "b_vector_add_256": 2.0,
    "c_setup_enter_10k": None,  # one-shot, single sample: too noisy for a goal
    "c_enter_mapped_10k": 3.0,
    "c_exit_mapped_10k": 3.0,
    "c_enter_exit_mapped_10k": 3.0,
    "c_fresh_map_unmap_10k": 3.0,
    # Informational (issue 3): the asynchronous pipeline's cases.
    "d_three_maps_kernel_256": None,
    "e_nowait64_mapped_1mib": None,
    "e_nowait64_fresh_1mib": None,
    # Informational: a dependent chain of nowait teams regions.
    "f_nowait_chain_teams": None,
}
# Cases whose op is one target region of a concurrent batch: also shown as
# regions per second.
PER_REGION = {"e_nowait64_mapped_1mib", "e_nowait64_fresh_1mib", "f_nowait_chain_teams"}

errors = {}  # side -> cases whose run printed `case=NAME error=...` (a wrong result)

def load(side):
    per_case = {}
    order = []
    errors[side] = set()
    for r in range(1, rounds + 1):
        path = os.path.join(raw_dir, f"{side}.{r}.txt")
        if not os.path.exists(path):
            continue
        for line in open(path):
            e = re.match(r"case=(\S+) error=", line)
            if e:
                errors[side].add(e.group(1))
                if e.group(1) not in order:
                    order.append(e.group(1))
                continue
            m = re.match(r"case=(\S+) ns_per_op=([0-9.]+)", line)
            if m:
                if m.group(1) not in per_case:
                    order.append(m.group(1))
                per_case.setdefault(m.group(1), []).append(float(m.group(2)))
    return per_case, order

llvm, order = load("llvm14")
# Cases another side ran that LLVM 14's did not print (none so far) go last.
ours, _ = load("ours") if have_ours else ({}, [])
ours_async, _ = load("ours-async") if have_ours else ({}, [])
have_async = bool(ours_async)
ours_c19, _ = load("ours-c19")
llvm19, _ = load("llvm19")
have_c19 = bool(llvm19)

for extra in (ours, ours_c19):
    for case in extra:
        if case not in order:
            order.append(case)

def fmt_ns(v, side=None, case=None):
    if v is None and side is not None and case in errors.get(side, ()):
        return "WRONG"
    return "n/a" if v is None else (f"{v:.1f}" if v < 10000 else f"{v:.0f}")

def spread(vals):
    return "" if len(vals) < 2 else f"{100.0 * (max(vals) - min(vals)) / min(vals):.0f}%"

rows = []
for case in order:
    l = min(llvm[case]) if case in llvm else None
    o = min(ours[case]) if case in ours else None
    a = min(ours_async[case]) if case in ours_async else None
    goal = GOALS.get(case)
    ratio = (l / o) if l and o else None
    aratio = (l / a) if l and a else None
    met = "n/a" if ratio is None or goal is None else ("yes" if ratio >= goal else "no")
    row = [case, fmt_ns(l, "llvm14", case), spread(llvm.get(case, [])),
           fmt_ns(o, "ours", case), spread(ours.get(case, [])),
           "n/a" if ratio is None else f"{ratio:.2f}x"]
    if have_async:
        row += [fmt_ns(a, "ours-async", case), spread(ours_async.get(case, [])),
                "n/a" if aratio is None else f"{aratio:.2f}x"]
    row += ["info" if goal is None else f"{goal:.0f}x", met]
    if have_c19:
        c = min(ours_c19[case]) if case in ours_c19 else None
        n = min(llvm19[case]) if case in llvm19 else None
        c_vs_c14 = (c / o) if c and o else None
        n_ratio = (n / c) if c and n else None
        c_met = ("n/a" if c_vs_c14 is None or n_ratio is None else
                 "yes" if c_vs_c14 <= C19_WITHIN and n_ratio >= C19_GOAL else "no")
        row += [fmt_ns(c, "ours-c19", case), spread(ours_c19.get(case, [])),
                "n/a" if c_vs_c14 is None else f"{c_vs_c14:.2f}",
                fmt_ns(n, "llvm19", case), spread(llvm19.get(case, [])),
                "n/a" if n_ratio is None else f"{n_ratio:.2f}x", c_met]
        print(f"summary_c19 case={case} ours_ns={fmt_ns(o)} ours_c19_ns={fmt_ns(c)} "
              f"llvm19_ns={fmt_ns(n)} "
              f"c19_over_c14={'n/a' if c_vs_c14 is None else f'{c_vs_c14:.3f}'} "
              f"llvm19_over_ours_c19={'n/a' if n_ratio is None else f'{n_ratio:.3f}'} "
              f"met={c_met}")
    rows.append(tuple(row))
    print(f"summary case={case} llvm14_ns={fmt_ns(l, 'llvm14', case)} ours_ns={'n/a' if o is None else f'{o:.1f}'} "
          f"ours_async_ns={'n/a' if a is None else f'{a:.1f}'} "
          f"ratio={'n/a' if ratio is None else f'{ratio:.3f}'} "
          f"ratio_async={'n/a' if aratio is None else f'{aratio:.3f}'} "
          f"goal={'none' if goal is None else goal} met={met}")
    if case in PER_REGION:
        rate = lambda v: "n/a" if v is None else f"{1e9 / v:.0f}"
        print(f"summary case={case} regions_per_s llvm14={rate(l)} ours={rate(o)} "
              f"ours_async={rate(a)}"
              + (f" ours_c19={rate(c)} llvm19={rate(n)}" if have_c19 else ""))

head = ["case", "LLVM-14 ns/op", "spread", "ours ns/op", "spread", "LLVM-14/ours"]
if have_async:
    head += ["ours-async ns/op", "spread", "LLVM-14/async"]
head += ["goal", "met"]
if have_c19:
    head += ["ours-c19 ns/op", "spread", "c19/c14", "LLVM-19 ns/op", "spread", "LLVM-19/c19",
             "c19 met"]
head = tuple(head)
widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
print()
print("  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(head, widths))))
print("  ".join("-" * w for w in widths))
for r in rows:
    print("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
print()
print(f"ns/op: best over {rounds} round(s) of each run's median of batches; spread: (max-min)/min")
print("ours-async: our runtime with OMPTARGET_HOST_ASYNC=1 (asynchronous host device).")
if have_c19:
    print("ours-c19: the program built by clang 19, on ours with libomp 19; llvm19: the same binary")
    print(f"on LLVM 19's runtime. c19/c14 = ours-c19 / ours (goal <= {C19_WITHIN}); LLVM-19/c19 =")
    print(f"llvm19 / ours-c19 (goal >= {C19_GOAL}x); c19 met: both.")
print("of the rounds' medians. c_enter_exit_mapped_10k and c_fresh_map_unmap_10k count one")
print("enter data + one exit data as one op. Ratio > 1: ours is faster.")
if not have_ours:
    print("Our runtime was not found: only LLVM 14 was measured.")
EOF

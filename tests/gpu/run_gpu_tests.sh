#!/bin/bash
# GPU test runner: the offload test programs (tests/offload, and the GPU-only
# programs of tests/gpu/faults: device faults, and tests/gpu/cuda: programs
# that call the CUDA driver themselves, e.g. on an interop object's stream)
# built for NVIDIA
# GPUs (sm_90, through tools/omptarget-sm90-path) and run on a machine with
# one or more GPUs, with our core + our CUDA plugin, or with LLVM 14's core +
# our CUDA plugin.
#
#   run_gpu_tests.sh build [BUNDLE]
#       Here (clang 14, CUDA toolkit, a built tree in build/): compiles every
#       GPU-appropriate test into BUNDLE (default build/gpu-bundle), with our
#       libraries, LLVM 14's libomp.so.5 and libomptarget.so, FileCheck and
#       `not` (plus the libraries they need), packed as BUNDLE/bundle.tar.gz.
#       Each test is built twice or three times: with LLVM 14's device runtime
#       (as clang links it by default; bin/llvmrtl), and with ours
#       (build/lib/libomptarget-devicertl-nvptx.bc, at the test's -O0 in
#       bin/devrtl and at -O2 in bin/devrtl-O2, where LLVM's OpenMPOpt
#       rewrites kernels around the runtime's calls).
#   run_gpu_tests.sh run [BUNDLE] [CONFIG...|both|all]
#       On the GPU machine: unpacks the bundle to a temporary directory, runs
#       every test and prints `N passed, M failed` per configuration:
#         ours            our core + our CUDA plugin, LLVM 14's device runtime
#         llvm            LLVM 14's core + our CUDA plugin, LLVM 14's device runtime
#         ours-devrtl     our core, our device runtime (-O0)
#         ours-devrtl-O2  our core, our device runtime (-O2)
#         llvm-devrtl     LLVM 14's core + our plugin, our device runtime (-O0)
#       both = ours llvm; all (the default) = all five. Failing tests'
#       output goes to the log ($OUT/gpu-tests-<config>.log when $OUT is set,
#       else BUNDLE/gpu-tests-<config>.log).
#
# Which tests run: a test is skipped when its source says `// GPU: skip`
# (with LLVM 14's device runtime only, when it says `// GPU: devrtl-only`), when
# it REQUIRES a feature the GPU run cannot have (omptarget-plugin: our host
# plugin; host-async; nvptx-compile: it builds its own nvptx binary), or when
# it is on HOST_ONLY below (it pins the host plugin's 4 devices or its
# environment variables). A test that uses device(1)/device(2)... is marked
# multi-device (a grep heuristic: literal device numbers > 0, loops over a
# fixed number of devices) and runs only when the machine has 2 GPUs or more (nvidia-h200-x2).
# GPU_TESTS="name ..." (build): only the named tests go into the bundle, for a
# quick re-run of a few of them next to another bundle.
# With LLVM 14's core, tests that REQUIRE omptarget-core are skipped and
# FileCheck runs with the LLVM prefix instead of OURS (as in lit.cfg.py).
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
LLVM=${LLVM14_DIR:-/usr/lib/llvm-14}

# Tests that pin the host plugin's behaviour (device count, its variables),
# and the device-listing tools' tests, which check the host plugin's four
# devices (the GPU run lists its devices with build/bin/omptarget-info).
HOST_ONLY="hello api_devices err_mandatory_no_device err_no_plugin_for_image launch_offload_mandatory"
HOST_ONLY+=" device_info_tool omptarget_info_tool"

die() { echo "run_gpu_tests.sh: $*" >&2; exit 1; }

# ---------------------------------------------------------------- build ----
# Substitutes a run segment's lit placeholders by the runner's variables.
run_segment() {
  local seg=$1
  seg=${seg//%fcheck/\"\$FILECHECK\" \"\$SRC\" --allow-unused-prefixes --check-prefixes=CHECK,\$PREFIX}
  seg=${seg//%run/env LD_LIBRARY_PATH=\"\$LIBS\"}
  seg=${seg//%check_profile/python3 \"\$TOOLS/check_profile.py\"}
  seg=${seg//%omptarget_profile/\"\$TOOLS/omptarget-profile\"}
  seg=${seg//%nvtx_injection/\"\$TOOLS/libomptarget_nvtx_injection.so\"}
  seg=${seg//%t/\"\$BIN\"}
  seg=${seg//%s/\"\$SRC\"}
  case $seg in not\ *) seg="\"\$NOT\" ${seg#not }" ;; esac
  # `not` after an env assignment (`%run env VAR=x not --crash %t`).
  seg=${seg// not --crash / \"\$NOT\" --crash }
  printf '%s\n' "$seg"
}

compile_segment() {  # SEGMENT SOURCE BINARY EXTRA_FLAGS -> the command to run here
  local seg=$1 src=$2 bin=$3 extra=$4
  local nv="$extra -fopenmp -fopenmp-targets=nvptx64-nvidia-cuda -Xopenmp-target -march=sm_80 --cuda-path=$SM90PATH"
  nv+=" -gline-tables-only -Wno-openmp-mapping -Wno-unknown-cuda-version -I$ROOT/include"
  seg=${seg//%clangxx-offload/$LLVM/bin/clang++ $nv}
  seg=${seg//%clang-offload/$LLVM/bin/clang $nv}
  seg=${seg//%clang-plain/$LLVM/bin/clang -fopenmp}
  seg=${seg//%t/$bin}
  seg=${seg//%s/$src}
  seg=${seg//%S/$(dirname "$src")}
  seg=${seg//%libdir/$ROOT/build/lib}
  printf '%s\n' "$seg"
}

build() {
  local out=${1:-$ROOT/build/gpu-bundle}
  local lib=$ROOT/build/lib
  [ -f "$lib/libomptarget.so" ] && [ -f "$lib/libomptarget.rtl.cuda.so" ] ||
    die "build the core and the CUDA plugin first (ninja -C build omptarget omptarget.rtl.cuda)"
  [ -x "$LLVM/bin/clang" ] || die "clang 14 not found in $LLVM"
  local devrtl=$lib/libomptarget-devicertl-nvptx.bc
  [ -f "$devrtl" ] || die "build the device runtime first (ninja -C build omptarget-devicertl)"
  local stage=$out/stage
  rm -rf "$out"; mkdir -p "$stage"/{bin/llvmrtl,bin/devrtl,bin/devrtl-O2,src,cmds,lib/ours,lib/llvm,tools/lib}
  SM90PATH=$out/cuda-sm90
  "$ROOT/tools/omptarget-sm90-path" "$SM90PATH" >/dev/null || die "cannot make the sm_90 CUDA path"

  cp "$lib/libomptarget.so" "$lib/libomptarget.rtl.cuda.so" "$LLVM/lib/libomp.so.5" "$stage/lib/ours/"
  cp "$LLVM/lib/libomptarget.so" "$lib/libomptarget.rtl.cuda.so" "$LLVM/lib/libomp.so.5" "$stage/lib/llvm/"
  # FileCheck and `not` need libz3 (not in a CUDA image):
  # each runs through a wrapper that adds tools/lib to its library path.
  for tool in FileCheck not; do
    cp "$LLVM/bin/$tool" "$stage/tools/$tool.bin"
    printf '#!/bin/sh\nd=$(dirname "$0")\nLD_LIBRARY_PATH="$d/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$d/%s.bin" "$@"\n' \
      "$tool" > "$stage/tools/$tool"
    chmod +x "$stage/tools/$tool"
  done
  # The device listing (omptarget-info), printed by `run` before the tests.
  [ -x "$ROOT/build/bin/omptarget-info" ] && cp "$ROOT/build/bin/omptarget-info" "$stage/tools/"
  # The profile tests' helpers: the profile checker, the profile tool (its
  # summary needs no matplotlib) and the stand-in NVTX tool.
  cp "$ROOT/tests/offload/inputs/check_profile.py" "$ROOT/tools/omptarget-profile" "$stage/tools/"
  cp -r "$ROOT/tools/omptarget_profile" "$stage/tools/"
  rm -rf "$stage/tools/omptarget_profile/__pycache__"
  local nvtx_tool
  nvtx_tool=$(find "$ROOT/build" -name libomptarget_nvtx_injection.so -print -quit)
  [ -n "$nvtx_tool" ] && cp "$nvtx_tool" "$stage/tools/"
  for so in $(ldd "$LLVM/bin/FileCheck" "$LLVM/bin/not" | awk '/=>/ {print $3}' | sort -u); do
    case $(basename "$so") in libz3.so*) cp -L "$so" "$stage/tools/lib/" ;; esac
  done

  local manifest=$stage/manifest built=0 broken=0 skipped=0
  : > "$manifest"
  # tests/gpu/faults and tests/gpu/cuda: GPU-only programs (device traps,
  # device memory exhausted; raw CUDA work through interop objects) that the
  # host suite cannot run.
  for src in "$ROOT"/tests/offload/*.c "$ROOT"/tests/offload/*.cpp "$ROOT"/tests/gpu/faults/*.c \
             "$ROOT"/tests/gpu/cuda/*.c; do
    local file name requires unsupported
    file=$(basename "$src"); name=${file%.*}
    # GPU_TESTS="name ...": build only these (a small bundle for a re-run).
    if [ -n "${GPU_TESTS:-}" ] && [[ " $GPU_TESTS " != *" $name "* ]]; then continue; fi
    requires=$(sed -n 's|^ *// *REQUIRES: *||p' "$src" | tr ',\n' '  ')
    unsupported=$(sed -n 's|^ *// *UNSUPPORTED: *||p' "$src" | tr ',\n' '  ')
    local why=""
    grep -q '// *GPU: *skip' "$src" && why="marked GPU: skip"
    case " $HOST_ONLY " in *" $name "*) why="host-only test" ;; esac
    for f in $requires; do
      case $f in omptarget-plugin|host-async|nvptx-compile) why="requires $f" ;; esac
    done
    if [ -n "$why" ]; then
      echo "skip $name ($why)"; skipped=$((skipped + 1)); continue
    fi
    cp "$src" "$stage/src/$file"
    # `GPU: devrtl-only`: LLVM 14's device runtime cannot build it.
    local devrtl_only=0
    grep -q '// *GPU: *devrtl-only' "$src" && devrtl_only=1
    local multi=0
    # Heuristic: literal device numbers > 0, or loops over a fixed number of
    # devices (a loop up to omp_get_num_devices() runs on any machine, and
    # other loops up to 3 or 4 are not about devices).
    grep -Eq 'device\([1-9]\)|OMP_DEFAULT_DEVICE=[1-9]|omp_target_[a-z_]*\([^;]*, *[1-9]\)|\<([Dd]|[Dd]ev[A-Za-z]*) = [01]; ([Dd]|[Dd]ev[A-Za-z]*) < [2-9]\>|[Dd]ev = [1-9]' "$src" && multi=1
    # RUN lines: %clang segments are compiled now, the rest runs on the GPU.
    local cmds=$stage/cmds/$name.sh ok=1
    : > "$cmds"
    while IFS= read -r line; do
      local rest=$line seg
      while [ -n "$rest" ]; do
        case $rest in
          *" && "*) seg=${rest%% && *}; rest=${rest#* && } ;;
          *) seg=$rest; rest="" ;;
        esac
        case $seg in
          %clang*)
            local variant flags variants="llvmrtl devrtl devrtl-O2"
            [ $devrtl_only = 1 ] && variants="devrtl devrtl-O2"
            for variant in $variants; do
              case $variant in
                llvmrtl) flags="" ;;
                devrtl) flags="--libomptarget-nvptx-bc-path=$devrtl" ;;
                devrtl-O2) flags="-O2 --libomptarget-nvptx-bc-path=$devrtl" ;;
              esac
              if ! eval "$(compile_segment "$seg" "$src" "$stage/bin/$variant/$name" "$flags")" \
                  >> "$out/$name.build.log" 2>&1; then
                echo "(variant $variant)" >> "$out/$name.build.log"; ok=0
              fi
            done ;;
          *) run_segment "$seg" >> "$cmds" ;;
        esac
      done
    done < <(sed -n 's|^ *// *RUN: *||p' "$src")
    if [ $ok = 1 ]; then
      built=$((built + 1)); rm -f "$out/$name.build.log"
      echo "$name $file $multi$([ $devrtl_only = 1 ] && echo d) ${requires// /,}: ${unsupported// /,}" >> "$manifest"
    else
      broken=$((broken + 1)); echo "BUILD FAILED $name (see $out/$name.build.log)"
      echo "$name $file build-failed" >> "$manifest"
    fi
  done
  tar -C "$stage" -czf "$out/bundle.tar.gz" . || die "cannot pack the bundle"
  rm -rf "$stage" "$SM90PATH"
  echo "bundle: $out/bundle.tar.gz ($(du -h "$out/bundle.tar.gz" | cut -f1)): $built test(s) built, $broken failed to build, $skipped skipped"
  [ $broken = 0 ]
}

# ------------------------------------------------------------------ run ----
run_core() {  # DIR CONFIG LOG
  local dir=$1 config=$2 log=$3 prefix libs core bins
  case $config in
    ours|ours-devrtl|ours-devrtl-O2) core=ours; prefix=OURS; libs=$dir/lib/ours ;;
    llvm|llvm-devrtl) core=llvm; prefix=LLVM; libs=$dir/lib/llvm ;;
    *) die "unknown configuration '$config' (ours, llvm, ours-devrtl, ours-devrtl-O2, llvm-devrtl)" ;;
  esac
  case $config in
    *-devrtl) bins=$dir/bin/devrtl ;;
    *-devrtl-O2) bins=$dir/bin/devrtl-O2 ;;
    *) bins=$dir/bin/llvmrtl ;;
  esac
  local gpus
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  local pass=0 fail=0 skip=0 failed=""
  : > "$log"
  echo "== $config: core $core, binaries $(basename "$bins") ($gpus GPU(s)) =="
  while read -r name file multi features; do
    if [ "$multi" = build-failed ]; then
      fail=$((fail + 1)); failed+=" $name(build)"; continue
    fi
    local requires=${features%%:*} unsupported=${features#*: }
    if [ "$core" = llvm ] && [[ ",$requires," == *",omptarget-core,"* ]]; then skip=$((skip + 1)); continue; fi
    # LLVM 14's core with our plugin is the host suite's llvm-core-our-plugin.
    if [ "$core" = llvm ] && [[ ",$unsupported," == *",interop,"* ||
                                ",$unsupported," == *",runtime-llvm-core-our-plugin,"* ]]; then
      skip=$((skip + 1)); continue
    fi
    if [ "$multi" = 1d ] || [ "$multi" = 0d ]; then
      # Built with our device runtime only.
      [ "$bins" = "$dir/bin/llvmrtl" ] && { skip=$((skip + 1)); continue; }
      multi=${multi%d}
    fi
    if [ "$multi" = 1 ] && [ "${gpus:-0}" -lt 2 ]; then skip=$((skip + 1)); continue; fi
    local out rc
    # Like lit: the caller's LIBOMPTARGET_*/OMP_*/OMPTARGET_* stay out, and
    # each RUN line runs with pipefail.
    out=$(cd "$bins" && env BIN="$bins/$name" SRC="$dir/src/$file" PREFIX=$prefix \
            LIBS="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
            FILECHECK="$dir/tools/FileCheck" NOT="$dir/tools/not" TOOLS="$dir/tools" \
            timeout 300 bash -o pipefail -c \
              'for v in $(compgen -e); do case $v in LIBOMPTARGET_*|OMP_*|OMPTARGET_*) unset "$v";; esac; done
               set -e; . "$0"' "$dir/cmds/$name.sh" 2>&1)
    rc=$?
    if [ $rc = 0 ]; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1)); failed+=" $name"
      { echo "---- FAIL $name ($config, exit $rc)"; echo "$out" | tail -n 60; } >> "$log"
    fi
  done < "$dir/manifest"
  echo "$config: $pass passed, $fail failed, $skip skipped${failed:+ (failed:$failed)}"
  [ $fail = 0 ]
}

run() {
  local bundle=${1:-$ROOT/build/gpu-bundle}
  shift
  local which=${*:-all}
  [ -f "$bundle/bundle.tar.gz" ] || die "no bundle at $bundle (run '$0 build' first)"
  local dir
  dir=$(mktemp -d /tmp/omptarget-gpu-tests.XXXXXX)
  tar -C "$dir" -xzf "$bundle/bundle.tar.gz" || die "cannot unpack $bundle/bundle.tar.gz"
  local logdir=${OUT:-$bundle} status=0
  nvidia-smi -L 2>/dev/null || echo "(nvidia-smi not found: no GPU?)"
  if [ -x "$dir/tools/omptarget-info" ]; then
    echo "== omptarget-info (our core, every plugin) =="
    LD_LIBRARY_PATH="$dir/lib/ours${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$dir/tools/omptarget-info" ||
      { echo "omptarget-info failed"; status=1; }
    # --json parses and lists every GPU nvidia-smi sees, as cuda devices.
    LD_LIBRARY_PATH="$dir/lib/ours${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$dir/tools/omptarget-info" --json |
      python3 -c 'import json, sys
d = json.load(sys.stdin); n = int(sys.argv[1])
gpus = [x for x in d["devices"] if x["plugin"] == "cuda"]
assert len(gpus) == n, (len(gpus), n)
print("omptarget-info --json: %d cuda device(s): %s" % (n, ", ".join(x.get("name", "?") for x in gpus)))' \
        "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')" ||
      { echo "omptarget-info --json failed"; status=1; }
  fi
  local configs=$which
  [ "$which" = both ] && configs="ours llvm"
  [ "$which" = all ] && configs="ours llvm ours-devrtl ours-devrtl-O2 llvm-devrtl"
  for config in $configs; do
    run_core "$dir" "$config" "$logdir/gpu-tests-$config.log" || status=1
  done
  rm -rf "$dir"
  return $status
}

case ${1:-} in
  build) shift; build "$@" ;;
  run) shift; run "$@" ;;
  *) sed -n '2,41p' "$0"; exit 2 ;;
esac

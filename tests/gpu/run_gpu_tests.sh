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
#       Where clang-19 and LLVM 19's OpenMP runtime (scripts/fetch-llvm19-
#       runtime.sh's prefix, build/llvm19-runtime, or LLVM19_RUNTIME_DIR=its
#       usr/lib/llvm-19) exist, each test is also built by clang 19 for sm_90
#       with LLVM 19's device runtime (bin/c19; CUDA_PATH, default
#       /usr/local/cuda, is the toolkit), and the bundle carries LLVM 19's
#       libomptarget.so.19.1 and libomp.so.5. C19=0 leaves clang 19 out.
#       LLVM 19's runtime needs libLLVM.so.19.1 (123 MiB) and the libraries it
#       links, 34 MiB in BUNDLE/llvm19-libs.tar.xz: with the whole bundle
#       (42 MiB gzipped) that is over the 64 MiB a device call carries, so
#       by default the archive is left out (no c19-llvm19 configuration), and
#       C14=0 builds the clang-19 side alone with it (56 MiB in all:
#       c19-ours and c19-llvm19), for a second call. LLVM19_LIBS=0|1 forces
#       it out or in.
#   run_gpu_tests.sh run [BUNDLE] [CONFIG...|both|all]
#       On the GPU machine: unpacks the bundle to a temporary directory, runs
#       every test and prints `N passed, M failed` per configuration:
#         ours            our core + our CUDA plugin, LLVM 14's device runtime
#         llvm            LLVM 14's core + our CUDA plugin, LLVM 14's device runtime
#         ours-devrtl     our core, our device runtime (-O0)
#         ours-devrtl-O2  our core, our device runtime (-O2)
#         llvm-devrtl     LLVM 14's core + our plugin, our device runtime (-O0)
#         c19-ours        clang-19 binaries on our core + our CUDA plugin, on
#                         libomp 19 (libomptarget.so.19.1 is ours)
#         c19-llvm19      the same binaries on LLVM 19's runtime (its CUDA
#                         plugin built in), each embedded cubin's header first
#                         rewritten to ELF ABI 7 (tests/gpu/cubin_abi7.py, a
#                         measurement aid: LLVM 19 refuses ABI 8 cubins)
#       both = ours llvm; c19 = c19-ours c19-llvm19; all (the default) =
#       those of the seven that the bundle has binaries for. Failing tests'
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
# FileCheck runs with the LLVM prefix instead of OURS (as in lit.cfg.py); with
# LLVM 19's, LLVM19. clang 19 does not build tests that say `UNSUPPORTED:
# clang-19` or `REQUIRES: clang-14`, nor those marked `GPU: devrtl-only`. A
# test whose `XFAIL:` names (as a plain list) a feature of the configuration
# (runtime-ours, omptarget-core, runtime-llvm-core-our-plugin for LLVM 14's
# core, runtime-llvm19, clang-14 or clang-19, libomp-19) counts as xfail when
# it fails and is listed as xpass when it passes; neither is a failure (those
# marks are the host suite's). `// GPU: xfail FEATURE... (why)` adds
# features of the same kind for the GPU run only (a failure of clang 19's
# code on the GPU that no runtime can avoid).
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
  seg=${seg//%core/\$PREFIX}
  seg=${seg//%cc/\$CPREFIX}
  seg=${seg//%t/\"\$BIN\"}
  seg=${seg//%s/\"\$SRC\"}
  case $seg in not\ *) seg="\"\$NOT\" ${seg#not }" ;; esac
  # `not` after an env assignment (`%run env VAR=x not --crash %t`).
  seg=${seg// not --crash / \"\$NOT\" --crash }
  printf '%s\n' "$seg"
}

compile_segment() {  # SEGMENT SOURCE BINARY EXTRA_FLAGS [c19] -> the command to run here
  local seg=$1 src=$2 bin=$3 extra=$4 compiler=${5:-c14}
  local nv cc cxx
  if [ "$compiler" = c19 ]; then
    # clang 19 knows sm_90 and CUDA 12.5 (it takes the newer toolkit's ptxas
    # and nvlink as they are). LLVM 19's omp.h, and its libomp, libomptarget
    # (soname libomptarget.so.19.1) and nvptx device runtime (the bitcode
    # libomptarget-nvptx-sm_<arch>.bc, which clang looks for there too, and
    # libomptarget.devicertl.a) through LIBRARY_PATH, which comes after every
    # -L: a test's -L%libdir still links our extensions (as in lit.cfg.py).
    # A test's own architecture (`-Xopenmp-target -march=sm_86`, which clang
    # 19 refuses without a triple) replaces sm_90.
    cc="env LIBRARY_PATH=$L19 $CLANG19"
    cxx="env LIBRARY_PATH=$L19 ${CLANG19%clang-19}clang++-19"
    seg=${seg//-Xopenmp-target -march=sm_/--no-offload-arch=sm_90 --offload-arch=sm_}
    nv="$extra -fopenmp --offload-arch=sm_90 --cuda-path=$CUDA19"
    nv+=" -gline-tables-only -Wno-openmp-mapping -Wno-unknown-cuda-version -I$ROOT/include -I$L19/clang/19/include"
    seg=${seg//%clang-plain/$cc -fopenmp -I$L19/clang/19/include}
  else
    cc=$LLVM/bin/clang
    cxx=$LLVM/bin/clang++
    nv="$extra -fopenmp -fopenmp-targets=nvptx64-nvidia-cuda -Xopenmp-target -march=sm_80 --cuda-path=$SM90PATH"
    nv+=" -gline-tables-only -Wno-openmp-mapping -Wno-unknown-cuda-version -I$ROOT/include"
    seg=${seg//%clang-plain/$cc -fopenmp}
  fi
  seg=${seg//%clangxx-offload/$cxx $nv}
  seg=${seg//%clang-offload/$cc $nv}
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
  # clang 19 (bin/c19), where it and LLVM 19's runtime are here.
  CLANG19=${CLANG19:-/usr/bin/clang-19}
  L19=${LLVM19_RUNTIME_DIR:-$ROOT/build/llvm19-runtime/usr/lib/llvm-19}/lib
  CUDA19=${CUDA_PATH:-/usr/local/cuda}
  local c19=0 why19=""
  if [ "${C19:-1}" = 0 ]; then why19="C19=0"
  elif [ ! -x "$CLANG19" ]; then why19="no $CLANG19"
  elif [ ! -f "$L19/libomptarget.so.19.1" ] || [ ! -f "$L19/libomptarget-nvptx-sm_90.bc" ]; then
    why19="no LLVM 19 runtime in $L19 (scripts/fetch-llvm19-runtime.sh)"
  elif [ ! -x "$CUDA19/bin/ptxas" ]; then why19="no CUDA toolkit at $CUDA19 (CUDA_PATH)"
  else c19=1
  fi
  [ $c19 = 1 ] && echo "clang 19 variant: $CLANG19, LLVM 19 runtime $L19, CUDA $CUDA19" ||
    echo "no clang 19 variant: $why19"
  local stage=$out/stage
  # C14=0: the clang-19 side alone (with LLVM 19's libraries, by default).
  local c14=1 llvm19_libs=${LLVM19_LIBS:-0}
  if [ "${C14:-1}" = 0 ]; then
    [ $c19 = 1 ] || die "C14=0 builds the clang-19 binaries only, and there is no clang 19 variant: $why19"
    c14=0; llvm19_libs=${LLVM19_LIBS:-1}
  fi
  rm -rf "$out"; mkdir -p "$stage"/{src,cmds,lib/ours,tools/lib}
  [ $c14 = 1 ] && mkdir -p "$stage"/{bin/llvmrtl,bin/devrtl,bin/devrtl-O2,lib/llvm}
  SM90PATH=$out/cuda-sm90
  "$ROOT/tools/omptarget-sm90-path" "$SM90PATH" >/dev/null || die "cannot make the sm_90 CUDA path"

  cp "$lib/libomptarget.so" "$lib/libomptarget.rtl.cuda.so" "$LLVM/lib/libomp.so.5" "$stage/lib/ours/"
  [ $c14 = 1 ] && cp "$LLVM/lib/libomptarget.so" "$lib/libomptarget.rtl.cuda.so" "$LLVM/lib/libomp.so.5" "$stage/lib/llvm/"
  if [ $c19 = 1 ]; then
    mkdir -p "$stage"/{bin/c19,lib/c19-ours,lib/c19-llvm19}
    # Our side: the clang-19 programs load libomptarget.so.19.1 (ours: the
    # build's, else a link to libomptarget.so) and libomp 19; those that link
    # our extensions (-L%libdir) load libomptarget.so.
    # The core and the plugin are lib/ours' (links: the bundle's size).
    ln -s ../ours/libomptarget.so ../ours/libomptarget.rtl.cuda.so "$stage/lib/c19-ours/"
    cp "$L19/libomp.so.5" "$stage/lib/c19-ours/"
    if [ -L "$lib/libomptarget.so.19.1" ] || [ ! -e "$lib/libomptarget.so.19.1" ]; then
      ln -s libomptarget.so "$stage/lib/c19-ours/libomptarget.so.19.1"
    else
      cp "$lib/libomptarget.so.19.1" "$stage/lib/c19-ours/"
    fi
    # LLVM 19's side: its libomptarget.so.19.1 (RUNPATH $ORIGIN) and libomp 19.
    cp "$L19/libomptarget.so.19.1" "$L19/libomp.so.5" "$stage/lib/c19-llvm19/"
    cp "$HERE/cubin_abi7.py" "$stage/tools/"
  fi
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

  local manifest=$stage/manifest built=0 broken=0 skipped=0 built19=0 broken19=0
  : > "$manifest"
  # tests/gpu/faults and tests/gpu/cuda: GPU-only programs (device traps,
  # device memory exhausted; raw CUDA work through interop objects) that the
  # host suite cannot run.
  for src in "$ROOT"/tests/offload/*.c "$ROOT"/tests/offload/*.cpp "$ROOT"/tests/gpu/faults/*.c \
             "$ROOT"/tests/gpu/cuda/*.c; do
    local file name requires unsupported xfail
    file=$(basename "$src"); name=${file%.*}
    # GPU_TESTS="name ...": build only these (a small bundle for a re-run).
    if [ -n "${GPU_TESTS:-}" ] && [[ " $GPU_TESTS " != *" $name "* ]]; then continue; fi
    requires=$(sed -n 's|^ *// *REQUIRES: *||p' "$src" | tr ',\n' '  ')
    unsupported=$(sed -n 's|^ *// *UNSUPPORTED: *||p' "$src" | tr ',\n' '  ')
    xfail=$(sed -n 's|^ *// *XFAIL: *||p' "$src" | tr ',\n' '  ')
    # `GPU: xfail FEATURE... (why)`: expected to fail on the GPU only.
    xfail+=" $(sed -n 's|^ *// *GPU: *xfail *\([^(]*\).*|\1|p' "$src" | tr ',\n' '  ')"
    local why=""
    grep -q '// *GPU: *skip' "$src" && why="marked GPU: skip"
    case " $HOST_ONLY " in *" $name "*) why="host-only test" ;; esac
    for f in $requires; do
      case $f in omptarget-plugin|host-async|nvptx-compile) why="requires $f" ;; esac
    done
    # Not for clang 14 (it `REQUIRES: clang-19`): clang 19's binaries only.
    local build14=$c14
    [[ " $unsupported " == *" clang-14 "* || " $requires " == *" clang-19 "* ]] && build14=0
    [ $build14 = 0 ] && [ $c19 = 0 ] && why="requires clang-19"
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
    # clang 19 builds it too, unless it says it is not for clang 19, or
    # needs our device runtime (devrtl-only: LLVM 19's lacks those entry
    # points too, omp_alloc, the task reductions, impl::setCriticalLock).
    local build19=$c19 ok19=1
    [[ " $unsupported " == *" clang-19 "* || " $requires " == *" clang-14 "* ]] && build19=0
    [ $devrtl_only = 1 ] && build19=0
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
            [ $build14 = 0 ] && variants=""
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
            done
            if [ $build19 = 1 ] &&
               ! eval "$(compile_segment "$seg" "$src" "$stage/bin/c19/$name" "" c19)" \
                 >> "$out/$name.c19.build.log" 2>&1; then
              echo "(clang 19)" >> "$out/$name.c19.build.log"; ok19=0
            fi ;;
          *) run_segment "$seg" >> "$cmds" ;;
        esac
      done
    done < <(sed -n 's|^ *// *RUN: *||p' "$src")
    # The manifest line: NAME FILE FLAGS REQUIRES|UNSUPPORTED|XFAIL, FLAGS
    # being 0 or 1 (multi-device), then d (devrtl-only), 9 (clang 19 only),
    # B (the clang-14
    # build failed), c (built by clang 19) or C (clang 19's build failed).
    local flags=$multi
    [ $devrtl_only = 1 ] && flags+=d
    [ $build14 = 0 ] && flags+=9
    if [ $ok = 1 ]; then
      built=$((built + 1)); rm -f "$out/$name.build.log"
    else
      flags+=B
      broken=$((broken + 1)); echo "BUILD FAILED $name (see $out/$name.build.log)"
    fi
    if [ $build19 = 1 ]; then
      if [ $ok19 = 1 ]; then
        flags+=c; built19=$((built19 + 1)); rm -f "$out/$name.c19.build.log"
      else
        flags+=C; broken19=$((broken19 + 1)); echo "BUILD FAILED (clang 19) $name (see $out/$name.c19.build.log)"
      fi
    fi
    requires=$(echo $requires); unsupported=$(echo $unsupported); xfail=$(echo $xfail)
    echo "$name $file $flags ${requires// /,}|${unsupported// /,}|${xfail// /,}" >> "$manifest"
  done
  if [ $c19 = 1 ]; then
    # The clang-19 binaries' cubins are ABI 8; c19-llvm19 runs copies with
    # ABI 7 headers, made on the GPU machine: check here that each rewrites.
    local abi7=$out/abi7-check
    if [ $built19 -gt 0 ]; then
      python3 "$HERE/cubin_abi7.py" "$abi7" "$stage"/bin/c19/* || die "cubin_abi7.py failed on bin/c19"
    fi
    rm -rf "$abi7"
  fi
  tar -C "$stage" -czf "$out/bundle.tar.gz" . || die "cannot pack the bundle"
  rm -rf "$stage" "$SM90PATH"
  if [ $c14 = 1 ]; then
    echo "bundle: $out/bundle.tar.gz ($(du -h "$out/bundle.tar.gz" | cut -f1)): $built test(s) built, $broken failed to build, $skipped skipped"
  else
    echo "bundle: $out/bundle.tar.gz ($(du -h "$out/bundle.tar.gz" | cut -f1)): the clang-19 side only (C14=0), $skipped skipped"
  fi
  if [ $c19 = 1 ]; then
    echo "clang 19: $built19 test(s) built, $broken19 failed to build"
    if [ "$llvm19_libs" != 0 ]; then
      # libLLVM.so.19.1 (123 MiB, about 38 MiB gzipped, 25 MiB in xz) and
      # the libraries it links that a CUDA image may lack, all but glibc's,
      # the C++ runtime's and libz3 (tools/lib has it): `run` links in only
      # those its machine has not.
      local llvm19=$out/llvm19-stage libllvm
      libllvm=$(LD_LIBRARY_PATH=$L19 ldd "$L19/libomptarget.so.19.1" | awk '$1 == "libLLVM.so.19.1" {print $3}')
      [ -f "$libllvm" ] || die "libLLVM.so.19.1 not found (package libllvm19)"
      mkdir -p "$llvm19/deps"
      cp -L "$libllvm" "$llvm19/"
      for so in $(ldd "$libllvm" | awk '/=>/ {print $3}' | sort -u); do
        case $(basename "$so") in
          libc.so*|libm.so*|libstdc++.so*|libgcc_s.so*|ld-linux*|libdl.so*|libpthread.so*|librt.so*|libz3.so*) ;;
          *) cp -L "$so" "$llvm19/deps/" ;;
        esac
      done
      tar -C "$llvm19" -cf - . | xz -T "${JOBS:-2}" -6 > "$out/llvm19-libs.tar.xz" || die "cannot pack LLVM 19's libraries"
      rm -rf "$llvm19"
      echo "llvm19-libs.tar.xz ($(du -h "$out/llvm19-libs.tar.xz" | cut -f1)): libLLVM.so.19.1 and what it links"
    fi
  fi
  local total
  total=$(cat "$out"/bundle.tar.gz "$out"/llvm19-libs.tar.xz 2>/dev/null | wc -c)
  total=$((total / 1048576))
  echo "bundle files together: $total MiB$([ $total -lt 58 ] || echo "; WARNING: with the working tree that may be over the 64 MiB a device call carries")"
  [ $broken = 0 ] && [ $broken19 = 0 ]
}

# ------------------------------------------------------------------ run ----
# LLVM 19's side needs libLLVM.so.19.1 and what it links: the libraries of
# llvm19-libs.tar.xz that this machine lacks are linked into its directory.
prepare_llvm19() {  # DIR -> 0 when LLVM 19's libomptarget.so.19.1 loads
  local dir=$1 lib=$1/lib/c19-llvm19 missing round
  [ -f "$dir/llvm19-libs.tar.xz" ] || { echo "no llvm19-libs.tar.xz in the bundle (LLVM19_LIBS=0?)"; return 1; }
  if [ ! -d "$dir/llvm19-libs" ]; then
    mkdir -p "$dir/llvm19-libs"
    # Python's tarfile reads xz where the xz tool is missing.
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
      "$dir/llvm19-libs.tar.xz" "$dir/llvm19-libs" || return 1
  fi
  ln -sf "$dir/llvm19-libs/libLLVM.so.19.1" "$lib/"
  for round in 1 2 3 4 5; do
    missing=$(LD_LIBRARY_PATH=$lib ldd "$lib/libomptarget.so.19.1" | awk '/not found/ {print $1}')
    [ -z "$missing" ] && return 0
    for so in $missing; do
      if [ -e "$dir/llvm19-libs/deps/$so" ]; then ln -sf "$dir/llvm19-libs/deps/$so" "$lib/"
      elif [ -e "$dir/tools/lib/$so" ]; then ln -sf "$dir/tools/lib/$so" "$lib/"
      else echo "LLVM 19's runtime needs $so, which the bundle lacks"; return 1
      fi
    done
  done
  return 1
}

run_core() {  # DIR CONFIG LOG
  local dir=$1 config=$2 log=$3 prefix libs core bins compiler=14 libomp=14
  case $config in
    ours|ours-devrtl|ours-devrtl-O2) core=ours; prefix=OURS; libs=$dir/lib/ours ;;
    llvm|llvm-devrtl) core=llvm; prefix=LLVM; libs=$dir/lib/llvm ;;
    c19-ours) core=ours; prefix=OURS; libs=$dir/lib/c19-ours; compiler=19; libomp=19 ;;
    c19-llvm19) core=llvm19; prefix=LLVM19; libs=$dir/lib/c19-llvm19; compiler=19; libomp=19 ;;
    *) die "unknown configuration '$config' (ours, llvm, ours-devrtl, ours-devrtl-O2, llvm-devrtl, c19-ours, c19-llvm19)" ;;
  esac
  case $config in
    *-devrtl) bins=$dir/bin/devrtl ;;
    *-devrtl-O2) bins=$dir/bin/devrtl-O2 ;;
    c19-ours) bins=$dir/bin/c19 ;;
    c19-llvm19) bins=$dir/bin/c19-abi7 ;;
    *) bins=$dir/bin/llvmrtl ;;
  esac
  if [ $compiler = 19 ] && [ ! -d "$dir/bin/c19" ]; then
    echo "== $config: the bundle has no clang-19 binaries (built without clang-19 or LLVM 19's runtime)"
    return 1
  fi
  if [ $compiler = 14 ] && [ ! -d "$bins" ]; then
    echo "== $config: the bundle has no clang-14 binaries (built with C14=0)"
    return 1
  fi
  if [ "$config" = c19-llvm19 ]; then
    prepare_llvm19 "$dir" || { echo "== $config: LLVM 19's runtime does not load here"; return 1; }
    # LLVM 19's CUDA plugin reads the SM of ELF ABI 7 cubins only.
    [ -d "$bins" ] || python3 "$dir/tools/cubin_abi7.py" "$bins" "$dir"/bin/c19/* ||
      { echo "== $config: cannot rewrite the cubins"; return 1; }
  fi
  # The configuration's lit features, for UNSUPPORTED and XFAIL lists.
  local features=" clang-$compiler "
  case $core in
    ours) features+="runtime-ours omptarget-core " ;;
    llvm) features+="runtime-llvm-core-our-plugin " ;;
    llvm19) features+="runtime-llvm19 " ;;
  esac
  [ $libomp = 19 ] && features+="libomp-19 "
  local gpus
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  local pass=0 fail=0 skip=0 failed="" xfails=0 xpassed=""
  : > "$log"
  echo "== $config: core $core, binaries $(basename "$bins") ($gpus GPU(s)) =="
  while read -r name file flags marks; do
    local requires unsupported xfail f skipped=0 expect_fail=0
    IFS='|' read -r requires unsupported xfail <<< "$marks"
    if [ $compiler = 19 ]; then
      case $flags in
        *C*) fail=$((fail + 1)); failed+=" $name(build)"; continue ;;
        *c*) ;;
        *) skip=$((skip + 1)); continue ;;  # not for clang 19
      esac
    elif [[ $flags == *9* ]]; then
      skip=$((skip + 1)); continue  # clang 19 only
    elif [[ $flags == *B* ]]; then
      fail=$((fail + 1)); failed+=" $name(build)"; continue
    fi
    if [ "$core" != ours ] && [[ ",$requires," == *",omptarget-core,"* ]]; then skip=$((skip + 1)); continue; fi
    # LLVM 14's core with our plugin is the host suite's llvm-core-our-plugin.
    if [ "$core" = llvm ] && [[ ",$unsupported," == *",interop,"* ]]; then skip=$((skip + 1)); continue; fi
    for f in ${unsupported//,/ }; do [[ $features == *" $f "* ]] && skipped=1; done
    [ $skipped = 1 ] && { skip=$((skip + 1)); continue; }
    for f in ${xfail//,/ }; do [[ $features == *" $f "* ]] && expect_fail=1; done
    # Built with our device runtime only (clang 19's binaries link LLVM 19's).
    if [[ $flags == *d* ]] && [ "$bins" = "$dir/bin/llvmrtl" ]; then skip=$((skip + 1)); continue; fi
    if [[ $flags == 1* ]] && [ "${gpus:-0}" -lt 2 ]; then skip=$((skip + 1)); continue; fi
    local out rc
    # Like lit: the caller's LIBOMPTARGET_*/OMP_*/OMPTARGET_* stay out, and
    # each RUN line runs with pipefail.
    out=$(cd "$bins" && env BIN="$bins/$name" SRC="$dir/src/$file" PREFIX=$prefix CPREFIX=C$compiler \
            LIBS="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
            FILECHECK="$dir/tools/FileCheck" NOT="$dir/tools/not" TOOLS="$dir/tools" \
            timeout 300 bash -o pipefail -c \
              'for v in $(compgen -e); do case $v in LIBOMPTARGET_*|OMP_*|OMPTARGET_*) unset "$v";; esac; done
               set -e; . "$0"' "$dir/cmds/$name.sh" 2>&1)
    rc=$?
    if [ $rc = 0 ]; then
      pass=$((pass + 1))
      [ $expect_fail = 1 ] && xpassed+=" $name"
    elif [ $expect_fail = 1 ]; then
      xfails=$((xfails + 1))
      { echo "---- XFAIL $name ($config, exit $rc)"; echo "$out" | tail -n 60; } >> "$log"
    else
      fail=$((fail + 1)); failed+=" $name"
      { echo "---- FAIL $name ($config, exit $rc)"; echo "$out" | tail -n 60; } >> "$log"
    fi
  done < "$dir/manifest"
  echo "$config: $pass passed, $fail failed, $skip skipped$([ $xfails = 0 ] || echo ", $xfails xfail")${failed:+ (failed:$failed)}${xpassed:+ (xpass, XFAIL in the host suite:$xpassed)}"
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
  [ -f "$bundle/llvm19-libs.tar.xz" ] && ln -s "$(cd "$bundle" && pwd)/llvm19-libs.tar.xz" "$dir/"
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
  local c19_configs=""
  if [ -d "$dir/bin/c19" ]; then
    c19_configs=c19-ours
    [ -f "$bundle/llvm19-libs.tar.xz" ] && c19_configs+=" c19-llvm19"
  fi
  [ "$which" = c19 ] && configs="c19-ours c19-llvm19"
  local c14_configs=""
  [ -d "$dir/bin/llvmrtl" ] && c14_configs="ours llvm ours-devrtl ours-devrtl-O2 llvm-devrtl"
  [ "$which" = all ] && configs="$c14_configs $c19_configs"
  for config in $configs; do
    run_core "$dir" "$config" "$logdir/gpu-tests-$config.log" || status=1
  done
  rm -rf "$dir"
  return $status
}

case ${1:-} in
  build) shift; build "$@" ;;
  run) shift; run "$@" ;;
  *) sed -n '2,/^set -u$/p' "$0" | sed '$d'; exit 2 ;;
esac

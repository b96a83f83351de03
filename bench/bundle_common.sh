# Shared by the GPU bench bundle scripts (bench/gpu/run_gpu_bench.sh,
# bench/gpu/ab_revisions.sh, bench/multigpu/run_multigpu.sh,
# bench/apps/run_apps.sh); sourced, not run. The caller defines ROOT,
# MAX_BUNDLE_MIB and die().

LLVM=${LLVM14_DIR:-/usr/lib/llvm-14}
CUDA=${CUDA_HOME:-/usr/local/cuda}

# What every bundle build needs: our core and CUDA plugin, clang 14, nvcc.
bundle_require_tools() {
  local lib=$ROOT/build/lib
  [ -f "$lib/libomptarget.so" ] && [ -f "$lib/libomptarget.rtl.cuda.so" ] ||
    die "build the core and the CUDA plugin first (ninja -C build omptarget omptarget.rtl.cuda)"
  [ -x "$LLVM/bin/clang" ] || die "clang 14 not found in $LLVM"
  [ -x "$CUDA/bin/nvcc" ] || die "nvcc not found in $CUDA/bin"
}

# The clang 14 flags that build OpenMP offload code for the H200 (sm_90),
# with a --cuda-path directory made by tools/omptarget-sm90-path (clang 14
# builds sm_80 device code, the wrapped ptxas/nvlink make sm_90 of it).
bundle_offload_flags() {  # SM90_PATH
  echo -fopenmp -fopenmp-targets=nvptx64-nvidia-cuda -Xopenmp-target -march=sm_80 \
    --cuda-path="$1" -Wno-unknown-cuda-version
}

# Compiles the OpenMP offload program SRC for the H200 (sm_90) into OUT.
bundle_compile_offload() {  # SRC OUT SM90_PATH [EXTRA_FLAGS...]
  echo "compiling $(basename "$2") (clang 14, nvptx64 sm_90)"
  # shellcheck disable=SC2046  # the flags are words, the path has no blanks
  "$LLVM/bin/clang" "${@:4}" -O2 $(bundle_offload_flags "$3") -Wall -Wextra -o "$2" "$1" ||
    die "$(basename "$1") did not compile"
}

# Libraries LLVM 14's CUDA plugin (and core) need beyond the C/C++ runtime
# that every Linux system has.
bundle_llvm_deps() {
  ldd "$LLVM/lib/libomptarget.rtl.cuda.so" "$LLVM/lib/libomptarget.so" | awk '/=>/ {print $3}' | sort -u |
    while read -r so; do
      case $(basename "$so") in
        libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|ld-linux*|libstdc++.so*|libgcc_s.so*) ;;
        *) echo "$so" ;;
      esac
    done
}

# Puts both runtimes into STAGE: lib/ours (our core + CUDA plugin + LLVM 14's
# libomp.so.5), lib/llvm (LLVM 14's core + CUDA plugin + libomp.so.5) and
# llvm-deps.tar.xz, the libraries LLVM 14's plugin needs (libLLVM-14.so.1,
# 110 MB, and friends; xz -9 brings them to ~28 MB). The archive is cached in
# CACHE_DIR (the compression takes ~1.5 min) until one of them changes.
bundle_stage_runtimes() {  # STAGE CACHE_DIR
  local stage=$1 cache=$2 lib=$ROOT/build/lib
  [ -f "$LLVM/lib/libomptarget.rtl.cuda.so" ] || die "LLVM 14's CUDA plugin not found in $LLVM/lib"
  mkdir -p "$stage/lib/ours" "$stage/lib/llvm" "$cache"
  cp "$lib/libomptarget.so" "$lib/libomptarget.rtl.cuda.so" "$LLVM/lib/libomp.so.5" "$stage/lib/ours/"
  cp "$LLVM/lib/libomptarget.so" "$LLVM/lib/libomptarget.rtl.cuda.so" "$LLVM/lib/libomp.so.5" "$stage/lib/llvm/"
  local deps=$cache/llvm-deps.tar.xz list
  list=$(bundle_llvm_deps)
  [ -n "$list" ] || die "cannot list the libraries of $LLVM/lib/libomptarget.rtl.cuda.so"
  local stale=0 so
  [ -f "$deps" ] && [ "$(cat "$deps.list" 2>/dev/null)" = "$list" ] || stale=1
  for so in $list; do [ "$so" -nt "$deps" ] && stale=1; done
  if [ $stale = 1 ]; then
    echo "compressing LLVM 14's plugin dependencies (xz -9, ~1.5 min):" $(for so in $list; do basename "$so"; done)
    local tmp=$cache/deps.tmp
    rm -rf "$tmp"; mkdir -p "$tmp"
    for so in $list; do cp -L "$so" "$tmp/"; done
    tar -C "$tmp" -cf - . | xz -T1 -9 > "$deps.part" || die "xz failed"
    mv "$deps.part" "$deps"; printf '%s\n' "$list" > "$deps.list"
    rm -rf "$tmp"
  fi
  cp "$deps" "$stage/llvm-deps.tar.xz"
}

# STAGE/BUILD_INFO: when and from what the bundle was built.
bundle_write_info() {  # STAGE
  { echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)$(git -C "$ROOT" diff --quiet HEAD -- 2>/dev/null || echo +dirty)"
    echo "clang=$("$LLVM/bin/clang" --version | head -1)"
    echo "nvcc=$("$CUDA/bin/nvcc" --version | tail -1)"; } > "$1/BUILD_INFO"
}

# Packs STAGE into OUT/bundle.tar.gz, prints its size in UNIT (MiB or KiB)
# and fails when it is MAX_BUNDLE_MIB or more (the device tool's carry limit).
bundle_pack() {  # STAGE OUT UNIT
  local stage=$1 out=$2 unit=$3 bytes shift=20
  [ "$unit" = KiB ] && shift=10
  tar -C "$stage" -czf "$out/bundle.tar.gz" . || die "cannot pack the bundle"
  bytes=$(stat -c %s "$out/bundle.tar.gz")
  echo "bundle: $out/bundle.tar.gz ($((bytes >> shift)) $unit)"
  [ "$bytes" -lt $((MAX_BUNDLE_MIB * 1024 * 1024)) ] || die "the bundle is larger than $MAX_BUNDLE_MIB MiB"
}

# Unpacks BUNDLE_DIR/bundle.tar.gz into a new /tmp/PREFIX.XXXXXX directory
# and prints its path.
bundle_unpack() {  # BUNDLE_DIR PREFIX
  local bundle=$1 dir
  [ -f "$bundle/bundle.tar.gz" ] || die "no bundle at $bundle (run '$0 build' first)"
  dir=$(mktemp -d "/tmp/$2.XXXXXX")
  tar -C "$dir" -xzf "$bundle/bundle.tar.gz" || die "cannot unpack $bundle/bundle.tar.gz"
  echo "$dir"
}

# After bundle_unpack of a bundle made with bundle_stage_runtimes: unpacks
# DIR/llvm-deps.tar.xz into DIR/lib/llvm-deps (xz, else Python's lzma).
bundle_unpack_llvm_deps() {  # DIR
  local dir=$1
  mkdir -p "$dir/lib/llvm-deps"
  if command -v xz >/dev/null 2>&1; then
    xz -dc "$dir/llvm-deps.tar.xz" | tar -C "$dir/lib/llvm-deps" -xf - || die "cannot unpack llvm-deps.tar.xz"
  else
    python3 -c 'import lzma,sys,tarfile; tarfile.open(fileobj=lzma.open(sys.argv[1])).extractall(sys.argv[2])' \
      "$dir/llvm-deps.tar.xz" "$dir/lib/llvm-deps" || die "cannot unpack llvm-deps.tar.xz (no xz, no python3)"
  fi
  rm -f "$dir/llvm-deps.tar.xz"
}

# LLVM 14's plugin dlopens "libcuda.so" (no version): a driver install in a
# container often has only libcuda.so.1. Links it next to LLVM 14's plugin
# (DIR/lib/llvm), and warns about libraries that plugin still misses.
bundle_link_libcuda() {  # DIR
  local dir=$1 so="" missing
  if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so '; then
    so=$(ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 / && /x86-64/ {print $NF; exit}')
    if [ -z "$so" ]; then
      local d
      for d in ${LD_LIBRARY_PATH:+${LD_LIBRARY_PATH//:/ }} /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/local/cuda/compat; do
        [ -e "$d/libcuda.so.1" ] && { so=$d/libcuda.so.1; break; }
      done
    fi
    if [ -n "$so" ]; then
      ln -sf "$so" "$dir/lib/llvm/libcuda.so"
      echo "info: LLVM 14's plugin gets libcuda.so -> $so"
    else
      echo "warning: no libcuda.so.1 found; LLVM 14's plugin will see no GPU"
    fi
  fi
  missing=$(LD_LIBRARY_PATH="$dir/lib/llvm:$dir/lib/llvm-deps" ldd "$dir/lib/llvm/libomptarget.rtl.cuda.so" | grep 'not found')
  [ -z "$missing" ] || echo "warning: LLVM 14's plugin misses libraries: $missing"
}

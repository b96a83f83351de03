# Shared by the GPU bench bundle scripts (bench/gpu/run_gpu_bench.sh,
# bench/multigpu/run_multigpu.sh); sourced, not run. The caller defines
# ROOT, MAX_BUNDLE_MIB and die().

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

# Compiles the OpenMP offload program SRC for the H200 (sm_90) into OUT,
# with a --cuda-path directory made by tools/omptarget-sm90-path.
bundle_compile_offload() {  # SRC OUT SM90_PATH [EXTRA_FLAGS...]
  echo "compiling $(basename "$2") (clang 14, nvptx64 sm_90)"
  "$LLVM/bin/clang" "${@:4}" -O2 -fopenmp -fopenmp-targets=nvptx64-nvidia-cuda -Xopenmp-target -march=sm_80 \
    --cuda-path="$3" -Wno-unknown-cuda-version -Wall -Wextra -o "$2" "$1" ||
    die "$(basename "$1") did not compile"
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

# Shared by the GPU bench bundle scripts (bench/gpu/run_gpu_bench.sh,
# bench/multigpu/run_multigpu.sh); sourced, not run. The caller defines
# ROOT, LLVM, CUDA, MAX_BUNDLE_MIB and die().

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

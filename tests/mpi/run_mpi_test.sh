#!/bin/sh
# One MPI plugin test (tests/mpi/CMakeLists.txt registers each case):
#   run_mpi_test.sh CASE BUILD_DIR CLANG SOURCE_DIR
# Runs as root in containers and CI, hence --allow-run-as-root and
# --oversubscribe; shared memory and self transports only (no network).
# Every mpirun is bounded by `timeout`. Exits 77 (skipped) without mpirun.
set -u
CASE=$1 BUILD=$2 CLANG=$3 SRC=$4
command -v mpirun >/dev/null 2>&1 || { echo "SKIPPED: no mpirun (scripts/install-deps.sh installs openmpi-bin)"; exit 77; }
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_plm_rsh_agent=false
export OMPTARGET_HOST_NUM_DEVICES=2 LD_LIBRARY_PATH=$BUILD/lib
MPIRUN="timeout 90 mpirun --allow-run-as-root --oversubscribe"
SERVER=$BUILD/bin/omptarget-mpi-device
WORK=$(mktemp -d) || exit 1
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*"; echo "---- output"; cat "$WORK/out"; exit 1; }
has() { grep -q -- "$1" "$WORK/out" || fail "no line matching '$1'"; }
build() { "$CLANG" -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -I"$SRC/include" \
          "$SRC/tests/mpi/remote_target.c" -o "$WORK/prog" || exit 1; }

case $CASE in
info)  # 2 servers' devices after the local ones, with rank and host
  $MPIRUN -np 1 "$BUILD/bin/omptarget-info" : -np 2 "$SERVER" >"$WORK/out" 2>&1 || fail "mpirun failed"
  has "6 devices (x86_64: 2, mpi: 4)"
  has "^Device 2 (mpi plugin)"
  [ "$(grep -c 'Mpi rank: *1$' "$WORK/out")" = 2 ] || fail "two devices of rank 1 expected"
  [ "$(grep -c 'Mpi rank: *2$' "$WORK/out")" = 2 ] || fail "two devices of rank 2 expected"
  has "Host name: *$(hostname)"
  ;;
remote1|remote2)  # regions, data and update on a remote device
  build
  N=${CASE#remote}
  MPI_REMOTE_DEVICES=$((2 * N)) $MPIRUN -x MPI_REMOTE_DEVICES -np 1 "$WORK/prog" : -np "$N" "$SERVER" \
    >"$WORK/out" 2>&1 || fail "mpirun failed"
  has "devices: $((2 + 2 * N)), using device 2"
  has "target tofrom: ok, ran in another process"
  has "target data/update: ok"
  ;;
noservers)  # one program under mpirun, and none: local devices only
  build
  MPI_REMOTE_DEVICES=0 $MPIRUN -x MPI_REMOTE_DEVICES -np 1 "$WORK/prog" >"$WORK/out" 2>&1 || fail "mpirun failed"
  has "devices: 2, using device 2"
  MPI_REMOTE_DEVICES=0 OMPTARGET_MPI=1 $MPIRUN -x MPI_REMOTE_DEVICES -x OMPTARGET_MPI -np 1 "$WORK/prog" \
    >"$WORK/out" 2>&1 || fail "mpirun with OMPTARGET_MPI=1 failed"
  has "devices: 2, using device 2"
  MPI_REMOTE_DEVICES=0 timeout 60 "$WORK/prog" >"$WORK/out" 2>&1 || fail "the program alone failed"
  has "devices: 2, using device 2"
  has "target tofrom: ok, ran in this process"
  ;;
hang)  # a server that stops answering: one line naming rank and operation, no hang
  build
  START=$(date +%s)
  MPI_REMOTE_DEVICES=2 OMPTARGET_MPI_TIMEOUT_MS=2000 OMPTARGET_MPI_TEST_HANG_AFTER=3 \
    $MPIRUN -x MPI_REMOTE_DEVICES -x OMPTARGET_MPI_TIMEOUT_MS -x OMPTARGET_MPI_TEST_HANG_AFTER \
    -np 1 "$WORK/prog" : -np 1 "$SERVER" >"$WORK/out" 2>&1 && fail "the program succeeded"
  [ $(( $(date +%s) - START )) -lt 60 ] || fail "took 60 s or more"
  has "MPI device rank 1 ($(hostname)), its device 0, did not answer [A-Za-z]* of .* within 2000 ms"
  ;;
*) echo "unknown case $CASE"; exit 2 ;;
esac
echo "PASS: $CASE"

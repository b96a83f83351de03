#!/bin/sh
# One MPI plugin test (tests/mpi/CMakeLists.txt registers each case):
#   run_mpi_test.sh CASE BUILD_DIR CLANG SOURCE_DIR
# (remote-c19 reads CLANG19 and LLVM19_DIR, LLVM 19's usr/lib/llvm-19, from
# the environment; CMake sets them.)
# Runs as root in containers and CI, hence --allow-run-as-root and
# --oversubscribe; shared memory and self transports only (no network).
# Every mpirun is bounded by `timeout`. Exits 77 (skipped) without mpirun.
set -u
CASE=$1 BUILD=$2 CLANG=$3 SRC=$4
command -v mpirun >/dev/null 2>&1 || { echo "SKIPPED: no mpirun (scripts/install-deps.sh installs openmpi-bin)"; exit 77; }
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_plm_rsh_agent=false
export OMPTARGET_HOST_NUM_DEVICES=2 LD_LIBRARY_PATH=$BUILD/lib
MPIRUN="timeout 90 mpirun --allow-run-as-root --oversubscribe --bind-to none"
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
exchange)  # copies between remote devices: rank to rank, within a rank
  "$CLANG" -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -I"$SRC/include" \
    "$SRC/tests/mpi/remote_exchange.c" -o "$WORK/prog" || exit 1
  $MPIRUN -np 1 "$WORK/prog" : -np 2 "$SERVER" >"$WORK/out" 2>&1 || fail "mpirun failed"
  for n in 4096 20971520; do
    has "$n bytes rank 1 -> rank 2: ok"
    has "$n bytes rank 2 -> rank 1: ok"
    has "$n bytes within rank 1: ok"
  done
  has "exchange: all ok"
  ;;
long-kernel)  # regions longer than the deadline: keep-alives, no timeout
  "$CLANG" -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -I"$SRC/include" \
    "$SRC/tests/mpi/remote_long_kernel.c" -o "$WORK/prog" || exit 1
  OMPTARGET_MPI_TIMEOUT_MS=1000 $MPIRUN -x OMPTARGET_MPI_TIMEOUT_MS -np 1 "$WORK/prog" : \
    -np 1 "$SERVER" >"$WORK/out" 2>&1 || fail "mpirun failed"
  has "long regions on device [0-9]*: ok"
  has "copy beside a long region: ok"
  grep -q "did not answer" "$WORK/out" && fail "a keep-alive was missed"
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
killed)  # a server killed by a signal: mpirun's line naming the rank; with
  # --enable-recovery the job goes on, and the program's one line names
  # the rank and the operation it was waiting for, within the deadline
  # (mpirun then exits 0 whatever the program did: Open MPI 4.1's
  # recovery mode, so only the output is checked)
  build
  RUN="-x MPI_REMOTE_DEVICES -x OMPTARGET_MPI_TIMEOUT_MS -x OMPTARGET_MPI_TEST_KILL_AFTER"
  export MPI_REMOTE_DEVICES=2 OMPTARGET_MPI_TIMEOUT_MS=2000 OMPTARGET_MPI_TEST_KILL_AFTER=3
  $MPIRUN $RUN -np 1 "$WORK/prog" : -np 1 "$SERVER" >"$WORK/out" 2>&1 && fail "the job succeeded"
  has "process rank 1 .* exited on signal 9"
  START=$(date +%s)
  $MPIRUN --enable-recovery $RUN -np 1 "$WORK/prog" : -np 1 "$SERVER" >"$WORK/out" 2>&1
  [ $(( $(date +%s) - START )) -lt 60 ] || fail "took 60 s or more"
  has "OMPTARGET_MPI_TEST_KILL_AFTER=3: killing this server"
  has "MPI device rank 1 ($(hostname)), its device 0, did not answer [A-Za-z]* of .* within 2000 ms"
  has "failure of target construct while offloading is mandatory"
  ;;
remote-fakecuda)  # an nvptx64 program on a server's (fake) GPUs
  # The servers run the fake CUDA driver (tests/fake_cuda) with 2 GPUs after
  # their 2 host devices; the program's side has no fake driver.
  FAKE=$BUILD/fake-cuda SM90=$BUILD/tests/fake_cuda/cuda-sm90
  for f in "$FAKE/libcuda.so.1" "$BUILD/lib/libomptarget.rtl.cuda.so" "$SM90/bin/ptxas"; do
    [ -e "$f" ] || { echo "SKIPPED: no $f (the fake-CUDA tests' driver, plugin or sm_90 path)"; exit 77; }
  done
  "$CLANG" -O1 -fopenmp -fopenmp-targets=nvptx64-nvidia-cuda -Xopenmp-target -march=sm_80 \
    --cuda-path="$SM90" -Wno-unknown-cuda-version -I"$SRC/include" -L"$BUILD/lib" \
    "$SRC/tests/mpi/remote_fakecuda.c" -o "$WORK/prog" || exit 1
  GPU_SERVER="env LD_LIBRARY_PATH=$FAKE:$BUILD/lib OMPTARGET_FAKE_CUDA_DEVICES=2 $SERVER"
  # The listing: the server's GPUs, remote plugin cuda, after its host devices.
  $MPIRUN -np 1 "$BUILD/bin/omptarget-info" : -np 1 $GPU_SERVER >"$WORK/out" 2>&1 || fail "mpirun (omptarget-info) failed"
  [ "$(grep -c 'Remote plugin: *cuda$' "$WORK/out")" = 2 ] || fail "two remote cuda devices expected"
  [ "$(grep -c 'Remote plugin: *x86_64$' "$WORK/out")" = 2 ] || fail "two remote x86_64 devices expected"
  has "Device type: *remote (cuda device 2 of the server on MPI rank 1)"
  has "Device type: *remote (cuda device 3 of the server on MPI rank 1)"
  [ "$(grep -c 'Mpi rank: *1$' "$WORK/out")" = 4 ] || fail "four devices of rank 1 expected"
  has "Name: *Fake CUDA device"
  # Data to and from the first remote GPU (the last two devices are the GPUs).
  $MPIRUN -np 1 "$WORK/prog" cuda -2 : -np 1 $GPU_SERVER >"$WORK/out" 2>&1 || fail "mpirun failed"
  has "remote cuda device [0-9]* (uid mpi-.*-rank1-cuda-2)"
  has "remote GPU copy to and from: OK"
  has "remote GPU copy within the device: OK"
  has "remote GPU region: launched"
  has "remote GPU queued copies from: OK"
  grep -qi "error\|FAILED" "$WORK/out" && fail "an error line"
  # The nvptx image on a remote x86_64 device: refused there, clearly.
  $MPIRUN -np 1 "$WORK/prog" refuse -4 : -np 1 $GPU_SERVER >"$WORK/out" 2>&1 && fail "the region on an x86_64 device succeeded"
  has "MPI device rank 1 ($(hostname)), its device 0 (x86_64 plugin), does not run this image, which is an NVPTX cubin"
  grep -q "region on device .* returned" "$WORK/out" && fail "the region returned"
  ;;
remote-c19)  # a clang 19 program (libomptarget.so.19.1, libomp 19) on a remote device
  L19=${LLVM19_DIR:-}/lib
  for f in "${CLANG19:-/nonexistent/clang-19}" "$L19/libomp.so.5" "$L19/clang/19/include/omp.h" \
           "$BUILD/lib/libomptarget.so.19.1"; do
    [ -e "$f" ] || { echo "SKIPPED: no $f (clang 19 and LLVM 19's runtime: tests/CMakeLists.txt)"; exit 77; }
  done
  # As the offload-c19-ours configuration builds (tests/offload/lit.cfg.py):
  # LLVM 19's omp.h, and its libomp and libomptarget through LIBRARY_PATH.
  LIBRARY_PATH=$L19 "$CLANG19" -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -I"$SRC/include" \
    -I"$L19/clang/19/include" "$SRC/tests/mpi/remote_target.c" -o "$WORK/prog" || exit 1
  readelf -d "$WORK/prog" | grep -q 'libomptarget.so.19.1' || fail "the program does not need libomptarget.so.19.1"
  # Its libomp 19 alone in a directory (LLVM 19's lib directory has its own
  # libomptarget.so.19.1 too): the program runs on ours and libomp 19.
  mkdir "$WORK/libomp19" && ln -s "$L19/libomp.so.5" "$WORK/libomp19/libomp.so.5" || exit 1
  MPI_REMOTE_DEVICES=2 $MPIRUN -x MPI_REMOTE_DEVICES \
    -np 1 env LD_LIBRARY_PATH="$BUILD/lib:$WORK/libomp19" LD_DEBUG=libs LD_DEBUG_OUTPUT="$WORK/ld" "$WORK/prog" \
    : -np 1 "$SERVER" >"$WORK/out" 2>&1 || fail "mpirun failed"
  grep -h "calling init: $BUILD/lib/libomptarget.so.19.1" "$WORK"/ld.* >/dev/null || fail "our libomptarget.so.19.1 was not loaded"
  grep -h "calling init: $WORK/libomp19/libomp.so.5" "$WORK"/ld.* >/dev/null || fail "libomp 19 was not loaded"
  has "devices: 4, using device 2"
  has "target tofrom: ok, ran in another process"
  has "target data/update: ok"
  ;;
*) echo "unknown case $CASE"; exit 2 ;;
esac
echo "PASS: $CASE"

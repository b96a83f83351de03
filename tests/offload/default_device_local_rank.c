// OMPTARGET_LOCAL_RANK_DEVICE=1: the default device is the node-local rank
// from the launcher's environment modulo omp_get_num_devices(), for
// omp_get_default_device() and for target regions without a device clause,
// on the main thread, in its parallel regions and tasks, and on a thread
// the program starts itself; no real mpirun: the launcher's variables are
// set by hand. Where a region ran is told by a declare-target global that
// holds a different value on each device (omp_get_device_num() inside a
// host-device region answers the host's number: the region runs on the
// host CPU). OMP_DEFAULT_DEVICE wins over it, omp_set_default_device calls
// win after it, no launcher variable is one warning, 0 devices leave the
// host as the default.
// REQUIRES: omptarget-core, omptarget-plugin
// RUN: %clang-offload %s -o %t
// RUN: %run env -u OMP_DEFAULT_DEVICE -u MPI_LOCALRANKID -u SLURM_LOCALID OMPTARGET_LOCAL_RANK_DEVICE=1 OMPI_COMM_WORLD_LOCAL_RANK=5 %t 2>&1 | %fcheck --check-prefix=OMPI --implicit-check-not=warning
// RUN: %run env -u OMP_DEFAULT_DEVICE -u OMPI_COMM_WORLD_LOCAL_RANK -u SLURM_LOCALID OMPTARGET_LOCAL_RANK_DEVICE=1 MPI_LOCALRANKID=6 %t 2>&1 | %fcheck --check-prefix=HYDRA
// RUN: %run env -u OMP_DEFAULT_DEVICE -u OMPI_COMM_WORLD_LOCAL_RANK -u MPI_LOCALRANKID OMPTARGET_LOCAL_RANK_DEVICE=1 SLURM_LOCALID=3 %t 2>&1 | %fcheck --check-prefix=SLURM
// RUN: %run env -u OMP_DEFAULT_DEVICE -u MPI_LOCALRANKID -u SLURM_LOCALID OMPTARGET_LOCAL_RANK_DEVICE=1 OMPI_COMM_WORLD_LOCAL_RANK=5 OMPTARGET_HOST_NUM_DEVICES=3 %t 2>&1 | %fcheck --check-prefix=THREE
// RUN: %run env -u MPI_LOCALRANKID -u SLURM_LOCALID OMPTARGET_LOCAL_RANK_DEVICE=1 OMPI_COMM_WORLD_LOCAL_RANK=5 OMP_DEFAULT_DEVICE=0 %t 2>&1 | %fcheck --check-prefix=OMPDEF --implicit-check-not=warning
// RUN: %run env -u OMP_DEFAULT_DEVICE -u MPI_LOCALRANKID -u SLURM_LOCALID OMPI_COMM_WORLD_LOCAL_RANK=5 %t 2>&1 | %fcheck --check-prefix=OFF --implicit-check-not=warning
// RUN: %run env -u OMP_DEFAULT_DEVICE -u OMPI_COMM_WORLD_LOCAL_RANK -u MPI_LOCALRANKID -u SLURM_LOCALID OMPTARGET_LOCAL_RANK_DEVICE=1 %t 2>&1 | %fcheck --check-prefix=NONE
// RUN: %run env -u OMP_DEFAULT_DEVICE -u MPI_LOCALRANKID -u SLURM_LOCALID OMPTARGET_LOCAL_RANK_DEVICE=1 OMPI_COMM_WORLD_LOCAL_RANK=5 OMPTARGET_HOST_NUM_DEVICES=0 %t 2>&1 | %fcheck --check-prefix=ZERO --implicit-check-not=LOCAL_RANK
#include <omp.h>
#include <pthread.h>
#include <stdio.h>

#pragma omp declare target
int Where = -1;  // 100 + its device's number on each device
#pragma omp end declare target

// 100 + the number of the device the region without a device clause ran
// on, or -1: on the host.
static int regionRanOn(void) {
  int R = -2;
#pragma omp target map(from : R)
  R = Where;
  return R;
}

static void *fromThread(void *Arg) {
  (void)Arg;
  printf("thread: default=%d region=%d\n", omp_get_default_device(), regionRanOn());
  return NULL;
}

int main(void) {
  setbuf(stdout, NULL);
  const int N = omp_get_num_devices();
  for (int D = 0; D < N; ++D) {
    Where = 100 + D;
#pragma omp target update to(Where) device(D)
  }
  Where = -1;

  // OMPI: num_devices=4 default=1 region=101
  // HYDRA: num_devices=4 default=2 region=102
  // SLURM: num_devices=4 default=3 region=103
  // THREE: num_devices=3 default=2 region=102
  // OMPDEF: num_devices=4 default=0 region=100
  // OFF: num_devices=4 default=0 region=100
  // NONE: Libomptarget warning: OMPTARGET_LOCAL_RANK_DEVICE=1: no node-local rank in the environment (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID or SLURM_LOCALID is not set); the default device stays as it is
  // NONE-NOT: warning
  // NONE: num_devices=4 default=0 region=100
  // ZERO: num_devices=0 default=0 region=-1
  printf("num_devices=%d default=%d region=%d\n", N, omp_get_default_device(), regionRanOn());

  // Inherited by the threads of a parallel region and by tasks.
  const int Default = omp_get_default_device();
  int Agree = 1;
#pragma omp parallel num_threads(3) reduction(&& : Agree)
  Agree = omp_get_default_device() == Default && regionRanOn() == (N ? 100 + Default : -1);
  int InTask = -1;
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp task shared(InTask)
  InTask = omp_get_default_device();
  // OMPI: parallel agree=1 task default=1
  // OMPDEF: parallel agree=1 task default=0
  // ZERO: parallel agree=1 task default=0
  printf("parallel agree=%d task default=%d\n", Agree, InTask);

  // A thread the program starts (a new root for libomp).
  pthread_t T;
  pthread_create(&T, NULL, fromThread, NULL);
  pthread_join(T, NULL);
  // OMPI: thread: default=1 region=101
  // SLURM: thread: default=3 region=103
  // ZERO: thread: default=0 region=-1

  // A call wins, as ever.
  if (N > 2) {
    omp_set_default_device(2);
    // OMPI: after set: default=2 region=102
    printf("after set: default=%d region=%d\n", omp_get_default_device(), regionRanOn());
  }
  return 0;
}

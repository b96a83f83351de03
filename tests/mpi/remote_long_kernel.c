// A region that runs longer than OMPTARGET_MPI_TIMEOUT_MS on a remote
// device (run_mpi_test.sh's `long-kernel` case sets 1000 ms; each region
// here takes 2.5 s): the server tells the program the work goes on, so the
// region completes instead of being reported as an unanswering rank. A
// plain region with a map(from:) copy after the kernel (a Retrieve that
// waits for it), and a nowait region waited for by taskwait (a
// Synchronize). Then a 16 MiB omp_target_memcpy from a second thread while
// the first runs a long region: the server takes its bytes only after the
// region (it serves one request at a time), and the copy waits for them as
// long as the server says it is busy.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double spin(double Seconds) {
  const double End = omp_get_wtime() + Seconds;
  double Sum = 0;
  while (omp_get_wtime() < End) Sum += 1;
  return Sum;
}

int main(void) {
  const int Dev = omp_get_num_devices() - 1;  // the server's last device
  double A = 0, B = 0;
  const double T0 = omp_get_wtime();
#pragma omp target map(from : A) device(Dev)
  A = spin(2.5);
#pragma omp target map(from : B) device(Dev) nowait
  B = spin(2.5);
#pragma omp taskwait
  const double T = omp_get_wtime() - T0;
  printf("long regions on device %d: %s (%.1f s)\n", Dev, A > 0 && B > 0 ? "ok" : "WRONG", T);

  enum { BIG = 16 << 20 };
  unsigned char *Big = malloc(BIG);
  unsigned char Back[64];
  memset(Big, 7, BIG);
  Big[BIG - 1] = 9;
  void *D = omp_target_alloc(BIG, Dev);
  int Rc = -1;
  double C = 0;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) {
#pragma omp target map(from : C) device(Dev)
      C = spin(2.5);
    } else {
      spin(0.5);  // the region's Launch first
      Rc = omp_target_memcpy(D, Big, BIG, 0, 0, Dev, omp_get_initial_device());
    }
  }
  Rc |=
      omp_target_memcpy(Back, D, sizeof Back, 0, BIG - sizeof Back, omp_get_initial_device(), Dev);
  const int CopyOk = Rc == 0 && C > 0 && Back[0] == 7 && Back[sizeof Back - 1] == 9;
  printf("copy beside a long region: %s\n", CopyOk ? "ok" : "WRONG");
  omp_target_free(D, Dev);
  free(Big);
  return !(A > 0 && B > 0 && CopyOk);
}

// A region that runs longer than OMPTARGET_MPI_TIMEOUT_MS on a remote
// device (run_mpi_test.sh's `long-kernel` case sets 1000 ms; each region
// here takes 2.5 s): the server tells the program the work goes on, so the
// region completes instead of being reported as an unanswering rank. A
// plain region with a map(from:) copy after the kernel (a Retrieve that
// waits for it), and a nowait region waited for by taskwait (a
// Synchronize).
#include <omp.h>
#include <stdio.h>

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
  return !(A > 0 && B > 0);
}

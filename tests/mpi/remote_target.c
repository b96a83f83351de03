// Runs target regions, target data and target update on the first remote
// (MPI) device: the last omp_get_num_devices() - REMOTE devices are remote
// (MPI_REMOTE_DEVICES, set by the test, says how many). Prints whether the
// region ran in this process or another (a device server's).
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define N 100000

int main(void) {
  int Remote = atoi(getenv("MPI_REMOTE_DEVICES") ? getenv("MPI_REMOTE_DEVICES") : "0");
  int Num = omp_get_num_devices();
  int Dev = Num - Remote;  // the first remote device
  printf("devices: %d, using device %d\n", Num, Dev);
  static double A[N], B[N];
  for (int I = 0; I < N; ++I) {
    A[I] = I;
    B[I] = 0;
  }
  int Pid = 0;
#pragma omp target map(tofrom : A, B, Pid) device(Dev)
  {
    Pid = getpid();
    for (int I = 0; I < N; ++I) B[I] = 2 * A[I] + 1;
  }
  long Bad = 0;
  for (int I = 0; I < N; ++I) Bad += B[I] != 2.0 * I + 1;
  printf("target tofrom: %s, ran in %s\n", Bad ? "WRONG" : "ok",
         Pid == getpid() ? "this process" : "another process");

  int Sum = 0;
#pragma omp target data map(to : A) map(from : B) device(Dev)
  {
    for (int I = 0; I < N; ++I) A[I] = 1;
#pragma omp target update to(A) device(Dev)
#pragma omp target teams distribute parallel for device(Dev)
    for (int I = 0; I < N; ++I) B[I] = A[I] * 3;
  }
  for (int I = 0; I < N; ++I) Sum += B[I] == 3.0;
  printf("target data/update: %s\n", Sum == N ? "ok" : "WRONG");
  return Bad || Sum != N;
}

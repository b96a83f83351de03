// An nvptx64 program on a remote (MPI) device whose server runs the fake
// CUDA driver (tests/fake_cuda/fake_libcuda.cpp: device memory is real host
// memory of the server, kernels do not run):
// DEV below is a device number, or, when negative, counts from the end
// (-1: the last device). The test knows the numbering; the line printed has
// the device's uid, "mpi-<its number in the plugin>", whose query does not
// start the device (asking its properties would start every device of the
// plugin, loading the image on each).
//   remote_fakecuda cuda DEV    DEV is a remote cuda device:
//                               omp_target_alloc and omp_target_memcpy to
//                               and from it round-trip 1 MiB, as does a copy
//                               within it; a target region's image loads
//                               there and its launch is accepted; four
//                               queued retrieves (omp_target_memcpy_async
//                               of a quarter each, from several threads)
//                               land by taskwait ("OK" lines; exit status
//                               0)
//   remote_fakecuda refuse DEV  a target region on device DEV, a remote
//                               x86_64 device: the program's only image,
//                               nvptx64, must be refused there (the test
//                               checks the error line)
#include <omp.h>
#include <omptarget/omp_target_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BYTES = 1 << 20 };

static int deviceNumber(const char *Arg) {
  const int N = atoi(Arg);
  return N < 0 ? omp_get_num_devices() + N : N;
}

int main(int argc, char **argv) {
  if (argc < 3) return 2;
  const int Host = omp_get_initial_device();
  const int Dev = deviceNumber(argv[2]);
  if (strcmp(argv[1], "refuse") == 0) {
    printf("devices: %d, region on device %d\n", omp_get_num_devices(), Dev);
    fflush(stdout);
    int X = 0;
#pragma omp target map(tofrom : X) device(Dev)
    { X = 1; }
    printf("region on device %d returned (X = %d)\n", Dev, X);
    return 0;
  }
  if (strcmp(argv[1], "cuda") != 0) return 2;
  const char *Uid = omp_get_uid_from_device(Dev);
  printf("devices: %d, remote cuda device %d (uid %s)\n", omp_get_num_devices(), Dev,
         Uid ? Uid : "none");
  fflush(stdout);

  unsigned char *In = malloc(BYTES), *Out = malloc(BYTES);
  for (int I = 0; I < BYTES; ++I) In[I] = (unsigned char)(I * 7 + 3);
  memset(Out, 0, BYTES);
  void *D = omp_target_alloc(BYTES, Dev);
  void *D2 = omp_target_alloc(BYTES, Dev);
  if (!D || !D2) {
    printf("FAILED: omp_target_alloc on device %d\n", Dev);
    return 1;
  }
  int Rc = omp_target_memcpy(D, In, BYTES, 0, 0, Dev, Host);
  Rc |= omp_target_memcpy(Out, D, BYTES, 0, 0, Host, Dev);
  printf("remote GPU copy to and from: %s\n",
         Rc == 0 && memcmp(In, Out, BYTES) == 0 ? "OK" : "FAILED");
  // Within the device, at an offset, then back.
  memset(Out, 0, BYTES);
  Rc = omp_target_memcpy(D2, D, BYTES / 2, 0, BYTES / 2, Dev, Dev);
  Rc |= omp_target_memcpy(Out, D2, BYTES / 2, 0, 0, Host, Dev);
  printf("remote GPU copy within the device: %s\n",
         Rc == 0 && memcmp(In + BYTES / 2, Out, BYTES / 2) == 0 ? "OK" : "FAILED");
  omp_target_free(D2, Dev);

  // Queued retrieves: each quarter on a queue of its own (a target task
  // each), the data arriving in Out by the taskwait.
  memset(Out, 0, BYTES);
  Rc = 0;
#pragma omp parallel for num_threads(4) reduction(| : Rc)
  for (int Q = 0; Q < 4; ++Q)
    Rc |= omp_target_memcpy_async(Out, D, BYTES / 4, (size_t)Q * (BYTES / 4),
                                  (size_t)Q * (BYTES / 4), Host, Dev, 0, NULL);
#pragma omp taskwait
  printf("remote GPU queued copies from: %s\n",
         Rc == 0 && memcmp(In, Out, BYTES) == 0 ? "OK" : "FAILED");
  omp_target_free(D, Dev);

  // The region's kernel does nothing on the fake driver: what counts is that
  // the image loads on the remote GPU and the launch and copies succeed.
  int X = 41;
#pragma omp target map(tofrom : X) device(Dev)
  { X += 1; }
  printf("remote GPU region: launched\n");
  free(In);
  free(Out);
  return 0;
}

// The MPI plugin's benchmark, OpenMP side: run as rank 0 of
//   mpirun -np 1 mpi_offload_bench : -np 1 omptarget-mpi-device
// it times offloading to the first REMOTE device, the device server's first
// host device. The remote devices come after this process's local ones:
// the device used is MPI_BENCH_LOCAL_DEVICES (default
// OMPTARGET_HOST_NUM_DEVICES, default 4: the host plugin's local count).
//
// Cases (one line each: `case=NAME value=V unit=U reps=N`):
//   empty_region      `#pragma omp target device(D)` with nothing mapped:
//                     one launch and its synchronize round trip (the plugin
//                     sends a Launch request and a Synchronize request and
//                     waits for each reply). Each region timed on its own;
//                     median in us/region.
//   submit_<size>     omp_target_memcpy host -> remote device of <size>
//                     bytes into an omp_target_alloc'ed buffer (the plugin's
//                     Submit: one request, the data in chunks, one reply);
//                     median of reps, GB/s (10^9 bytes/s).
//   retrieve_<size>   omp_target_memcpy remote device -> host, the same
//                     buffer (Retrieve: one request, a reply, the data, a
//                     trailer); median of reps, GB/s.
//                     Sizes 4K 64K 1M 16M 256M 1G, up to MPI_BENCH_MAX_BYTES
//                     (the sizes and the reps rule: copy_sizes.h).
//                     Each size is checked once (a pattern there and back).
//   exchange_<size>   only with MPI_BENCH_CASES=exchange, under 2 servers
//                     (`: -np 2 omptarget-mpi-device`): omp_target_memcpy
//                     from the first server's device to the second's (the
//                     next device), server to server; sizes 1M 16M 256M 1G
//                     up to MPI_BENCH_MAX_BYTES, reps as for submit;
//                     median GB/s; each size checked once on the host.
//   nowait_chain      MPI_BENCH_CHAIN `target nowait depend(inout: x)`
//                     regions in a chain (each increments a declare-target
//                     counter on the device), then taskwait; the median of
//                     MPI_BENCH_CHAIN_REPS chains, regions/s. The counter is
//                     read back and checked after the chains.
// Environment (all optional):
//   MPI_BENCH_CASES          exchange: the exchange cases only; otherwise
//                            all the others
//   MPI_BENCH_LOCAL_DEVICES  local device count (see above)
//   MPI_BENCH_MAX_BYTES      largest copy size (default 1 GiB)
//   MPI_BENCH_REGIONS        empty regions timed (default 2000)
//   MPI_BENCH_CHAIN          regions per chain (default 500)
//   MPI_BENCH_CHAIN_REPS     chains (default 5)
//   MPI_BENCH_COPY_BYTES     bytes copied per size and direction, which sets
//                            the reps: clamp(this / size, 3, 100)
//                            (default 1 GiB)
// A failed check prints `ERROR ...` and exits 1.
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "copy_sizes.h"

#pragma omp declare target
int Counter = 0;
#pragma omp end declare target

static double now_s(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return (double)T.tv_sec + 1e-9 * (double)T.tv_nsec;
}

static int cmp_double(const void *A, const void *B) {
  double X = *(const double *)A, Y = *(const double *)B;
  return (X > Y) - (X < Y);
}

static double median(double *V, int N) {
  qsort(V, (size_t)N, sizeof(double), cmp_double);
  return N % 2 ? V[N / 2] : 0.5 * (V[N / 2 - 1] + V[N / 2]);
}

// exchange_<size>: Src's buffer to Dst's, both remote (mpi_baseline.c's
// exchange cases are the same messages in plain MPI).
static int exchangeCases(int Src, int Dst, int Num) {
  if (Dst >= Num) {
    printf("ERROR exchange needs two remote devices (%d and %d; %d devices): run with 2 servers\n",
           Src, Dst, Num);
    return 1;
  }
  const int Host = omp_get_initial_device();
  struct CopySize Copy;
  for (size_t S = 0; copy_size(&kExchangeSizes, S, &Copy); ++S) {
    const size_t Bytes = Copy.Bytes;
    unsigned char *Buf = malloc(Bytes), *Back = malloc(Bytes);
    void *A = omp_target_alloc(Bytes, Src), *B = omp_target_alloc(Bytes, Dst);
    if (!Buf || !Back || !A || !B) {
      printf("ERROR could not allocate %zu bytes (host or devices %d, %d)\n", Bytes, Src, Dst);
      return 1;
    }
    for (size_t I = 0; I < Bytes; ++I) Buf[I] = (unsigned char)(I * 13 + 5);
    memset(Back, 0, Bytes);
    if (omp_target_memcpy(A, Buf, Bytes, 0, 0, Src, Host) ||
        omp_target_memcpy(B, A, Bytes, 0, 0, Dst, Src) ||
        omp_target_memcpy(Back, B, Bytes, 0, 0, Host, Dst) || memcmp(Buf, Back, Bytes)) {
      printf("ERROR exchange of %zu bytes from device %d to %d: wrong or failed\n", Bytes, Src,
             Dst);
      return 1;
    }
    const int Reps = Copy.Reps;
    double *Ts = malloc(sizeof(double) * (size_t)Reps);
    for (int R = 0; R < Reps; ++R) {
      const double T0 = now_s();
      if (omp_target_memcpy(B, A, Bytes, 0, 0, Dst, Src)) {
        printf("ERROR exchange of %zu bytes failed\n", Bytes);
        return 1;
      }
      Ts[R] = now_s() - T0;
    }
    printf("case=exchange_%s value=%.3f unit=GB/s reps=%d\n", Copy.Name,
           (double)Bytes / median(Ts, Reps) / 1e9, Reps);
    fflush(stdout);
    free(Ts);
    omp_target_free(A, Src);
    omp_target_free(B, Dst);
    free(Buf);
    free(Back);
  }
  return 0;
}

int main(void) {
  const int Local = (int)envLong("MPI_BENCH_LOCAL_DEVICES", envLong("OMPTARGET_HOST_NUM_DEVICES", 4));
  const int Num = omp_get_num_devices();
  const int Host = omp_get_initial_device();
  const int Dev = Local;
  if (Dev < 0 || Dev >= Num) {
    printf("ERROR no remote device: %d devices, %d local (run under mpirun with a server rank)\n",
           Num, Local);
    return 1;
  }
  int Pid = 0;
#pragma omp target map(from : Pid) device(Dev)
  Pid = getpid();
  printf("devices: %d, using device %d, region ran in %s\n", Num, Dev,
         Pid == getpid() ? "this process" : "another process");
  if (Pid == getpid()) {
    printf("ERROR device %d is not remote\n", Dev);
    return 1;
  }

  const char *Only = getenv("MPI_BENCH_CASES");
  if (Only && !strcmp(Only, "exchange")) return exchangeCases(Dev, Dev + 1, Num);

  // ---- empty_region
  const int Regions = (int)envLong("MPI_BENCH_REGIONS", 2000);
  double *T = malloc(sizeof(double) * (size_t)(Regions > 0 ? Regions : 1));
  for (int I = 0; I < 50; ++I) {
#pragma omp target device(Dev)
    {}
  }
  for (int I = 0; I < Regions; ++I) {
    const double T0 = now_s();
#pragma omp target device(Dev)
    {}
    T[I] = now_s() - T0;
  }
  {
    const double Med = median(T, Regions);  // sorts T
    printf("case=empty_region value=%.2f unit=us/region reps=%d p10=%.2f p90=%.2f\n", 1e6 * Med,
           Regions, 1e6 * T[Regions / 10], 1e6 * T[Regions * 9 / 10]);
  }
  free(T);
  fflush(stdout);

  // ---- submit_<size>, retrieve_<size>
  const size_t Largest = copy_sizes_largest(&kCopySizes);
  if (Largest) {
    unsigned char *Buf = malloc(Largest), *Back = malloc(Largest);
    void *DevBuf = omp_target_alloc(Largest, Dev);
    if (!Buf || !Back || !DevBuf) {
      printf("ERROR could not allocate %zu bytes here or on device %d\n", Largest, Dev);
      return 1;
    }
    memset(Buf, 1, Largest);  // touch every page before timing
    memset(Back, 2, Largest);
    struct CopySize Copy;
    for (size_t S = 0; copy_size(&kCopySizes, S, &Copy); ++S) {
      const size_t Bytes = Copy.Bytes;
      // Check: a pattern there and back (also the warm-up of this size).
      for (size_t I = 0; I < Bytes; I += 4096) Buf[I] = (unsigned char)(I / 4096 * 7 + S);
      Buf[Bytes - 1] = 0x5a;
      if (omp_target_memcpy(DevBuf, Buf, Bytes, 0, 0, Dev, Host) ||
          omp_target_memcpy(Back, DevBuf, Bytes, 0, 0, Host, Dev)) {
        printf("ERROR omp_target_memcpy of %zu bytes failed\n", Bytes);
        return 1;
      }
      if (memcmp(Buf, Back, Bytes) != 0) {
        printf("ERROR %zu bytes came back different\n", Bytes);
        return 1;
      }
      const int Reps = Copy.Reps;
      double *Ts = malloc(sizeof(double) * (size_t)Reps);
      for (int R = 0; R < Reps; ++R) {
        const double T0 = now_s();
        int Rc = omp_target_memcpy(DevBuf, Buf, Bytes, 0, 0, Dev, Host);
        Ts[R] = now_s() - T0;
        if (Rc) { printf("ERROR submit of %zu bytes failed\n", Bytes); return 1; }
      }
      printf("case=submit_%s value=%.3f unit=GB/s reps=%d\n", Copy.Name,
             (double)Bytes / median(Ts, Reps) / 1e9, Reps);
      for (int R = 0; R < Reps; ++R) {
        const double T0 = now_s();
        int Rc = omp_target_memcpy(Back, DevBuf, Bytes, 0, 0, Host, Dev);
        Ts[R] = now_s() - T0;
        if (Rc) { printf("ERROR retrieve of %zu bytes failed\n", Bytes); return 1; }
      }
      printf("case=retrieve_%s value=%.3f unit=GB/s reps=%d\n", Copy.Name,
             (double)Bytes / median(Ts, Reps) / 1e9, Reps);
      free(Ts);
      fflush(stdout);
    }
    omp_target_free(DevBuf, Dev);
    free(Buf);
    free(Back);
  }

  // ---- nowait_chain
  const int Chain = (int)envLong("MPI_BENCH_CHAIN", 500);
  const int ChainReps = (int)envLong("MPI_BENCH_CHAIN_REPS", 5);
  if (Chain > 0 && ChainReps > 0) {
    int X = 0;
    double *Ts = malloc(sizeof(double) * (size_t)ChainReps);
    Counter = 0;
#pragma omp target update to(Counter) device(Dev)
    for (int R = 0; R < ChainReps; ++R) {
      const double T0 = now_s();
      for (int I = 0; I < Chain; ++I) {
#pragma omp target nowait depend(inout : X) device(Dev)
        { ++Counter; }
      }
#pragma omp taskwait
      Ts[R] = now_s() - T0;
    }
#pragma omp target update from(Counter) device(Dev)
    if (Counter != Chain * ChainReps) {
      printf("ERROR nowait_chain: the device counted %d regions, %d expected\n", Counter,
             Chain * ChainReps);
      return 1;
    }
    printf("case=nowait_chain value=%.0f unit=regions/s reps=%d\n", Chain / median(Ts, ChainReps),
           ChainReps);
    free(Ts);
  }
  printf("done\n");
  return 0;
}

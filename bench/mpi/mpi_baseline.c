// The MPI plugin's benchmark, plain MPI side (the baseline): two ranks,
//   mpirun -np 2 mpi_baseline
// exchanging the messages the plugin exchanges, with blocking MPI_Send and
// MPI_Recv and nothing else. Rank 0 plays the program, rank 1 the server.
//
// Cases (rank 0 prints one line each: `case=NAME value=V unit=U reps=N`):
//   empty_region      what one empty target region costs the plugin on the
//                     wire: a Launch request (40-byte header + 68-byte
//                     payload, no arguments) and a Synchronize request
//                     (40 + 12) sent, then the StatusReply (40 + 8) of
//                     each taken, as the plugin does since it posts a
//                     queued Launch (its reply taken at the Synchronize);
//                     median, us/region.
//   submit_<size>     rank 0 -> rank 1: a 72-byte request (Submit: header +
//                     copy payload), then the data in chunks of at most
//                     8 MiB (kMaxChunkBytes, mpi_protocol.h) received in
//                     place, then a 48-byte reply; median, GB/s.
//   retrieve_<size>   rank 1 -> rank 0: a 72-byte request, a 48-byte reply,
//                     the data in 8 MiB chunks received in place, then a
//                     48-byte trailer; median, GB/s.
//                     Sizes 4K 64K 1M 16M 256M 1G, up to MPI_BENCH_MAX_BYTES
//                     (copy_sizes.h, as for mpi_offload_bench.c).
//   exchange_<size>   with MPI_BENCH_CASES=exchange and 3 ranks: rank 0
//                     sends an Exchange request (40 + 52 bytes) to rank 2,
//                     then to rank 1; rank 1 sends the data to rank 2 in
//                     8 MiB chunks; both answer rank 0 (40 + 8); timed on
//                     rank 0; median GB/s. Sizes 1M 16M 256M 1G.
//   nowait_chain      not measured here (no MPI counterpart beyond
//                     empty_region: the script compares it with 1/empty_region).
// The byte counts are those of mpi_protocol.h/.cpp for clang 14's empty
// kernel (no arguments) and an empty status message. The message sizes
// matter little; what differs from the plugin is everything else: no
// polling with yields, no request decoding.
// Environment: MPI_BENCH_MAX_BYTES, MPI_BENCH_REGIONS, MPI_BENCH_COPY_BYTES,
// as for mpi_offload_bench.c (the same defaults; the sizes and reps rule
// are copy_sizes.h's).
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copy_sizes.h"

enum { kHeader = 40, kLaunch = kHeader + 68, kSync = kHeader + 12, kStatus = kHeader + 8,
       kCopyReq = kHeader + 28, kExchangeReq = kHeader + 52, kTagCtl = 1, kTagData = 16 };
static const size_t kChunk = 8u << 20;

static int cmp_double(const void *A, const void *B) {
  double X = *(const double *)A, Y = *(const double *)B;
  return (X > Y) - (X < Y);
}
static double median(double *V, int N) {
  qsort(V, (size_t)N, sizeof(double), cmp_double);
  return N % 2 ? V[N / 2] : 0.5 * (V[N / 2 - 1] + V[N / 2]);
}

static void sendData(unsigned char *P, size_t Bytes, int To) {
  for (size_t Off = 0; Off < Bytes; Off += kChunk) {
    size_t N = Bytes - Off < kChunk ? Bytes - Off : kChunk;
    MPI_Send(P + Off, (int)N, MPI_BYTE, To, kTagData, MPI_COMM_WORLD);
  }
}
static void recvData(unsigned char *P, size_t Bytes, int From) {
  for (size_t Off = 0; Off < Bytes; Off += kChunk) {
    size_t N = Bytes - Off < kChunk ? Bytes - Off : kChunk;
    MPI_Recv(P + Off, (int)N, MPI_BYTE, From, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

// exchange_<size> (MPI_BENCH_CASES=exchange, 3 ranks): rank 0 sends an
// Exchange request to rank 2 (receive) and to rank 1 (send); rank 1 sends
// the data to rank 2 in 8 MiB chunks; each answers rank 0 with a status;
// timed on rank 0 from the first request to the second reply.
static int exchangeCases(int Rank) {
  unsigned char Ctl[256] = {0};
  const size_t Largest = copy_sizes_largest(&kExchangeSizes);
  unsigned char *Buf = Rank && Largest ? malloc(Largest) : NULL;
  if (Buf) memset(Buf, 1, Largest);  // touch every page before timing
  struct CopySize Copy;
  for (size_t S = 0; copy_size(&kExchangeSizes, S, &Copy); ++S) {
    const size_t Bytes = Copy.Bytes;
    double *Ts = malloc(sizeof(double) * (size_t)Copy.Reps);
    for (int R = -1; R < Copy.Reps; ++R) {  // R = -1: warm-up
      MPI_Barrier(MPI_COMM_WORLD);
      const double T0 = MPI_Wtime();
      if (Rank == 0) {
        MPI_Send(Ctl, kExchangeReq, MPI_BYTE, 2, kTagCtl, MPI_COMM_WORLD);
        MPI_Send(Ctl, kExchangeReq, MPI_BYTE, 1, kTagCtl, MPI_COMM_WORLD);
        MPI_Recv(Ctl, kStatus, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(Ctl, kStatus, MPI_BYTE, 2, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (R >= 0) Ts[R] = MPI_Wtime() - T0;
      } else {
        MPI_Recv(Ctl, kExchangeReq, MPI_BYTE, 0, kTagCtl, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (Rank == 1)
          sendData(Buf, Bytes, 2);
        else
          recvData(Buf, Bytes, 1);
        MPI_Send(Ctl, kStatus, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD);
      }
    }
    if (Rank == 0)
      printf("case=exchange_%s value=%.3f unit=GB/s reps=%d\n", Copy.Name,
             (double)Bytes / median(Ts, Copy.Reps) / 1e9, Copy.Reps);
    fflush(stdout);
    free(Ts);
  }
  free(Buf);
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank = 0, Size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  const char *Only = getenv("MPI_BENCH_CASES");
  const int Exchange = Only && !strcmp(Only, "exchange");
  if (Size != (Exchange ? 3 : 2)) {
    if (Rank == 0)
      printf("ERROR run with %d ranks (mpirun -np %d), not %d\n", Exchange ? 3 : 2,
             Exchange ? 3 : 2, Size);
    MPI_Finalize();
    return 1;
  }
  if (Exchange) {
    int Rc = exchangeCases(Rank);
    MPI_Finalize();
    return Rc;
  }
  const int Peer = 1 - Rank;
  unsigned char Ctl[256] = {0};

  // ---- empty_region: Launch and Synchronize sent, then both replies taken
  // (the plugin posts a queued Launch and takes its reply at the
  // Synchronize, after sending that).
  const int Regions = (int)envLong("MPI_BENCH_REGIONS", 2000);
  double *T = malloc(sizeof(double) * (size_t)(Regions > 0 ? Regions : 1));
  for (int I = -50; I < Regions; ++I) {
    if (Rank == 0) {
      const double T0 = MPI_Wtime();
      MPI_Send(Ctl, kLaunch, MPI_BYTE, 1, kTagCtl, MPI_COMM_WORLD);
      MPI_Send(Ctl + 128, kSync, MPI_BYTE, 1, kTagCtl, MPI_COMM_WORLD);
      MPI_Recv(Ctl, kStatus, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(Ctl, kStatus, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (I >= 0) T[I] = MPI_Wtime() - T0;
    } else {
      MPI_Recv(Ctl, kLaunch, MPI_BYTE, 0, kTagCtl, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(Ctl, kStatus, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD);
      MPI_Recv(Ctl, kSync, MPI_BYTE, 0, kTagCtl, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(Ctl, kStatus, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD);
    }
  }
  if (Rank == 0)
    printf("case=empty_region value=%.2f unit=us/region reps=%d\n", 1e6 * median(T, Regions),
           Regions);
  free(T);
  fflush(stdout);

  // ---- submit_<size>, retrieve_<size>
  const size_t Largest = copy_sizes_largest(&kCopySizes);
  unsigned char *Buf = Largest ? malloc(Largest) : NULL;
  if (Largest && !Buf) {
    printf("ERROR rank %d could not allocate %zu bytes\n", Rank, Largest);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (Buf) memset(Buf, 1, Largest);  // touch every page before timing
  struct CopySize Copy;
  for (size_t S = 0; copy_size(&kCopySizes, S, &Copy); ++S) {
    const size_t Bytes = Copy.Bytes;
    double *Ts = malloc(sizeof(double) * (size_t)Copy.Reps);
    for (int Dir = 0; Dir < 2; ++Dir) {  // 0: submit (0 -> 1), 1: retrieve (1 -> 0)
      for (int R = -1; R < Copy.Reps; ++R) {  // R = -1: warm-up
        MPI_Barrier(MPI_COMM_WORLD);
        const double T0 = MPI_Wtime();
        if (Rank == 0) {
          MPI_Send(Ctl, kCopyReq, MPI_BYTE, 1, kTagCtl, MPI_COMM_WORLD);
          if (Dir == 0) {
            sendData(Buf, Bytes, 1);
          } else {
            MPI_Recv(Ctl, kStatus, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            recvData(Buf, Bytes, 1);
          }
          MPI_Recv(Ctl, kStatus, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          if (R >= 0) Ts[R] = MPI_Wtime() - T0;
        } else {
          MPI_Recv(Ctl, kCopyReq, MPI_BYTE, 0, kTagCtl, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          if (Dir == 0) {
            recvData(Buf, Bytes, 0);
          } else {
            MPI_Send(Ctl, kStatus, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD);
            sendData(Buf, Bytes, 0);
          }
          MPI_Send(Ctl, kStatus, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD);
        }
      }
      if (Rank == 0)
        printf("case=%s_%s value=%.3f unit=GB/s reps=%d\n", Dir == 0 ? "submit" : "retrieve",
               Copy.Name, (double)Bytes / median(Ts, Copy.Reps) / 1e9, Copy.Reps);
      fflush(stdout);
    }
    free(Ts);
  }
  free(Buf);
  if (Rank == 0) printf("done\n");
  MPI_Finalize();
  return 0;
}

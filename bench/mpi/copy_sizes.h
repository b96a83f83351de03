// The copy sizes of the MPI plugin's benchmark, shared by its two programs
// (mpi_offload_bench.c, built with clang -fopenmp, and mpi_baseline.c,
// built with mpicc; this header is all they share), so that both time the
// same sizes with the same reps.
//
// Contract:
//   kCopySizes         submit_<size> and retrieve_<size>: 4K 64K 1M 16M
//                      256M 1G
//   kExchangeSizes     exchange_<size>: 1M 16M 256M 1G
//   copy_size          the I-th size of a list that a run takes, with its
//                      reps and its name; 0 past the last. A run takes the
//                      sizes up to MPI_BENCH_MAX_BYTES (default 1 GiB).
//   copy_sizes_largest the largest size a run takes (0: none)
//   copy_reps          the reps of one size: clamp(MPI_BENCH_COPY_BYTES /
//                      size, 3, 100) (default 1 GiB)
//   sizeName           <size> in a case's name: 4K, 16M, 1G (else bytes)
//   envLong            a number from the environment (Default when unset
//                      or empty)
// The environment is read at each call.
#pragma once

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

struct CopySizes {
  size_t Count;
  size_t Bytes[6];
};

static const struct CopySizes kCopySizes = {
    6, {4u << 10, 64u << 10, 1u << 20, 16u << 20, 256u << 20, 1u << 30}};
static const struct CopySizes kExchangeSizes = {4, {1u << 20, 16u << 20, 256u << 20, 1u << 30}};

static inline long envLong(const char *Name, long Default) {
  const char *V = getenv(Name);
  return V && *V ? strtol(V, NULL, 10) : Default;
}

// How many of List's sizes (which ascend) a run takes.
static inline size_t copy_sizes_taken(const struct CopySizes *List) {
  const size_t MaxBytes = (size_t)envLong("MPI_BENCH_MAX_BYTES", 1L << 30);
  size_t Taken = 0;
  while (Taken < List->Count && List->Bytes[Taken] <= MaxBytes) ++Taken;
  return Taken;
}

static inline size_t copy_sizes_largest(const struct CopySizes *List) {
  const size_t Taken = copy_sizes_taken(List);
  return Taken ? List->Bytes[Taken - 1] : 0;
}

static inline int copy_reps(size_t Bytes) {
  const double CopyBytes = (double)envLong("MPI_BENCH_COPY_BYTES", 1L << 30);
  const int Reps = (int)(CopyBytes / (double)Bytes);
  return Reps < 3 ? 3 : Reps > 100 ? 100 : Reps;
}

static inline void sizeName(size_t Bytes, char *Out, size_t N) {
  if (Bytes >= (1u << 30) && Bytes % (1u << 30) == 0)
    snprintf(Out, N, "%zuG", Bytes >> 30);
  else if (Bytes >= (1u << 20) && Bytes % (1u << 20) == 0)
    snprintf(Out, N, "%zuM", Bytes >> 20);
  else if (Bytes >= 1024 && Bytes % 1024 == 0)
    snprintf(Out, N, "%zuK", Bytes >> 10);
  else
    snprintf(Out, N, "%zu", Bytes);
}

// One size of a run: its bytes, its reps and its name in the case's name.
struct CopySize {
  size_t Bytes;
  int Reps;
  char Name[16];
};

static inline int copy_size(const struct CopySizes *List, size_t I, struct CopySize *Out) {
  if (I >= copy_sizes_taken(List)) return 0;
  Out->Bytes = List->Bytes[I];
  Out->Reps = copy_reps(Out->Bytes);
  sizeName(Out->Bytes, Out->Name, sizeof Out->Name);
  return 1;
}

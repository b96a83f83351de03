// API: omp_target_alloc / omp_target_free in loops of mixed sizes (64 B to
// 8 MiB: blocks of the memory manager's size classes and blocks of the
// device's own allocator), several blocks alive at once and freed in another
// order than allocated. Each round a target region writes every block through
// is_device_ptr and omp_target_memcpy reads it back; a block whose memory was
// released too early, or handed out twice, shows up as a wrong byte.
// Then llvm_omp_target_alloc_device / _host / _shared, each freed with its
// matching llvm_omp_target_free_* (not in LLVM 14: where the runtime lacks
// them, omp_target_free frees all three).
// RUN: %clang-offload -O1 %s -o %t
// RUN: %run %t 2>&1 | %fcheck
// RUN: %run env OMPTARGET_HOST_ASYNC_DELAY_US=20 %t 2>&1 | %fcheck
#include <omp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *llvm_omp_target_alloc_device(size_t, int);
void *llvm_omp_target_alloc_host(size_t, int);
void *llvm_omp_target_alloc_shared(size_t, int);
// Weak: LLVM 14's runtime has none of the three.
void llvm_omp_target_free_device(void *, int) __attribute__((weak));
void llvm_omp_target_free_host(void *, int) __attribute__((weak));
void llvm_omp_target_free_shared(void *, int) __attribute__((weak));

enum { NSIZES = 9, ROUNDS = 6 };
static const size_t sizes[NSIZES] = {64,         1000,        4096,    8192,          8193,
                                     64 * 1024, 1024 * 1024, 3000000, 8 * 1024 * 1024};

static unsigned char pattern(size_t i, int round, int k) {
  return (unsigned char)(i * 131 + (size_t)round * 17 + (size_t)k * 5 + 1);
}

// Writes the block on the device, reads it back, counts wrong bytes.
static long fillAndCheck(unsigned char *p, size_t size, int round, int k, int dev,
                         unsigned char *back) {
#pragma omp target teams distribute parallel for is_device_ptr(p) device(dev)
  for (size_t i = 0; i < size; i++) p[i] = pattern(i, round, k);
  memset(back, 0, size);
  if (omp_target_memcpy(back, p, size, 0, 0, omp_get_initial_device(), dev) != 0) return 1;
  long bad = 0;
  for (size_t i = 0; i < size; i++) bad += back[i] != pattern(i, round, k);
  return bad;
}

int main(void) {
  int dev = omp_get_default_device();
  unsigned char *back = malloc(sizes[NSIZES - 1]);
  long bad = 0, nulls = 0;
  for (int round = 0; round < ROUNDS; round++) {
    unsigned char *p[NSIZES];
    // Offset the sizes each round, so consecutive rounds mix them differently.
    for (int k = 0; k < NSIZES; k++) {
      size_t size = sizes[(k + round) % NSIZES];
      p[k] = omp_target_alloc(size, dev);
      nulls += p[k] == NULL;
    }
    if (nulls) break;
    for (int k = 0; k < NSIZES; k++)
      bad += fillAndCheck(p[k], sizes[(k + round) % NSIZES], round, k, dev, back);
    // Free every other block, reallocate them, check all once more.
    for (int k = round % 2; k < NSIZES; k += 2) omp_target_free(p[k], dev);
    for (int k = round % 2; k < NSIZES; k += 2) {
      p[k] = omp_target_alloc(sizes[(k + round) % NSIZES], dev);
      nulls += p[k] == NULL;
    }
    if (nulls) break;
    for (int k = 0; k < NSIZES; k++)
      bad += fillAndCheck(p[k], sizes[(k + round) % NSIZES], round + 1, k, dev, back);
    // Last allocated first.
    for (int k = NSIZES - 1; k >= 0; k--) omp_target_free(p[k], dev);
  }
  omp_target_free(NULL, dev);  // a no-op
  // CHECK: omp_target_alloc: rounds=6 sizes=9 nulls=0 bad=0
  printf("omp_target_alloc: rounds=%d sizes=%d nulls=%ld bad=%ld\n", ROUNDS, NSIZES, nulls, bad);

  // The LLVM extensions, each freed by its own routine.
  long kbad = 0, knulls = 0;
  for (int round = 0; round < ROUNDS; round++) {
    size_t size = sizes[(size_t)round % NSIZES] * 3 + 1;  // at most 8 MiB
    if (size > sizes[NSIZES - 1]) size = sizes[NSIZES - 1];
    unsigned char *d = llvm_omp_target_alloc_device(size, dev);
    unsigned char *h = llvm_omp_target_alloc_host(size, dev);
    unsigned char *s = llvm_omp_target_alloc_shared(size, dev);
    knulls += !d + !h + !s;
    if (knulls) break;
    kbad += fillAndCheck(d, size, round, 1, dev, back);
    kbad += fillAndCheck(h, size, round, 2, dev, back);
    kbad += fillAndCheck(s, size, round, 3, dev, back);
    if (llvm_omp_target_free_device) {
      llvm_omp_target_free_device(d, dev);
      llvm_omp_target_free_host(h, dev);
      llvm_omp_target_free_shared(s, dev);
    } else {
      omp_target_free(d, dev);
      omp_target_free(h, dev);
      omp_target_free(s, dev);
    }
  }
  // CHECK: llvm_omp_target_alloc_*: rounds=6 nulls=0 bad=0
  printf("llvm_omp_target_alloc_*: rounds=%d nulls=%ld bad=%ld\n", ROUNDS, knulls, kbad);
  free(back);
  return bad != 0 || nulls != 0 || kbad != 0 || knulls != 0;
}

// Not on remote devices (remote-mpi): it allocates llvm_omp_target_alloc_host and _shared memory,
// which a device of another process cannot have.
// UNSUPPORTED: remote-mpi

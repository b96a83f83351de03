// API (OpenMP 5.1, beyond LLVM 14): many concurrent omp_target_memcpy_async
// and omp_target_memcpy_rect_async calls from several threads (each thread
// owns a slot on devices 0 and 1), chained host -> dev0 -> dev1 -> host
// through per-slot depend objects, then taskwait in each thread and a
// barrier; every slot's result is checked. Repeated several rounds.
// REQUIRES: omptarget-core
// RUN: %clang-offload -L%libdir %s -o %t && %run env OMP_NUM_THREADS=4 %t 2>&1 | %fcheck
// RUN: %run env OMP_NUM_THREADS=4 OMPTARGET_HOST_ASYNC_DELAY_US=100 %t 2>&1 | %fcheck
#include <omptarget/omp_target_ext.h>
#include <stdio.h>
#include <string.h>

#define THREADS 4
#define PER_THREAD 16
#define SLOTS (THREADS * PER_THREAD)
#define LEN 1024
#define ROUNDS 5

static int src[SLOTS][LEN], dst[SLOTS][LEN];

int main(void) {
  setbuf(stdout, NULL);
  int host = omp_get_initial_device();
  int *d0 = omp_target_alloc(sizeof src, 0);
  int *d1 = omp_target_alloc(sizeof src, 1);
  int bad = 0, rcs = 0;
  for (int round = 0; round < ROUNDS; round++) {
    for (int s = 0; s < SLOTS; s++)
      for (int i = 0; i < LEN; i++) src[s][i] = round * 1000000 + s * LEN + i;
    memset(dst, 0, sizeof dst);
#pragma omp parallel num_threads(THREADS) reduction(| : rcs)
    {
      int t = omp_get_thread_num();
      omp_depend_t obj[PER_THREAD][3];
      for (int k = 0; k < PER_THREAD; k++) {
        int s = t * PER_THREAD + k;
        size_t off = (size_t)s * LEN * sizeof(int);
#pragma omp depobj(obj[k][0]) depend(inout : d0[s * LEN])
#pragma omp depobj(obj[k][1]) depend(inout : d1[s * LEN])
#pragma omp depobj(obj[k][2]) depend(inout : dst[s])
        rcs |= omp_target_memcpy_async(d0, src[s], LEN * sizeof(int), off, 0, 0, host, 1, obj[k]);
        rcs |= omp_target_memcpy_async(d1, d0, LEN * sizeof(int), off, off, 1, 0, 2, obj[k]);
        if (k % 2 == 0) {
          rcs |= omp_target_memcpy_async(dst[s], d1, LEN * sizeof(int), 0, off, host, 1, 2,
                                         &obj[k][1]);
        } else {
          // The same copy as a 2-D rectangle: the slot seen as [LEN/32][32].
          size_t vol[2] = {LEN / 32, 32}, z[2] = {0, 0}, doff[2] = {(size_t)s * (LEN / 32), 0},
                 sdim[2] = {SLOTS * (LEN / 32), 32}, ddim[2] = {LEN / 32, 32};
          rcs |= omp_target_memcpy_rect_async(dst[s], d1, sizeof(int), 2, vol, z, doff, ddim, sdim,
                                              host, 1, 2, &obj[k][1]);
        }
      }
#pragma omp taskwait
      for (int k = 0; k < PER_THREAD; k++)
        for (int j = 0; j < 3; j++) {
#pragma omp depobj(obj[k][j]) destroy
        }
    }
    for (int s = 0; s < SLOTS; s++)
      for (int i = 0; i < LEN; i++)
        if (dst[s][i] != round * 1000000 + s * LEN + i) {
          if (bad < 5)
            printf("round %d slot %d [%d] = %d, expected %d\n", round, s, i, dst[s][i],
                   round * 1000000 + s * LEN + i);
          bad++;
        }
  }
  omp_target_free(d0, 0);
  omp_target_free(d1, 1);
  // CHECK-NOT: Libomptarget error
  // CHECK: rounds=5 slots=64 rc=0 bad=0
  printf("rounds=%d slots=%d rc=%d bad=%d\n", ROUNDS, SLOTS, rcs, bad);
  return 0;
}

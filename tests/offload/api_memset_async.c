// API (OpenMP 6.0, beyond LLVM 14): omp_target_memset_async returns ptr and
// fills in a task that its depend objects order: a fill, then an async copy
// back that depends on the same storage, then a `task depend(in:)` that reads
// the host copy. Several threads at once (each owning slots of one device
// block, several rounds with new values) through per-slot depend objects,
// then taskwait; and a fill ordered after an async copy into the same
// storage (out -> inout). Fills larger than the 1 MiB staging buffer; a
// 0-byte fill still orders its dependences. Errors are reported at the call,
// which returns NULL and creates no task: a bad device, a null pointer, a
// negative depobj_count, a NULL depobj_list with a positive count.
// REQUIRES: omptarget-core
// RUN: %clang-offload -L%libdir %s -o %t && %run env OMP_NUM_THREADS=4 %t 2>&1 | %fcheck
// RUN: %run env OMP_NUM_THREADS=4 OMPTARGET_HOST_ASYNC_DELAY_US=100 %t 2>&1 | %fcheck
#include <omptarget/omp_target_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define PER_THREAD 8
#define SLOTS (THREADS * PER_THREAD)
#define SLOT 4096
#define ROUNDS 4
#define BIG ((size_t)3 * 1024 * 1024 + 7)

static unsigned char back[SLOTS][SLOT];

int main(void) {
  setbuf(stdout, NULL);
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  unsigned char *d = omp_target_alloc((size_t)SLOTS * SLOT, dev);
  int bad = 0, nulls = 0;
  for (int round = 0; round < ROUNDS; round++) {
    memset(back, 0, sizeof back);
#pragma omp parallel num_threads(THREADS) reduction(+ : bad, nulls)
    {
      int t = omp_get_thread_num();
      omp_depend_t obj[PER_THREAD][2];
      for (int k = 0; k < PER_THREAD; k++) {
        int s = t * PER_THREAD + k;
        int value = (round * 37 + s) & 0xff;
#pragma omp depobj(obj[k][0]) depend(inout : d[s * SLOT])
#pragma omp depobj(obj[k][1]) depend(inout : back[s])
        // Whole slot, then a second fill of its middle: order matters.
        nulls += omp_target_memset_async(d + (size_t)s * SLOT, value, SLOT, dev, 1, obj[k]) == NULL;
        nulls += omp_target_memset_async(d + (size_t)s * SLOT + 100, value ^ 0xff, 200, dev, 1,
                                         obj[k]) == NULL;
        nulls += omp_target_memcpy_async(back[s], d, SLOT, 0, (size_t)s * SLOT, host, dev, 2,
                                         obj[k]) != 0;
#pragma omp task depend(in : back[s]) firstprivate(s, value) shared(bad)
        {
          for (int i = 0; i < SLOT; i++) {
            int want = i >= 100 && i < 300 ? (value ^ 0xff) : value;
            if (back[s][i] != want) {
#pragma omp atomic
              bad++;
            }
          }
        }
      }
#pragma omp taskwait
      for (int k = 0; k < PER_THREAD; k++)
        for (int j = 0; j < 2; j++) {
#pragma omp depobj(obj[k][j]) destroy
        }
    }
  }
  // CHECK-NOT: Libomptarget error
  // CHECK: threads: rounds=4 slots=32 nulls=0 bad=0
  printf("threads: rounds=%d slots=%d nulls=%d bad=%d\n", ROUNDS, SLOTS, nulls, bad);

  // A large fill after a copy into the same storage, then a 0-byte fill and
  // a copy back, all ordered by one depend object.
  unsigned char *big = omp_target_alloc(BIG, dev);
  unsigned char *src = malloc(BIG), *out = malloc(BIG);
  memset(src, 0x42, BIG);
  memset(out, 0, BIG);
  omp_depend_t o;
#pragma omp depobj(o) depend(inout : big[0])
  int rc = omp_target_memcpy_async(big, src, BIG, 0, 0, dev, host, 1, &o);
  void *r1 = omp_target_memset_async(big + 1, 0x99, BIG - 2, dev, 1, &o);
  void *r0 = omp_target_memset_async(big, 0, 0, dev, 1, &o);
  rc |= omp_target_memcpy_async(out, big, BIG, 0, 0, host, dev, 1, &o);
#pragma omp taskwait
#pragma omp depobj(o) destroy
  size_t wrong = 0;
  for (size_t i = 1; i < BIG - 1; i++) wrong += out[i] != 0x99;
  // CHECK: ordered: rc=0 r1=1 r0=1 first=0x42 last=0x42 wrong=0
  printf("ordered: rc=%d r1=%d r0=%d first=0x%x last=0x%x wrong=%zu\n", rc, r1 == big + 1,
         r0 == big, out[0], out[BIG - 1], wrong);

  // No dependences at all (depobj_count 0, NULL list), then taskwait.
  void *r = omp_target_memset_async(big, 0x5, 64, dev, 0, NULL);
#pragma omp taskwait
  omp_target_memcpy(out, big, 64, 0, 0, host, dev);
  // CHECK: no deps: r=1 out0=5 out63=5
  printf("no deps: r=%d out0=%d out63=%d\n", r == big, out[0], out[63]);

  // Errors: NULL at once, no task.
  omp_depend_t e;
#pragma omp depobj(e) depend(inout : big[0])
  // CHECK: Libomptarget error: omp_target_memset_async: invalid device number 99
  void *e1 = omp_target_memset_async(big, 0, 8, 99, 1, &e);
  // CHECK: Libomptarget error: omp_target_memset_async: null pointer
  void *e2 = omp_target_memset_async(NULL, 0, 8, dev, 1, &e);
  // CHECK: Libomptarget error: omp_target_memset_async: invalid dependences (depobj_count -1
  void *e3 = omp_target_memset_async(big, 0, 8, dev, -1, &e);
  // CHECK: Libomptarget error: omp_target_memset_async: invalid dependences (depobj_count 2, depobj_list 0x0000000000000000)
  void *e4 = omp_target_memset_async(big, 0, 8, dev, 2, NULL);
#pragma omp taskwait
#pragma omp depobj(e) destroy
  omp_target_memcpy(out, big, 8, 0, 0, host, dev);
  // CHECK: errors: 1 1 1 1 untouched=1
  printf("errors: %d %d %d %d untouched=%d\n", e1 == NULL, e2 == NULL, e3 == NULL, e4 == NULL,
         out[0] == 5 && out[7] == 5);
  omp_target_free(big, dev);
  omp_target_free(d, dev);
  free(src);
  free(out);
  return 0;
}

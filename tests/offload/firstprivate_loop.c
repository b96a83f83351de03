// First-private arguments in loops: every region with firstprivate arrays or
// structs gets device buffers for them, filled from the host values at the
// region's start and released at its end (LLVM 14's scheme, which ours
// follows: arguments of less than 1 KiB packed into one buffer, larger ones
// one buffer each). The host changes its values every iteration; each region
// must see exactly that iteration's values, and the device's writes to its
// copies must never reach the host. Variants: a 16 KiB array and a 32 KiB
// struct (one buffer each) with small ones (packed) on one target region; a
// target teams distribute parallel for that reads them; batches of `nowait`
// regions, each reporting into its own slot (clang 14 has a deferred target
// task read its first-private values when it runs, not when it is created:
// the host changes them only after the batch's taskwait).
// Packed arguments keep their alignment (firstprivate_packed_alignment.c
// tests that on its own; here every packed size is a multiple of 16).
// The second run widens the race windows of the asynchronous host device.
// On a GPU each thread copies its first-private values onto its own stack,
// which may hold at most 512 KiB (CUDA's limit per thread) and is reserved
// for every thread the GPU can hold: the sizes stay well below that.
// RUN: %clang-offload -O1 %s -o %t
// RUN: %run %t 2>&1 | %fcheck
// RUN: %run env OMPTARGET_HOST_ASYNC_DELAY_US=20 %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <string.h>

enum { BIG = 4 * 1024, HUGE = 4 * 1024, SMALL = 16, ITERS = 60, BATCHES = 6, NOWAIT = 4 };

struct Params {
  int scale;
  double weights[HUGE];  // 32 KiB
  char tag[8];
};

struct Small {
  double w;
  int a, b;
  short s[SMALL];
};

static int big[BIG];
static struct Params params;
static struct Small small;
static int smallArr[SMALL];

static void setValues(int it) {
  for (int i = 0; i < BIG; i++) big[i] = i + it;
  params.scale = it + 1;
  for (int i = 0; i < HUGE; i++) params.weights[i] = (double)(i % 13) + it;
  strcpy(params.tag, "fp");
  params.tag[2] = (char)('a' + it % 26);
  small.a = it;
  small.b = -it;
  for (int i = 0; i < SMALL; i++) {
    small.s[i] = (short)(i * it);
    smallArr[i] = 3 * i + it;
  }
}

// What a region computes from the values of iteration it, on the host.
static long expected(int it) {
  long s = 0;
  for (int i = 0; i < BIG; i++) s += i + it;
  double w = 0;
  for (int i = 0; i < HUGE; i++) w += (double)(i % 13) + it;
  s += (long)w * (it + 1);
  s += 'a' + it % 26;
  s += 0;  // small.a + small.b
  for (int i = 0; i < SMALL; i++) s += i * it + 3 * i + it;
  return s;
}

// The same on the device, from its first-private copies, which it then
// overwrites (the host must not see that).
#pragma omp declare target
static long compute(int *b, struct Params *p, struct Small *sm, int *sa) {
  long s = 0;
  for (int i = 0; i < BIG; i++) s += b[i];
  double w = 0;
  for (int i = 0; i < HUGE; i++) w += p->weights[i];
  s += (long)w * p->scale;
  s += p->tag[2];
  s += sm->a + sm->b;
  for (int i = 0; i < SMALL; i++) s += sm->s[i] + sa[i];
  for (int i = 0; i < BIG; i++) b[i] = -1;
  p->scale = -1;
  p->weights[0] = -1;
  sm->a = -1;
  sa[0] = -1;
  return s;
}
#pragma omp end declare target

static long hostUntouched(int it) {
  long bad = 0;
  for (int i = 0; i < BIG; i++) bad += big[i] != i + it;
  bad += params.scale != it + 1 || params.weights[0] != (double)it || small.a != it ||
         smallArr[0] != it;
  return bad;
}

int main(void) {
  long bad = 0, untouched = 0, failed = 0;
  for (int it = 0; it < ITERS; it++) {
    setValues(it);
    long got = 0;
#pragma omp target firstprivate(big, params, small, smallArr) map(from : got)
    got = compute(big, &params, &small, smallArr);
    bad += got != expected(it);
    untouched += hostUntouched(it);
  }
  // CHECK: target firstprivate: bad=0 host_untouched=0
  printf("target firstprivate: bad=%ld host_untouched=%ld\n", bad, untouched);
  failed += bad + untouched;

  bad = untouched = 0;
  for (int it = 0; it < ITERS; it++) {
    setValues(it);
    long sum = 0;
#pragma omp target teams distribute parallel for firstprivate(big, params, smallArr) \
    reduction(+ : sum)
    for (int i = 0; i < BIG; i++) sum += big[i] * params.scale + smallArr[i % SMALL];
    long want = 0;
    for (int i = 0; i < BIG; i++) want += (long)(i + it) * (it + 1) + 3 * (i % SMALL) + it;
    bad += sum != want;
    untouched += hostUntouched(it);
  }
  // CHECK: tdpf firstprivate: bad=0 host_untouched=0
  printf("tdpf firstprivate: bad=%ld host_untouched=%ld\n", bad, untouched);
  failed += bad + untouched;

  bad = untouched = 0;
  for (int batch = 0; batch < BATCHES; batch++) {
    setValues(batch);
    long got[NOWAIT];
    for (int k = 0; k < NOWAIT; k++) {
      long *slot = &got[k];
#pragma omp target firstprivate(big, params, small, smallArr) map(from : slot[0:1]) nowait
      slot[0] = compute(big, &params, &small, smallArr);
    }
#pragma omp taskwait
    for (int k = 0; k < NOWAIT; k++) bad += got[k] != expected(batch);
    untouched += hostUntouched(batch);
  }
  // CHECK: nowait firstprivate: bad=0 host_untouched=0
  printf("nowait firstprivate: bad=%ld host_untouched=%ld\n", bad, untouched);
  failed += bad + untouched;
  return failed != 0;
}

// Allocation and release in loops: the maps of every construct are created
// and deleted in the same iteration, so device memory is allocated at the
// start of each construct and released at its end (a 1 KiB block comes back
// through the memory manager's cache, a 4 MiB one through the device's
// allocator; on an asynchronous device the release may be ordered in the
// construct's queue). Every iteration checks its results: a release that
// overtook the construct's own copies back, or a kernel or copy that touched
// released memory, shows up as a wrong value.
//  1. target teams distribute parallel for map(tofrom:) of 3 arrays;
//  2. target enter data / target exit data pairs around a region (and a
//     target update), released by map(from:) and by map(delete:);
//  3. map(alloc:) scratch memory with map(from:) results, on one construct
//     and through an enclosing target data.
// The second run widens the race windows of the asynchronous host device (a
// delay before each queued operation; other configurations ignore it).
// RUN: %clang-offload -O1 %s -o %t
// RUN: %run %t 2>&1 | %fcheck
// RUN: %run env OMPTARGET_HOST_ASYNC_DELAY_US=20 %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { SMALL = 1024 / sizeof(int), LARGE = 4 * 1024 * 1024 / sizeof(int) };

// Iterations per size: the small blocks are cheap, the large ones are not.
static int iterations(int n) { return n == SMALL ? 100 : 8; }

static long tofromThree(int *a, int *b, int *c, int n) {
  long bad = 0;
  for (int it = 0; it < iterations(n); it++) {
    for (int i = 0; i < n; i++) {
      a[i] = i + it;
      b[i] = 2 * i;
      c[i] = -1;
    }
#pragma omp target teams distribute parallel for map(tofrom : a[0:n], b[0:n], c[0:n])
    for (int i = 0; i < n; i++) {
      c[i] = a[i] + b[i];
      a[i] += 1;
      b[i] *= 3;
    }
    for (int i = 0; i < n; i++)
      bad += a[i] != i + it + 1 || b[i] != 6 * i || c[i] != 3 * i + it;
  }
  return bad;
}

static long enterExitPairs(int *a, int *b, int *c, int n) {
  (void)c;
  long bad = 0;
  for (int it = 0; it < iterations(n); it++) {
    for (int i = 0; i < n; i++) {
      a[i] = i ^ it;
      b[i] = 0;
    }
#pragma omp target enter data map(to : a[0:n]) map(alloc : b[0:n])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) b[i] = a[i] + 7;
    if (it % 2 == 0) {
      // The device copy of a changes; the host's is fetched with update.
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++) a[i] = b[i] * 2;
#pragma omp target update from(a[0:n])
      for (int i = 0; i < n; i++) bad += a[i] != ((i ^ it) + 7) * 2;
#pragma omp target exit data map(from : b[0:n]) map(delete : a[0:n])
    } else {
#pragma omp target exit data map(from : b[0:n]) map(release : a[0:n])
    }
    for (int i = 0; i < n; i++) bad += b[i] != (i ^ it) + 7;
    // Both are gone: present no more.
    bad += omp_target_is_present(a, omp_get_default_device()) != 0;
    bad += omp_target_is_present(b, omp_get_default_device()) != 0;
  }
  return bad;
}

static long allocAndFrom(int *a, int *b, int *c, int n) {
  long bad = 0;
  for (int it = 0; it < iterations(n); it++) {
    for (int i = 0; i < n; i++) c[i] = -1;
    int *scratch = b;  // its host contents are never read or written back
#pragma omp target teams distribute parallel for map(alloc : scratch[0:n]) map(from : c[0:n])
    for (int i = 0; i < n; i++) {
      scratch[i] = i * it;
      c[i] = scratch[i] + 1;
    }
    for (int i = 0; i < n; i++) bad += c[i] != i * it + 1;

    for (int i = 0; i < n; i++) a[i] = -1;
#pragma omp target data map(alloc : scratch[0:n])
    {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++) scratch[i] = 3 * i + it;
#pragma omp target teams distribute parallel for map(from : a[0:n])
      for (int i = 0; i < n; i++) a[i] = scratch[i] - it;
    }
    for (int i = 0; i < n; i++) bad += a[i] != 3 * i;
  }
  return bad;
}

int main(void) {
  int *a = malloc(LARGE * sizeof(int));
  int *b = malloc(LARGE * sizeof(int));
  int *c = malloc(LARGE * sizeof(int));
  long total = 0;
  int sizes[2] = {SMALL, LARGE};
  for (int s = 0; s < 2; s++) {
    int n = sizes[s];
    long t = tofromThree(a, b, c, n), e = enterExitPairs(a, b, c, n),
         f = allocAndFrom(a, b, c, n);
    // CHECK: 256 ints: tofrom bad=0 enter/exit bad=0 alloc+from bad=0
    // CHECK: 1048576 ints: tofrom bad=0 enter/exit bad=0 alloc+from bad=0
    printf("%d ints: tofrom bad=%ld enter/exit bad=%ld alloc+from bad=%ld\n", n, t, e, f);
    total += t + e + f;
  }
  free(a);
  free(b);
  free(c);
  // CHECK: alloc_free_loop: bad=0
  printf("alloc_free_loop: bad=%ld\n", total);
  return total != 0;
}

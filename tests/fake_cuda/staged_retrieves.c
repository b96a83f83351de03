// Staged device-to-host copies on the CUDA plugin (nvptx64 program, run on
// the fake driver): pageable copies of 8 MiB and more go through the staging
// pipeline's 4 pinned buffers of 16 MiB. Sizes from one chunk to more chunks
// than buffers (a buffer is refilled only after its chunk was copied out), a
// size just past a chunk boundary, one copy per construct, two in one
// construct, and a copy back at exit data. Prints "staged retrieves: ok" when
// every byte came back.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check(const float *p, size_t n, float (*want)(size_t), const char *what, size_t bytes) {
  for (size_t i = 0; i < n; ++i)
    if (p[i] != want(i)) {
      printf("FAIL: %s of %zu bytes: element %zu is %g, expected %g\n", what, bytes, i, p[i], want(i));
      return 1;
    }
  return 0;
}
static float pattern(size_t i) { return (float)(i % 1000); }
static float seven(size_t i) { (void)i; return 7.0f; }

int main(void) {
  const size_t sizes[] = {8u << 20, 20u << 20, 64u << 20, (64u << 20) + 4096, 100u << 20};
  int bad = 0;
  for (int k = 0; k < 5; ++k) {
    size_t bytes = sizes[k], n = bytes / sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes);
    if (!a || !b) return 2;
    for (size_t i = 0; i < n; ++i) a[i] = pattern(i), b[i] = 7.0f;
#pragma omp target enter data map(to : a[0:n], b[0:n])
    memset(a, 0, bytes);
#pragma omp target update from(a[0:n])
    bad += check(a, n, pattern, "update from", bytes);
    memset(a, 0, bytes);
    memset(b, 0, bytes);
#pragma omp target update from(a[0:n], b[0:n])
    bad += check(a, n, pattern, "first of two", bytes) + check(b, n, seven, "second of two", bytes);
    memset(a, 0, bytes);
#pragma omp target exit data map(from : a[0:n]) map(delete : b[0:n])
    bad += check(a, n, pattern, "exit data from", bytes);
    free(a);
    free(b);
  }
  if (bad) return 1;
  printf("staged retrieves: ok\n");
  return 0;
}

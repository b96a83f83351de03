// The CUDA plugin's host<->device data paths on the fake driver: small
// retrieves landed at synchronize through the pinned buffer (more than fit
// in it in one construct, so some go direct), a direct 1 MiB copy, a staged
// 16 MiB copy (the test lowers OMPTARGET_CUDA_STAGING_THRESHOLD), and
// omp_target_memcpy. No kernel runs: device memory is written with
// omp_target_memcpy and read back by `update from` / `exit data map(from:)`.
// Exit status 0 and "data paths: ok" when every byte is where it belongs.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SMALL = 64, ROWS = 12, ROW = 1024, MEDIUM = 1 << 18, LARGE = 1 << 22 };

static int failures = 0;
static void expect(int ok, const char *what) {
  if (!ok) {
    printf("FAILED: %s\n", what);
    ++failures;
  }
}

// The device address of host memory mapped on device `dev`.
static void *device_address(void *host) {
  void *p = host;
#pragma omp target data use_device_ptr(p)
  { host = p; }
  return host;
}

int main(void) {
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  if (omp_get_num_devices() < 1) {
    printf("FAILED: no device\n");
    return 1;
  }

  // Small: lands at the construct's synchronize.
  int *small = malloc(SMALL * sizeof(int));
  for (int i = 0; i < SMALL; ++i) small[i] = i;
#pragma omp target enter data map(to : small[0:SMALL])
  memset(small, 0, SMALL * sizeof(int));
#pragma omp target update from(small[0:SMALL])
  int ok = 1;
  for (int i = 0; i < SMALL; ++i) ok &= small[i] == i;
  expect(ok, "small update from");

  // Device contents changed behind the mapping, then exit data map(from:).
  int fresh[SMALL];
  for (int i = 0; i < SMALL; ++i) fresh[i] = 1000 + i;
  expect(omp_target_memcpy(device_address(small), fresh, sizeof fresh, 0, 0, dev, host) == 0,
         "omp_target_memcpy host -> device");
#pragma omp target exit data map(from : small[0:SMALL])
  ok = 1;
  for (int i = 0; i < SMALL; ++i) ok &= small[i] == 1000 + i;
  expect(ok, "exit data map(from:) after a device-side change");

  // Twelve 8 KiB rows in one construct: more than the 64 KiB pinned buffer.
  double *rows = malloc(ROWS * ROW * sizeof(double));
  for (int i = 0; i < ROWS * ROW; ++i) rows[i] = i * 0.5;
#pragma omp target enter data map(to : rows[0:ROWS * ROW])
  memset(rows, 0, ROWS * ROW * sizeof(double));
  double *r0 = rows, *r1 = r0 + ROW, *r2 = r1 + ROW, *r3 = r2 + ROW, *r4 = r3 + ROW, *r5 = r4 + ROW,
         *r6 = r5 + ROW, *r7 = r6 + ROW, *r8 = r7 + ROW, *r9 = r8 + ROW, *r10 = r9 + ROW,
         *r11 = r10 + ROW;
#pragma omp target update from(r0[0:ROW], r1[0:ROW], r2[0:ROW], r3[0:ROW], r4[0:ROW], r5[0:ROW], \
                               r6[0:ROW], r7[0:ROW], r8[0:ROW], r9[0:ROW], r10[0:ROW], r11[0:ROW])
  ok = 1;
  for (int i = 0; i < ROWS * ROW; ++i) ok &= rows[i] == i * 0.5;
  expect(ok, "twelve rows in one update (deferred and direct)");
#pragma omp target exit data map(delete : rows[0:ROWS * ROW])

  // Medium (direct) and large (staged) copies both ways.
  int sizes[2] = {MEDIUM, LARGE};
  for (int s = 0; s < 2; ++s) {
    int n = sizes[s];
    int *big = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; ++i) big[i] = i ^ 0x5a5a;
#pragma omp target enter data map(to : big[0:n])
    memset(big, 0, (size_t)n * sizeof(int));
#pragma omp target exit data map(from : big[0:n])
    ok = 1;
    for (int i = 0; i < n; ++i) ok &= big[i] == (i ^ 0x5a5a);
    expect(ok, s ? "16 MiB round trip (staged)" : "1 MiB round trip (direct)");
    free(big);
  }

  // omp_target_memcpy device -> host of a small block.
  int *d = omp_target_alloc(SMALL * sizeof(int), dev);
  int back[SMALL];
  expect(omp_target_memcpy(d, fresh, sizeof fresh, 0, 0, dev, host) == 0, "memcpy to device");
  expect(omp_target_memcpy(back, d, sizeof back, 0, 0, host, dev) == 0, "memcpy to host");
  expect(memcmp(back, fresh, sizeof back) == 0, "omp_target_memcpy round trip");
  omp_target_free(d, dev);

  free(small);
  free(rows);
  if (failures) return 1;
  printf("data paths: ok\n");
  return 0;
}

// With LIBOMPTARGET_PROFILE (CTest fake-cuda-profile): every copy on a
// queue track, with the route the plugin took, and the bytes the program
// moved each way.
// PROFILE-DAG: work 0 queue copy h2d 1048576 pageable
// PROFILE-DAG: work 0 queue copy d2h 1048576 pageable
// PROFILE-DAG: work 0 queue copy h2d 16777216 staged
// PROFILE-DAG: work 0 queue copy d2h 16777216 staged
// PROFILE-DAG: work 0 queue copy d2h 256 staged
// PROFILE: moved h2d=17924864 d2h=17924864 d2d=0
// PROFILE: flows [[W:[0-9]+]] of [[W]] device spans
// PROFILE: device tracks ok

// multi_device: multi-device offload programs, checked on the host.
//  (a) threads: one host thread per device (omp parallel num_threads(N));
//      thread t maps its own array to device(t) and runs many target regions
//      on it (plus small map(to/from) regions), then checks the result.
//  (b) pipeline: device 0 -> 1 -> ... -> N-1. A buffer is copied in to
//      device 0; on each device k a kernel adds k + 1 (the device number,
//      plus one so that device 0's stage shows too), then omp_target_memcpy
//      moves it to device k+1; the result comes back to the host and is
//      checked (element i == i + rounds * N(N+1)/2).
// Prints `multi_device: N devices, threads ok=1, pipeline ok=1` or details of
// the failures; exits nonzero on failure. With no device: a skip line, exit 0.
// Knobs: MG_SMOKE=1 (small sizes, few regions), MG_ELEMS, MG_REGIONS.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long env_long(const char *name, long def) {
  const char *v = getenv(name);
  return v && *v ? strtol(v, NULL, 0) : def;
}

int main(void) {
  int n = omp_get_num_devices();
  int smoke = getenv("MG_SMOKE") && atoi(getenv("MG_SMOKE"));
  long m = env_long("MG_ELEMS", smoke ? 4096 : (1L << 22));
  int regions = (int)env_long("MG_REGIONS", smoke ? 4 : 200);
  if (n < 1) {
    printf("multi_device: skip: no offload device (omp_get_num_devices()=0)\n");
    return 0;
  }
  int host = omp_get_initial_device();

  // (a) one host thread per device.
  int *thread_ok = calloc(n, sizeof *thread_ok);
  int *on_device = calloc(n, sizeof *on_device);
#pragma omp parallel num_threads(n)
  {
    int t = omp_get_thread_num();
    long *x = malloc(m * sizeof *x);
    for (long i = 0; i < m; i++) x[i] = i * (t + 1);
    int initial = 1;
#pragma omp target device(t) map(from : initial)
    initial = omp_is_initial_device();
    long bad = 0;
#pragma omp target data map(tofrom : x[0:m]) device(t)
    {
      for (int r = 0; r < regions; r++) {
#pragma omp target teams distribute parallel for device(t)
        for (long i = 0; i < m; i++) x[i] += t + 1;
        if (r % 50 == 0) {  // a small region with its own maps
          long s[4] = {r, t, 0, 0}, out[4] = {0};
#pragma omp target device(t) map(to : s[0:4]) map(from : out[0:4])
          for (int k = 0; k < 4; k++) out[k] = s[k] * 2 + 1;
          for (int k = 0; k < 4; k++) bad += out[k] != s[k] * 2 + 1;
        }
      }
    }
    for (long i = 0; i < m; i++) bad += x[i] != i * (t + 1) + (long)regions * (t + 1);
    thread_ok[t] = bad == 0;
    on_device[t] = !initial;
    if (bad) printf("threads: device %d: %ld wrong value(s)\n", t, bad);
    free(x);
  }
  int threads_ok = 1;
  for (int t = 0; t < n; t++) {
    threads_ok &= thread_ok[t] && on_device[t];
    if (!on_device[t]) printf("threads: device %d: the target region ran on the host\n", t);
  }

  // (b) pipeline 0 -> 1 -> ... -> N-1, a few rounds.
  int rounds = smoke ? 1 : 3, pipeline_ok = 1;
  size_t bytes = (size_t)m * sizeof(long);
  long *h = malloc(bytes);
  long **d = calloc(n, sizeof *d);
  for (int k = 0; k < n; k++) {
    d[k] = omp_target_alloc(bytes, k);
    if (!d[k]) {
      printf("pipeline: omp_target_alloc on device %d failed\n", k);
      pipeline_ok = 0;
    }
  }
  for (long i = 0; i < m; i++) h[i] = i;
  for (int r = 0; r < rounds && pipeline_ok; r++) {
    if (omp_target_memcpy(d[0], h, bytes, 0, 0, 0, host)) {
      printf("pipeline: round %d: copy to device 0 failed\n", r);
      pipeline_ok = 0;
      break;
    }
    for (int k = 0; k < n && pipeline_ok; k++) {
      long *p = d[k];
      long add = k + 1;
#pragma omp target teams distribute parallel for is_device_ptr(p) device(k)
      for (long i = 0; i < m; i++) p[i] += add;
      if (k + 1 < n && omp_target_memcpy(d[k + 1], d[k], bytes, 0, 0, k + 1, k)) {
        printf("pipeline: round %d: copy device %d -> %d failed\n", r, k, k + 1);
        pipeline_ok = 0;
      }
    }
    if (pipeline_ok && omp_target_memcpy(h, d[n - 1], bytes, 0, 0, host, n - 1)) {
      printf("pipeline: round %d: copy from device %d failed\n", r, n - 1);
      pipeline_ok = 0;
    }
  }
  if (pipeline_ok) {
    long add = (long)rounds * n * (n + 1) / 2, bad = 0, first = -1;
    for (long i = 0; i < m; i++)
      if (h[i] != i + add) {
        if (first < 0) first = i;
        bad++;
      }
    if (bad) {
      printf("pipeline: %ld wrong value(s); first at %ld: %ld, expected %ld\n", bad, first, h[first], first + add);
      pipeline_ok = 0;
    }
  }
  for (int k = 0; k < n; k++)
    if (d[k]) omp_target_free(d[k], k);
  printf("multi_device: %d devices, threads ok=%d, pipeline ok=%d (elems=%ld regions/thread=%d)\n", n, threads_ok,
         pipeline_ok, m, regions);
  return threads_ok && pipeline_ok ? 0 : 1;
}

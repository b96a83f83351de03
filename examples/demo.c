// Demo: a vector add offloaded to the host device through omptarget.
#include <omp.h>
#include <stdio.h>

#define N 1024

int main(void) {
  float a[N], b[N], c[N];
  for (int i = 0; i < N; i++) {
    a[i] = (float)i;
    b[i] = 2.0f * (float)i;
  }
  int on_device = 0;
#pragma omp target teams distribute parallel for map(to : a, b) map(from : c) \
    map(tofrom : on_device)
  for (int i = 0; i < N; i++) {
    c[i] = a[i] + b[i];
    if (i == 0) on_device = !omp_is_initial_device();
  }
  int errors = 0;
  for (int i = 0; i < N; i++) errors += c[i] != 3.0f * (float)i;
  printf("devices: %d, ran on a device: %s, c[N-1] = %.1f, errors: %d\n",
         omp_get_num_devices(), on_device ? "yes" : "no", c[N - 1], errors);
  return errors != 0;
}

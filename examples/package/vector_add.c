/* examples/package: y = a * x + y offloaded with OpenMP to an omptarget
 * device, checked on the host, then the device named through omptarget's
 * extension API (omptarget_get_device_properties, which only omptarget's
 * libomptarget.so defines: the program does not start on LLVM 14's).
 *
 *   vector_add [DEVICE]   the device number (default: the default device;
 *                         omptarget-info lists them)
 *
 * Prints one line, e.g.
 *   vector_add: 1048576 elements on device 0 (x86_64 plugin, AMD EPYC): ok
 * and exits 0, or names the first wrong element and exits 1.
 */
#include <omp.h>
#include <omptarget/omp_target_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 1 << 20 };

/* The two properties printed: the plugin and the device's name. */
struct device_names {
  char plugin[32];
  char name[128];
};

static void keep_names(void *ctx, const char *key, const char *value) {
  struct device_names *names = ctx;
  if (strcmp(key, "plugin") == 0)
    snprintf(names->plugin, sizeof names->plugin, "%s", value);
  else if (strcmp(key, "name") == 0)
    snprintf(names->name, sizeof names->name, "%s", value);
}

int main(int argc, char **argv) {
  int device = argc > 1 ? atoi(argv[1]) : omp_get_default_device();
  double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
  if (!x || !y) return 1;
  for (int i = 0; i < N; i++) {
    x[i] = i;
    y[i] = 2.0 * i;
  }

  const double a = 3.0;
  int offloaded = 0;
#pragma omp target teams distribute parallel for device(device) map(to : x[0:N]) \
    map(tofrom : y[0:N]) map(tofrom : offloaded)
  for (int i = 0; i < N; i++) {
    y[i] = a * x[i] + y[i];
    if (i == 0) offloaded = !omp_is_initial_device();
  }

  for (int i = 0; i < N; i++) {
    if (y[i] != 5.0 * i) {
      printf("vector_add: y[%d] = %g, expected %g: FAILED\n", i, y[i], 5.0 * i);
      return 1;
    }
  }

  struct device_names names = {"?", "?"};
  if (!offloaded) {
    printf("vector_add: %d elements on the host (no offload device): ok\n", N);
  } else if (omptarget_get_device_properties(device, keep_names, &names) == 0) {
    printf("vector_add: %d elements on device %d (%s plugin, %s): ok\n", N, device,
           names.plugin, names.name);
  } else {
    printf("vector_add: %d elements on device %d (not described): ok\n", N, device);
  }
  free(x);
  free(y);
  return 0;
}

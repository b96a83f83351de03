// Demo (scripts/demo.sh): the offload devices omptarget sees, then a vector
// add offloaded to the default device, checked on the host.
#include <omp.h>
#include <omptarget/omp_target_ext.h>
#include <stdio.h>
#include <string.h>

#define N 1024

// libomptarget's entry point that gives every plugin's devices their numbers
// (omptarget-info calls it too). Without it, a plugin's devices are numbered
// only once the program registers an image for it: this one carries x86_64
// code only, so GPUs would not be listed.
void __tgt_init_all_rtls(void);

// The properties printed of each device.
struct device {
  char plugin[32];
  char name[128];
};

static void keep(void *ctx, const char *key, const char *value) {
  struct device *d = ctx;
  if (strcmp(key, "plugin") == 0)
    snprintf(d->plugin, sizeof d->plugin, "%s", value);
  else if (strcmp(key, "name") == 0)
    snprintf(d->name, sizeof d->name, "%s", value);
}

static struct device describe(int dev) {
  struct device d = {"?", "?"};
  omptarget_get_device_properties(dev, keep, &d);
  return d;
}

int main(void) {
  __tgt_init_all_rtls();
  int num = omp_get_num_devices(), gpus = 0;
  printf("devices: %d\n", num);
  for (int dev = 0; dev < num; dev++) {
    struct device d = describe(dev);
    int cpu = strcmp(d.plugin, "x86_64") == 0;
    gpus += !cpu;
    printf("  device %d: %s plugin, %s%s\n", dev, d.plugin, d.name,
           cpu ? " (the host CPU as an offload device)" : "");
  }
  if (!gpus)
    printf("  no GPU (none with an NVIDIA driver here, or no CUDA plugin: it needs cuda.h)\n");

  float a[N], b[N], c[N];
  for (int i = 0; i < N; i++) {
    a[i] = (float)i;
    b[i] = 2.0f * (float)i;
  }
  int dev = omp_get_default_device(), on_device = 0;
#pragma omp target teams distribute parallel for device(dev) map(to                          \
                                                                 : a, b) map(from            \
                                                                             : c) map(tofrom \
                                                                                      : on_device)
  for (int i = 0; i < N; i++) {
    c[i] = a[i] + b[i];
    if (i == 0) on_device = !omp_is_initial_device();
  }
  int errors = 0;
  for (int i = 0; i < N; i++) errors += c[i] != 3.0f * (float)i;

  if (on_device) {
    struct device d = describe(dev);
    printf("ran on: device %d (%s plugin, %s)\n", dev, d.plugin, d.name);
  } else {
    printf("ran on: the host, not offloaded (device %d has no code for this program)\n", dev);
  }
  printf("result: c[i] = a[i] + b[i] for %d elements, c[%d] = %.1f: %s\n", N, N - 1, c[N - 1],
         errors ? "WRONG" : "ok");
  return errors != 0;
}

// Helpers shared by the offloading benchmark programs (bench/offload_bench.c,
// bench/gpu/omp_gpu_bench.c): a monotonic clock, a comparator for medians,
// and the report of which runtime libraries the loader picked. Each program
// is one C file built on its own, so these are static functions.
#pragma once

#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // dladdr
#endif
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

// Entry point of libomptarget (the ABI clang 14 calls); only its address is
// used, to ask the loader which object provides it.
extern void __tgt_target_mapper(void);

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

// One line per runtime library mapped into the process, from /proc/self/maps
// (the drivers check that a run used the libraries it meant to):
//   lib kind=core_symbol symbol=__tgt_target_mapper path=...|UNKNOWN
//   lib kind=core|plugin|openmp|cuda path=...
static void print_loaded_libraries(void) {
  Dl_info info;
  if (dladdr((void *)&__tgt_target_mapper, &info) && info.dli_fname)
    printf("lib kind=core_symbol symbol=__tgt_target_mapper path=%s\n", info.dli_fname);
  else
    printf("lib kind=core_symbol symbol=__tgt_target_mapper path=UNKNOWN\n");
  FILE *maps = fopen("/proc/self/maps", "r");
  if (!maps)
    return;
  char line[4096], last[4096] = "";
  while (fgets(line, sizeof line, maps)) {
    char *path = strchr(line, '/');
    if (!path)
      continue;
    path[strcspn(path, "\n")] = '\0';
    if (strcmp(path, last) == 0) // one line per object, not per segment
      continue;
    snprintf(last, sizeof last, "%s", path);
    const char *base = strrchr(path, '/') + 1;
    if (strncmp(base, "libomptarget.rtl.", 17) == 0)
      printf("lib kind=plugin path=%s\n", path);
    else if (strncmp(base, "libomptarget", 12) == 0)
      printf("lib kind=core path=%s\n", path);
    else if (strncmp(base, "libomp.", 7) == 0 || strncmp(base, "libomp-", 7) == 0)
      printf("lib kind=openmp path=%s\n", path);
    else if (strncmp(base, "libcuda.", 8) == 0)
      printf("lib kind=cuda path=%s\n", path);
  }
  fclose(maps);
}

// The number of live mapping-table entries of device Dev (the core's
// property `mapped_entries`, from omptarget_get_device_properties), or -1
// when the device has none to report: the bad-input tests check that each
// family of calls leaves the table as it found it.
#pragma once

#include <stdlib.h>
#include <string.h>

#include "omptarget/omp_target_ext.h"

static void takeMappedEntries(void *Ctx, const char *Key, const char *Value) {
  if (!strcmp(Key, "mapped_entries")) *(long *)Ctx = atol(Value);
}

static long mappedEntries(int Dev) {
  long N = -1;
  omptarget_get_device_properties(Dev, takeMappedEntries, &N);
  return N;
}

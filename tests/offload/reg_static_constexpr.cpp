// Registration: `static constexpr` declare-target globals (internal
// linkage: the device image's dynamic symbol table does not list them, only
// its offload-entries section does) load and run, read directly and through
// a mapped pointer. A second translation unit has its own `static constexpr`
// table of the same (mangled) name, `_ZL5Table`, with other values: each
// unit's regions must see their own table, so the entries cannot be matched
// by name alone.
// On NVIDIA GPUs both units' regions see the first unit's table, with our
// core and with LLVM 14's (the CUDA plugin finds a global of the cubin by
// name, and nvlink keeps two local symbols of that name; docs/usage.md).
// GPU: skip
// clang 19 emits no offload entry for a `static constexpr` declare-target
// global (its device code reads a constant copy of its own): the host's
// table is never mapped (omp_target_is_present gives 0, on any runtime).
// UNSUPPORTED: clang-19
// RUN: %clangxx-offload %s %S/inputs/reg_static_constexpr_b.cpp -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

#pragma omp declare target
static constexpr int Table[4] = {1, 2, 3, 4};
#pragma omp end declare target

int tuBSum(void);
int tuBSumThroughPointer(void);

int main() {
  const int *P = Table;
  int Direct = 0, Indirect = 0;
  // The pointer section maps onto the device's copy of the table (mapped
  // for good once the image is loaded), which is not the host's.
  uintptr_t DeviceAddr = 0;
#pragma omp target data map(to : P[0 : 4]) use_device_ptr(P)
  DeviceAddr = (uintptr_t)P;
  P = Table;
  // CHECK: present 1
  printf("present %d\n", omp_target_is_present(Table, omp_get_default_device()));
  // CHECK: device copy is a different object 1
  printf("device copy is a different object %d\n", DeviceAddr != 0 && DeviceAddr != (uintptr_t)Table);
#pragma omp target map(tofrom : Direct, Indirect) map(to : P[0 : 4])
  for (int I = 0; I < 4; ++I) {
    Direct += Table[I];
    Indirect += P[I] * 10;
  }
  // CHECK: a: direct 10 through pointer 100
  printf("a: direct %d through pointer %d\n", Direct, Indirect);
  // CHECK: b: direct 100 through pointer 1000
  printf("b: direct %d through pointer %d\n", tuBSum(), tuBSumThroughPointer());
  return 0;
}

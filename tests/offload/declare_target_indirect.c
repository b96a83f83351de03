// `declare target indirect` (OpenMP 5.1; clang 19): a host function pointer
// to an indirect function, passed to a region (firstprivate) or read there
// from mapped data, calls the device's version of the function once the
// device runtime has translated it. clang 19.1 does not emit that
// translation at the call (its device code calls through the host address),
// so the program asks for it: `__llvm_omp_indirect_call_lookup`, the device
// runtime's lookup of the host address in the image's indirect call table,
// which the runtime builds at load time ({host address, device address}
// pairs, the device address read from each indirect entry's device global).
// On the host device the two addresses are the same and the lookup is the
// identity. clang 14 has no `indirect` clause.
// REQUIRES: clang-19
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <stdio.h>

#pragma omp begin declare variant match(device = {kind(gpu)})
void *__llvm_omp_indirect_call_lookup(void *HostPtr);
#pragma omp declare target to(__llvm_omp_indirect_call_lookup) device_type(nohost)
#pragma omp end declare variant

#pragma omp begin declare variant match(device = {kind(cpu)})
void *__llvm_omp_indirect_call_lookup(void *HostPtr) { return HostPtr; }
#pragma omp end declare variant

#pragma omp begin declare target indirect
int twice(int X) { return 2 * X; }
int thrice(int X) { return 3 * X; }
#pragma omp end declare target

typedef int (*Fn)(int);

#pragma omp declare target
static int callIndirect(Fn F, int X) {
  return ((Fn)__llvm_omp_indirect_call_lookup((void *)F))(X);
}
#pragma omp end declare target

int main(void) {
  Fn Fns[2] = {twice, thrice};
  int R[2] = {0, 0};
  // A function pointer passed by value.
  for (int I = 0; I < 2; ++I) {
    Fn F = Fns[I];
#pragma omp target map(from : R[I]) firstprivate(F)
    R[I] = callIndirect(F, 7);
  }
  // CHECK: by value: 14 21
  printf("by value: %d %d\n", R[0], R[1]);
  // Function pointers read on the device from mapped data.
  int S[4] = {0, 0, 0, 0};
#pragma omp target teams distribute parallel for map(to : Fns) map(from : S)
  for (int I = 0; I < 4; ++I) S[I] = callIndirect(Fns[I % 2], I + 1);
  // CHECK: from data: 2 6 6 12
  printf("from data: %d %d %d %d\n", S[0], S[1], S[2], S[3]);
  // A pointer the table does not hold comes back unchanged (the lookup's
  // fallback), here a null pointer, which is never called.
  void *Unknown = (void *)1;
#pragma omp target map(tofrom : Unknown)
  Unknown = __llvm_omp_indirect_call_lookup((void *)0);
  // CHECK: unknown: null
  printf("unknown: %s\n", Unknown ? "not null" : "null");
  return 0;
}

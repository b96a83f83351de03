// __tgt_target_nowait_query is libomp 19's call into the runtime for a
// deferred `nowait` construct. A handle the runtime did not make (a program
// calling it by hand, a corrupted task) is never dereferenced: one error
// line, the handle is cleared, the program goes on. A null pointer or an
// empty handle gets a line too.
// REQUIRES: omptarget-core, clang-19
// (clang 14 programs link against LLVM 14's libomptarget.so, which lacks it.)
// RUN: %clang-offload %s -o %t
// RUN: %run %t 2>&1 | %fcheck
#include <stdio.h>

void __tgt_target_nowait_query(void **AsyncHandle);

int main(void) {
  __tgt_target_nowait_query(NULL);
  void *Empty = NULL;
  __tgt_target_nowait_query(&Empty);
  int Unrelated = 42;
  void *Bogus = &Unrelated;
  __tgt_target_nowait_query(&Bogus);
  printf("bogus handle after the query: %s\n", Bogus ? "kept" : "cleared");
  int X = 1;
#pragma omp target map(tofrom : X)
  X += 1;
  printf("region after: x=%d\n", X);
  return 0;
}

// CHECK: Libomptarget error: __tgt_target_nowait_query: null handle pointer; is this a target nowait region's task?
// CHECK: Libomptarget error: __tgt_target_nowait_query: empty handle; is this a target nowait region's task?
// CHECK: Libomptarget error: __tgt_target_nowait_query: handle 0x{{[0-9a-f]+}} (in 0x{{[0-9a-f]+}}) was not made by this runtime, or its construct has completed; the handle is cleared
// CHECK: bogus handle after the query: cleared
// CHECK: region after: x=2

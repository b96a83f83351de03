// LLVM 19's environment variables that omptarget does not honour are never
// silently ignored: each one set gets one warning line naming it and what
// happens instead, once, when the runtime starts; the program runs as
// without them. LLVM's runtimes print nothing (LLVM 19 honours them; LLVM 14
// does not know them). A variable we honour (OMPTARGET_QUERY_COUNT_MAX)
// gets no line.
// REQUIRES: omptarget-core
// RUN: %clang-offload %s -o %t
// RUN: %run env LIBOMPTARGET_JIT_OPT_LEVEL=1 LIBOMPTARGET_RECORD=1 LIBOMPTARGET_MAP_FORCE_ATOMIC=false OMPTARGET_QUERY_COUNT_MAX=3 %t 2>&1 | %fcheck --check-prefix=SET
// RUN: %run %t 2>&1 | %fcheck --check-prefix=UNSET
#include <stdio.h>

int main(void) {
  int X = 1;
#pragma omp target map(tofrom : X)
  X += 1;
  printf("x=%d\n", X);
  return X == 2 ? 0 : 1;
}

// SET-DAG: Libomptarget warning: LIBOMPTARGET_JIT_OPT_LEVEL is LLVM 19's and is ignored here: omptarget has no JIT
// SET-DAG: Libomptarget warning: LIBOMPTARGET_RECORD is LLVM 19's and is ignored here: kernel record and replay are not supported yet
// SET-DAG: Libomptarget warning: LIBOMPTARGET_MAP_FORCE_ATOMIC is LLVM 19's and is ignored here: concurrent maps of the same data are always ordered
// SET-NOT: is LLVM 19's
// SET: x=2
// SET-NOT: is LLVM 19's
// UNSET-NOT: warning
// UNSET: x=2

// Diagnostics: LIBOMPTARGET_DEBUG=1 prints debug trace lines on stderr with
// the `omptarget -->` prefix (LLVM 14's release build prints nothing), and
// without it nothing of the sort is printed.
// REQUIRES: omptarget-core
// RUN: %clang-offload %s -o %t
// RUN: %run env LIBOMPTARGET_DEBUG=1 %t 2>&1 | %fcheck --check-prefix=DBG
// RUN: %run %t 2>&1 | %fcheck --check-prefix=NODBG
#include <omp.h>
#include <stdio.h>

int main(void) {
  int x = 1;
#pragma omp target map(tofrom : x)
  x++;
  printf("x=%d\n", x);
  return 0;
}
// DBG: omptarget --> {{.+}}
// NODBG-NOT: omptarget -->
// NODBG: x=2

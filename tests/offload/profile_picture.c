// tools/omptarget-profile draws a recorded profile (not only the hand-written
// sample of tests/tools): a program with two host threads records a profile,
// the tool writes its PNG timeline (a PNG signature, the width asked for)
// and, for a window of it, a second one; the summary it prints names the
// program's constructs. The picture needs matplotlib (install-deps.sh
// installs python3-matplotlib); the GPU machine's image may lack it.
// GPU: skip
// REQUIRES: omptarget-core
// RUN: %clang-offload -gline-tables-only %s -o %t
// RUN: rm -f %t.json %t.png %t.window.png
// RUN: %run env LIBOMPTARGET_PROFILE=%t.json %t | %fcheck --check-prefix=OUT
// RUN: %omptarget_profile %t.json -o %t.png --width 12 | %fcheck --check-prefixes=SUMMARY,SUMMARY-%cc
// RUN: %omptarget_profile %t.json -o %t.window.png --from 0 --to 1000 > /dev/null
// RUN: python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); assert d[:8]==b"\x89PNG\r\n\x1a\n", d[:8]; w,h=struct.unpack(">II", d[16:24]); print("png %%d x %%d" %% (w,h))' %t.png | %fcheck --check-prefix=PNG
// RUN: python3 -c 'import sys; d=open(sys.argv[1],"rb").read(8); assert d==b"\x89PNG\r\n\x1a\n"; print("window png ok")' %t.window.png | %fcheck --check-prefix=WINDOW
#include <omp.h>
#include <stdio.h>

#define N 4096

int main(void) {
  static double a[N];
  int ok = 1;
#pragma omp parallel num_threads(2) reduction(&& : ok)
  {
    double local[N];
    for (int r = 0; r < 5; ++r) {
#pragma omp target map(tofrom : local)  // no teams inside `parallel`: LLVM 14's host plugin fails them
      for (int i = 0; i < N; i++) local[i] = i + r;
      ok = ok && local[N - 1] == N - 1 + r;
    }
  }
#pragma omp target data map(tofrom : a)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++) a[i] += 1;
  }
  // OUT: ok 1 a[7] 1
  printf("ok %d a[7] %g\n", ok, a[7]);
  return 0;
}

// Span names follow the entry point the program called ("target teams",
// "target"; every clang 19 region calls __tgt_target_kernel: "target
// kernel"), hence the C14/C19 lines.
// The summary lists calls by total time: either order.
// SUMMARY-C14-DAG: target teams
// SUMMARY-C19-DAG: target kernel
// SUMMARY-DAG: target data begin
// PNG: png 1200 x {{[0-9]+}}
// WINDOW: window png ok

// Interop: `interop init / use / destroy` with a depend clause wait for the
// sibling tasks they depend on before the program goes on. Each step follows
// a `target nowait depend(out: x)` region that spins for 0.3 s before it
// writes x (copied back when its task ends); the host reads x right after
// the interop construct. Without the wait (the stub core, or a core that
// drops the dependence list) the host reads the previous value: every line
// below fails. `target nowait` tasks run on libomp's hidden helper threads,
// so nothing else orders them before the host's read.
// LLVM 14's core waits for init's dependences, but with its own host plugin
// init yields omp_interop_none and `interop use` on it crashes (it
// dereferences the object without a check), hence UNSUPPORTED there.
// UNSUPPORTED: runtime-llvm
// LLVM 19's host plugin has no interop ("PluginInterface" error: Failure to
// initialize device info ...: initDeviceInfoImpl not supported) and the
// program then segfaults.
// XFAIL: runtime-llvm19
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

static void spin(double seconds) {
  double t0 = omp_get_wtime();
  while (omp_get_wtime() - t0 < seconds) {
  }
}

int main(void) {
  setbuf(stdout, NULL);
  omp_interop_t obj = omp_interop_none;
  int x = 0;

#pragma omp target map(tofrom : x) depend(out : x) nowait
  {
    spin(0.3);
    x = 1;
  }
#pragma omp interop init(targetsync : obj) depend(in : x)
  // CHECK: after init: x=1
  printf("after init: x=%d\n", x);

#pragma omp target map(tofrom : x) depend(out : x) nowait
  {
    spin(0.3);
    x = 2;
  }
#pragma omp interop use(obj) depend(in : x)
  // CHECK: after use: x=2
  printf("after use: x=%d\n", x);

#pragma omp target map(tofrom : x) depend(out : x) nowait
  {
    spin(0.3);
    x = 3;
  }
#pragma omp interop destroy(obj) depend(inout : x)
  // CHECK: after destroy: x=3 obj=none
  printf("after destroy: x=%d obj=%s\n", x, obj == omp_interop_none ? "none" : "object");

  // Two dependences in one clause (clang 14 passes only the first depend
  // clause of a construct, but all items of that clause).
  int y = 0;
#pragma omp target map(tofrom : x) depend(out : x) nowait
  {
    spin(0.2);
    x = 4;
  }
#pragma omp target map(tofrom : y) depend(out : y) nowait
  {
    spin(0.3);
    y = 5;
  }
#pragma omp interop init(targetsync : obj) depend(in : x, y)
  // CHECK: two dependences: x=4 y=5
  printf("two dependences: x=%d y=%d\n", x, y);
#pragma omp interop destroy(obj)
#pragma omp taskwait
  // CHECK: done
  printf("done\n");
  return 0;
}

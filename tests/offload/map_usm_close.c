// Unified shared memory on the host device (`requires
// unified_shared_memory`): maps copy nothing (the region sees the host
// storage, writes land there at once, `always` and `target update` move
// nothing), while the `close` modifier makes a real device copy whose
// contents move only at map boundaries and with `target update`; a later
// non-close map of that storage uses the device copy while it exists.
// GPU: skip (unified shared memory needs HMM or managed allocations)
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

#pragma omp requires unified_shared_memory

int main(void) {
  int x[4] = {1, 2, 3, 4};
  long seen = 0;
#pragma omp target map(always, to : x) map(from : seen)
  {
    seen = (long)x;
    x[0] = 10;
  }
  // CHECK: zero copy=1 x0=10
  printf("zero copy=%d x0=%d\n", seen == (long)x, x[0]);
  x[1] = 20;
  int v = 0;
#pragma omp target update to(x)
#pragma omp target map(from : v)
  v = x[1];
  // CHECK: host write visible=20
  printf("host write visible=%d\n", v);

#pragma omp target enter data map(close, to : x)
  // CHECK: close: present=1
  printf("close: present=%d\n", omp_target_is_present(x, omp_get_default_device()));
  x[2] = 30;  // not in the device copy until an update
  long seen2 = 0;
#pragma omp target map(tofrom : x) map(from : v, seen2)
  {
    v = x[2];
    seen2 = (long)x;
    x[3] = 40;
  }
  // CHECK: close copy used: v=3 device copy=1 x3=4
  printf("close copy used: v=%d device copy=%d x3=%d\n", v, seen2 != (long)x, x[3]);
#pragma omp target update to(x)
#pragma omp target map(from : v)
  {
    v = x[2];
    x[3] = 41;
  }
  // CHECK: after update: v=30
  printf("after update: v=%d\n", v);
#pragma omp target exit data map(from : x)
  // CHECK: after exit: x3=41 present=0
  printf("after exit: x3=%d present=%d\n", x[3], omp_target_is_present(x, omp_get_default_device()));
  return 0;
}

// Not on remote devices (remote-mpi): unified shared memory needs a device that reads the program's
// memory.
// UNSUPPORTED: remote-mpi

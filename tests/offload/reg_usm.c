// Registration: `#pragma omp requires unified_shared_memory` is registered
// with the image. On LLVM 14's host plugin, with USM, map clauses create no
// map entries: the region sees the host address itself (pointer equality),
// writes land in host memory directly, and omp_target_is_present reports 0
// even after `target enter data`.
// GPU: skip (unified shared memory needs HMM or managed allocations; LLVM 14 fails it too)
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

#pragma omp requires unified_shared_memory

int main(void) {
  int x[4] = {1, 2, 3, 4};
  long devaddr = 0;
  // CHECK: present before=0
  printf("present before=%d\n", omp_target_is_present(x, 0));
#pragma omp target map(tofrom : x) map(from : devaddr)
  {
    x[0] = 7;
    devaddr = (long)&x[0];
  }
  // CHECK: x0=7 same_address=1
  printf("x0=%d same_address=%d\n", x[0], devaddr == (long)&x[0]);

#pragma omp target enter data map(to : x)
  // CHECK: present after enter=0
  printf("present after enter=%d\n", omp_target_is_present(x, 0));
  // Host writes are visible in the region without any update.
  x[2] = 30;
  int seen = 0;
#pragma omp target map(from : seen)
  { seen = x[2]; }
  // CHECK: seen=30
  printf("seen=%d\n", seen);
#pragma omp target exit data map(delete : x)
  return 0;
}

// Not on remote devices (remote-mpi): unified shared memory needs a device that reads the program's
// memory.
// UNSUPPORTED: remote-mpi

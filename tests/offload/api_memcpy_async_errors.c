// API (OpenMP 5.1, beyond LLVM 14): invalid arguments to
// omp_target_memcpy_async / omp_target_memcpy_rect_async are rejected when
// the call is made (nonzero return, a message naming the call), and no copy
// is done; the runtime stays usable afterwards.
// REQUIRES: omptarget-core
// GPU: skip (expects the host plugin's four devices)
// RUN: %clang-offload -L%libdir %s -o %t && %run %t 2>&1 | %fcheck
#include <omptarget/omp_target_ext.h>
#include <stdio.h>

int main(void) {
  setbuf(stdout, NULL);
  int host = omp_get_initial_device();
  int x[4] = {1, 2, 3, 4}, y[4] = {0};
  int *d = omp_target_alloc(sizeof x, 0);
  omp_target_memcpy(d, y, sizeof y, 0, 0, 0, host);
  omp_depend_t none = NULL, ok;
#pragma omp depobj(ok) depend(inout : x)

  // CHECK: Libomptarget error: omp_target_memcpy_async: null destination pointer (dst 0x0000000000000000, src 0x{{[0-9a-f]+}}, 16 bytes)
  // CHECK-NEXT: null dst rc!=0: 1
  printf("null dst rc!=0: %d\n", omp_target_memcpy_async(NULL, x, sizeof x, 0, 0, 0, host, 0, NULL) != 0);
  // CHECK: Libomptarget error: omp_target_memcpy_async: null source pointer
  // CHECK-NEXT: null src rc!=0: 1
  printf("null src rc!=0: %d\n", omp_target_memcpy_async(d, NULL, sizeof x, 0, 0, 0, host, 0, NULL) != 0);
  // CHECK: Libomptarget error: omp_target_memcpy_async: invalid device number 99 (there are 4 devices;{{.*}} (destination device)
  // CHECK-NEXT: dst dev 99 rc!=0: 1
  printf("dst dev 99 rc!=0: %d\n", omp_target_memcpy_async(d, x, sizeof x, 0, 0, 99, host, 0, NULL) != 0);
  // CHECK: Libomptarget error: omp_target_memcpy_async: invalid device number -5 (there are 4 devices;{{.*}} (source device)
  // CHECK-NEXT: src dev -5 rc!=0: 1
  printf("src dev -5 rc!=0: %d\n", omp_target_memcpy_async(y, d, sizeof x, 0, 0, host, -5, 0, NULL) != 0);
  // CHECK: Libomptarget error: omp_target_memcpy_async: invalid dependences (depobj_count 1, depobj_list 0x0000000000000000); the count must be >= 0 and the list non-null when it is positive
  // CHECK-NEXT: count 1 NULL list rc!=0: 1
  printf("count 1 NULL list rc!=0: %d\n", omp_target_memcpy_async(d, x, sizeof x, 0, 0, 0, host, 1, NULL) != 0);
  // CHECK: Libomptarget error: omp_target_memcpy_async: invalid dependences (depobj_count -1
  // CHECK-NEXT: count -1 rc!=0: 1
  printf("count -1 rc!=0: %d\n", omp_target_memcpy_async(d, x, sizeof x, 0, 0, 0, host, -1, &ok) != 0);
  // CHECK: Libomptarget error: omp_target_memcpy_async: depobj_list[1] is not an initialized depend object (null); create it with '#pragma omp depobj(obj) depend(...)'
  // CHECK-NEXT: null depobj rc!=0: 1
  omp_depend_t two[2] = {ok, none};
  printf("null depobj rc!=0: %d\n", omp_target_memcpy_async(d, x, sizeof x, 0, 0, 0, host, 2, two) != 0);

  size_t vol[2] = {2, 2}, o[2] = {0, 0}, dim[2] = {2, 2}, big[2] = {3, 1}, off1[2] = {0, 1};
  // CHECK: Libomptarget error: omp_target_memcpy_rect_async: invalid arguments (dst 0x{{[0-9a-f]+}}, src 0x0000000000000000, element size 4, 2 dims); pointers and arrays must be non-null, sizes positive
  // CHECK-NEXT: rect null src rc!=0: 1
  printf("rect null src rc!=0: %d\n", omp_target_memcpy_rect_async(d, NULL, 4, 2, vol, o, o, dim, dim, 0, host, 0, NULL) != 0);
  // CHECK: Libomptarget error: omp_target_memcpy_rect_async: invalid arguments ({{.*}}, element size 4, 0 dims)
  // CHECK-NEXT: rect 0 dims rc!=0: 1
  printf("rect 0 dims rc!=0: %d\n", omp_target_memcpy_rect_async(d, x, 4, 0, vol, o, o, dim, dim, 0, host, 0, NULL) != 0);
  // CHECK: Libomptarget error: omp_target_memcpy_rect_async: invalid arguments ({{.*}}, element size 0, 2 dims)
  // CHECK-NEXT: rect elem 0 rc!=0: 1
  printf("rect elem 0 rc!=0: %d\n", omp_target_memcpy_rect_async(d, x, 0, 2, vol, o, o, dim, dim, 0, host, 0, NULL) != 0);
  // CHECK: Libomptarget error: omp_target_memcpy_rect_async: invalid arguments
  // CHECK-NEXT: rect null volume rc!=0: 1
  printf("rect null volume rc!=0: %d\n", omp_target_memcpy_rect_async(d, x, 4, 2, NULL, o, o, dim, dim, 0, host, 0, NULL) != 0);
  // CHECK: Libomptarget error: omp_target_memcpy_rect_async: dimension 0: volume 3 at destination offset 0 exceeds the destination dimension 2
  // CHECK-NEXT: rect volume too big rc!=0: 1
  printf("rect volume too big rc!=0: %d\n", omp_target_memcpy_rect_async(d, x, 4, 2, big, o, o, dim, dim, 0, host, 0, NULL) != 0);
  // CHECK: Libomptarget error: omp_target_memcpy_rect_async: dimension 1: volume 2 at source offset 1 exceeds the source dimension 2
  // CHECK-NEXT: rect src offset rc!=0: 1
  printf("rect src offset rc!=0: %d\n", omp_target_memcpy_rect_async(d, x, 4, 2, vol, o, off1, dim, dim, 0, host, 0, NULL) != 0);
  // CHECK: Libomptarget error: omp_target_memcpy_rect_async: invalid device number 7 (there are 4 devices;{{.*}} (source device)
  // CHECK-NEXT: rect src dev 7 rc!=0: 1
  printf("rect src dev 7 rc!=0: %d\n", omp_target_memcpy_rect_async(d, x, 4, 2, vol, o, o, dim, dim, 0, 7, 0, NULL) != 0);
  // CHECK: Libomptarget error: omp_target_memcpy_rect_async: invalid dependences (depobj_count 2, depobj_list 0x0000000000000000)
  // CHECK-NEXT: rect deps rc!=0: 1
  printf("rect deps rc!=0: %d\n", omp_target_memcpy_rect_async(d, x, 4, 2, vol, o, o, dim, dim, 0, host, 2, NULL) != 0);

#pragma omp taskwait
  // Nothing was copied by the rejected calls; a valid call still works.
  int before[4];
  omp_target_memcpy(before, d, sizeof x, 0, 0, host, 0);
  int rc = omp_target_memcpy_async(d, x, sizeof x, 0, 0, 0, host, 1, &ok);
  rc |= omp_target_memcpy_async(y, d, sizeof x, 0, 0, host, 0, 1, &ok);
#pragma omp taskwait
  // CHECK-NOT: Libomptarget error
  // CHECK: untouched: 0 0 0 0
  // CHECK-NEXT: valid after errors rc=0: 1 2 3 4
  printf("untouched: %d %d %d %d\n", before[0], before[1], before[2], before[3]);
  printf("valid after errors rc=%d: %d %d %d %d\n", rc, y[0], y[1], y[2], y[3]);
#pragma omp depobj(ok) destroy
  omp_target_free(d, 0);
  return 0;
}

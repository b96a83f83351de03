// Mapping: use_device_ptr / use_device_addr in `target data` give the host
// code the device address of mapped data; it equals what the region sees and
// is usable with omp_target_memcpy and is_device_ptr.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int *p = malloc(4 * sizeof(int));
  for (int i = 0; i < 4; i++) p[i] = i;
  int *hostp = p;
  long inregion = 0;
  int dev = 0, init = omp_get_initial_device();
#pragma omp target data map(tofrom : p[0 : 4])
  {
#pragma omp target map(from : inregion)
    inregion = (long)p;
#pragma omp target data use_device_ptr(p)
    {
      // CHECK: use_device_ptr: differs from host=1 equals region=1
      printf("use_device_ptr: differs from host=%d equals region=%d\n",
             p != hostp, (long)p == inregion);
      int v[2] = {40, 41};
      // Write through the device pointer with the API.
      printf("memcpy=%d\n", omp_target_memcpy(p, v, sizeof(v), 2 * sizeof(int),
                                              0, dev, init));
      // CHECK: memcpy=0
#pragma omp target is_device_ptr(p)
      p[0] = 99;
    }
    // CHECK: after use_device_ptr p restored=1
    printf("after use_device_ptr p restored=%d\n", p == hostp);
  }
  // CHECK: p=99,1,40,41
  printf("p=%d,%d,%d,%d\n", p[0], p[1], p[2], p[3]);

  int arr[4] = {1, 2, 3, 4};
  int scalar = 7;
  long devarr = 0;
#pragma omp target data map(tofrom : arr, scalar)
  {
#pragma omp target map(from : devarr)
    devarr = (long)&arr[0];
#pragma omp target data use_device_addr(arr, scalar)
    {
      // CHECK: use_device_addr: arr equals region=1 arr differs=1 scalar differs=1
      printf("use_device_addr: arr equals region=%d arr differs=%d scalar "
             "differs=%d\n",
             (long)&arr[0] == devarr, (long)&arr[0] != 0, 1);
      int *d = &arr[0];
      int *ds = &scalar;
#pragma omp target is_device_ptr(d, ds)
      {
        d[3] = 400;
        *ds = 70;
      }
    }
  }
  // CHECK: arr3=400 scalar=70
  printf("arr3=%d scalar=%d\n", arr[3], scalar);
  free(p);
  return 0;
}

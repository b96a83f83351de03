// Mapping: first-private arguments smaller than 1 KiB are packed into one
// device buffer, and each must keep the alignment its type has on the device
// (x86-64: 16 bytes for an array of 16 bytes or more, 8 for a struct of
// doubles) whatever the sizes of the arguments before it: clang's device code
// copies such an argument with aligned vector loads. Our core places each at
// a multiple of 16. LLVM 14's core packs them back to back, so the array
// after the 40-byte struct lands at offset 40 and the region dies of SIGSEGV
// (a general-protection fault of movaps).
// LLVM 19 (with clang 19's programs) passes.
// XFAIL: !omptarget-core && !runtime-llvm19
// RUN: %clang-offload -O1 %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

struct Odd {
  int a, b;
  short s[16];
};  // 40 bytes

// The region passes the addresses of its copies on, so the device code
// copies each argument into its frame.
#pragma omp declare target
__attribute__((noinline)) static long use(struct Odd *odd, int *arr, double *d3, long *arr2) {
  long s = odd->a + odd->b + (long)(d3[0] + d3[1] + d3[2]);
  for (int i = 0; i < 16; i++) s += odd->s[i] + arr[i];
  for (int i = 0; i < 4; i++) s += arr2[i];
  odd->a = arr[0] = -1;  // the copies are the region's own
  return s;
}
#pragma omp end declare target

int main(void) {
  setbuf(stdout, NULL);
  struct Odd odd = {1, 2, {0}};
  int arr[16];
  double d3[3] = {0.5, 1.5, 2.5};  // 24 bytes
  long arr2[4] = {10, 20, 30, 40};
  for (int i = 0; i < 16; i++) {
    odd.s[i] = (short)i;
    arr[i] = 100 + i;
  }
  long sum = 0;
  for (int it = 0; it < 4; it++) {
#pragma omp target firstprivate(odd, arr, d3, arr2) map(tofrom : sum)
    sum += use(&odd, arr, d3, arr2);
  }
  // 3 + 4 + 120 + 1720 + 100 = 1947 per region
  // CHECK: packed first-private sum=7788
  printf("packed first-private sum=%ld\n", sum);
  return sum != 7788;
}

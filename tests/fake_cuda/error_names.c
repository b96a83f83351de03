// CUDA failures name the driver's error. The fake driver makes cuMemAlloc
// and cuMemAllocFromPoolAsync fail with a chosen CUresult
// (OMPTARGET_FAKE_CUDA_ALLOC_ERROR); the plugin's line must carry the
// error's name and description:
//   INVAL    CUDA_ERROR_INVALID_VALUE, in the driver's words;
//   DEINIT   CUDA_ERROR_DEINITIALIZED with cuGetErrorName/String failing too
//            (OMPTARGET_FAKE_CUDA_NO_ERROR_NAMES, as while the driver shuts
//            down at exit): the plugin's own name and description;
//   OOM      CUDA_ERROR_OUT_OF_MEMORY, with the device's free memory;
//   UNKNOWN  a code neither the driver nor the plugin knows.
// Each names the driver call (cuMemAlloc, or cuMemAllocFromPoolAsync where
// the device's memory pool serves the allocation).
// Only the out-of-memory case may speak of memory being exhausted; no case
// prints a bare "CUresult N" or "no description". No kernel runs.
#include <omp.h>
#include <stdio.h>

int main(void) {
  setbuf(stdout, NULL);
  // INVAL: TARGET cuda RTL error: {{.*}}cannot allocate 1024 bytes of default (device) memory on CUDA device 0: {{cuMemAlloc|cuMemAllocFromPoolAsync}}: CUDA_ERROR_INVALID_VALUE (invalid argument)
  // DEINIT: TARGET cuda RTL error: {{.*}}cannot allocate 1024 bytes of default (device) memory on CUDA device 0: {{cuMemAlloc|cuMemAllocFromPoolAsync}}: CUDA_ERROR_DEINITIALIZED (the driver is shutting down, as at process exit)
  // OOM: TARGET cuda RTL error: {{.*}}cannot allocate 1024 bytes (TARGET_ALLOC_DEFAULT) (the device has {{[0-9]+}} bytes free): cannot allocate 1024 bytes of default (device) memory on CUDA device 0: {{cuMemAlloc|cuMemAllocFromPoolAsync}}: CUDA_ERROR_OUT_OF_MEMORY (out of memory)
  // UNKNOWN: TARGET cuda RTL error: {{.*}}cannot allocate 1024 bytes of default (device) memory on CUDA device 0: {{cuMemAlloc|cuMemAllocFromPoolAsync}}: CUDA error 12345 (a code neither the driver nor this plugin knows; see cuda.h)
  // CHECK: Libomptarget error: omp_target_alloc: device 0: the plugin could not allocate 1024 bytes
  // CHECK: omp_target_alloc: null
  void *p = omp_target_alloc(1024, 0);
  printf("omp_target_alloc: %s\n", p ? "non-null" : "null");
  return p == NULL ? 0 : 1;
}

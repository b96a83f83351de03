// Interop objects of the CUDA plugin, on the fake driver: `interop init`
// gives fr_id omp_ifr_cuda ("cuda"), vendor 11 ("nvidia"), the OpenMP device
// number, the CUdevice ordinal as an int, the primary context and, for a
// targetsync object, a stream of the device (distinct for two live objects),
// with type descriptions; a target object has no stream. `interop use`
// (an event recorded on the stream and waited for) and `destroy` (the stream
// waited for and given back) succeed; a new object after destroy gets a
// stream again. No kernel runs.
#include <omp.h>
#include <stdio.h>

int main(void) {
  setbuf(stdout, NULL);
  omp_interop_t obj = omp_interop_none, other = omp_interop_none;
  int rc = 99;
#pragma omp interop init(targetsync : obj) device(0)
  // CHECK: object: yes
  printf("object: %s\n", obj == omp_interop_none ? "none" : "yes");
  intptr_t fr = omp_get_interop_int(obj, omp_ipr_fr_id, &rc);
  // CHECK-NEXT: fr_id: 1 (omp_ifr_cuda 1) rc=0
  printf("fr_id: %ld (omp_ifr_cuda %d) rc=%d\n", (long)fr, omp_ifr_cuda, rc);
  // CHECK-NEXT: fr_name: cuda
  printf("fr_name: %s\n", omp_get_interop_str(obj, omp_ipr_fr_name, NULL));
  // CHECK-NEXT: vendor: 11 nvidia
  printf("vendor: %ld %s\n", (long)omp_get_interop_int(obj, omp_ipr_vendor, NULL),
         omp_get_interop_str(obj, omp_ipr_vendor_name, NULL));
  // CHECK-NEXT: device_num: 0
  printf("device_num: %ld\n", (long)omp_get_interop_int(obj, omp_ipr_device_num, NULL));
  intptr_t dev = omp_get_interop_int(obj, omp_ipr_device, &rc);
  // CHECK-NEXT: device: 0 rc=0 type: CUdevice (int){{.*}}
  printf("device: %ld rc=%d type: %s\n", (long)dev, rc, omp_get_interop_type_desc(obj, omp_ipr_device));
  (void)omp_get_interop_ptr(obj, omp_ipr_device, &rc);
  // CHECK-NEXT: device as a pointer: rc=-3
  printf("device as a pointer: rc=%d\n", rc);
  void *ctx = omp_get_interop_ptr(obj, omp_ipr_device_context, &rc);
  // CHECK-NEXT: context: non-null rc=0 type: CUcontext{{.*}}
  printf("context: %s rc=%d type: %s\n", ctx ? "non-null" : "null", rc,
         omp_get_interop_type_desc(obj, omp_ipr_device_context));
  (void)omp_get_interop_ptr(obj, omp_ipr_platform, &rc);
  // CHECK-NEXT: platform: rc=1
  printf("platform: rc=%d\n", rc);
  void *stream = omp_get_interop_ptr(obj, omp_ipr_targetsync, &rc);
  // CHECK-NEXT: targetsync: non-null rc=0 type: CUstream (cudaStream_t){{.*}}
  printf("targetsync: %s rc=%d type: %s\n", stream ? "non-null" : "null", rc,
         omp_get_interop_type_desc(obj, omp_ipr_targetsync));

#pragma omp interop init(targetsync : other)
  void *stream2 = omp_get_interop_ptr(other, omp_ipr_targetsync, NULL);
  // CHECK-NEXT: second object's stream: non-null distinct=1
  printf("second object's stream: %s distinct=%d\n", stream2 ? "non-null" : "null", stream2 != stream);
#pragma omp interop use(obj)
#pragma omp interop destroy(obj)
#pragma omp interop destroy(other)
  // CHECK-NEXT: destroyed: none none
  printf("destroyed: %s %s\n", obj ? "object" : "none", other ? "object" : "none");

#pragma omp interop init(target : obj)
  (void)omp_get_interop_ptr(obj, omp_ipr_targetsync, &rc);
  ctx = omp_get_interop_ptr(obj, omp_ipr_device_context, NULL);
  // CHECK-NEXT: target object: targetsync rc=1 context non-null
  printf("target object: targetsync rc=%d context %s\n", rc, ctx ? "non-null" : "null");
#pragma omp interop destroy(obj)
#pragma omp interop init(targetsync : obj)
  // CHECK-NEXT: again: stream non-null
  printf("again: stream %s\n", omp_get_interop_ptr(obj, omp_ipr_targetsync, NULL) ? "non-null" : "null");
#pragma omp interop destroy(obj)
  // CHECK-NEXT: interop cuda: ok
  printf("interop cuda: ok\n");
  return 0;
}

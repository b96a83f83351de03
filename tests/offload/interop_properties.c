// Interop: the properties of interop objects on our host device, through
// omp_get_interop_int/ptr/str/name/type_desc. A host device has no foreign
// runtime: fr_id, fr_name, vendor, vendor_name, platform, device and
// device_context have no value (omp_irc_no_value); device_num is the device
// of the construct; a targetsync object's targetsync is the device's queue
// (an opaque non-null handle, held until destroy), a target object has none.
// Each property has one type: reading it with another routine reports the
// property's type (omp_irc_type_int/ptr/str) and returns 0/NULL. `interop
// use` and `destroy` on the object return (they wait for its queue).
// LLVM 14's core yields omp_interop_none on its own host plugin and reports
// nothing on ours, so this checks our core with our host plugin.
// REQUIRES: omptarget-core, omptarget-plugin
// RUN: %clang-offload %s -o %t
// RUN: %run env OMPTARGET_HOST_ASYNC=0 %t 2>&1 | %fcheck
// RUN: %run env OMPTARGET_HOST_ASYNC=1 %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static omp_interop_t obj = omp_interop_none;

static void show_int(omp_interop_property_t p) {
  int rc = 99;
  intptr_t v = omp_get_interop_int(obj, p, &rc);
  printf("int %s: %ld rc=%d\n", omp_get_interop_name(obj, p), (long)v, rc);
}
static void show_ptr(omp_interop_property_t p) {
  int rc = 99;
  void *v = omp_get_interop_ptr(obj, p, &rc);
  printf("ptr %s: %s rc=%d\n", omp_get_interop_name(obj, p), v ? "non-null" : "null", rc);
}
static void show_str(omp_interop_property_t p) {
  int rc = 99;
  const char *v = omp_get_interop_str(obj, p, &rc);
  printf("str %s: %s rc=%d\n", omp_get_interop_name(obj, p), v ? v : "(null)", rc);
}

int main(void) {
  setbuf(stdout, NULL);
#pragma omp interop init(targetsync : obj) device(1)
  printf("object: %s\n", obj == omp_interop_none ? "none" : "yes");
  // CHECK: object: yes
  // CHECK-NEXT: num properties: 0
  printf("num properties: %d\n", omp_get_num_interop_properties(obj));

  // CHECK-NEXT: int fr_id: 0 rc=1
  show_int(omp_ipr_fr_id);
  // CHECK-NEXT: str fr_name: (null) rc=1
  show_str(omp_ipr_fr_name);
  // CHECK-NEXT: int vendor: 0 rc=1
  show_int(omp_ipr_vendor);
  // CHECK-NEXT: str vendor_name: (null) rc=1
  show_str(omp_ipr_vendor_name);
  // CHECK-NEXT: int device_num: 1 rc=0
  show_int(omp_ipr_device_num);
  // CHECK-NEXT: ptr platform: null rc=1
  show_ptr(omp_ipr_platform);
  // CHECK-NEXT: ptr device: null rc=1
  show_ptr(omp_ipr_device);
  // CHECK-NEXT: ptr device_context: null rc=1
  show_ptr(omp_ipr_device_context);
  // CHECK-NEXT: ptr targetsync: non-null rc=0
  show_ptr(omp_ipr_targetsync);

  // Wrong routine for the type: the code names the property's type.
  // CHECK-NEXT: int targetsync: 0 rc=-4
  show_int(omp_ipr_targetsync);
  // CHECK-NEXT: ptr device_num: null rc=-3
  show_ptr(omp_ipr_device_num);
  // CHECK-NEXT: int fr_name: 0 rc=-5
  show_int(omp_ipr_fr_name);
  // CHECK-NEXT: str device_num: (null) rc=-3
  show_str(omp_ipr_device_num);

  // Type descriptions: only for properties with a value.
  // CHECK-NEXT: desc device_num: int: the OpenMP device number
  printf("desc device_num: %s\n", omp_get_interop_type_desc(obj, omp_ipr_device_num));
  // CHECK-NEXT: desc targetsync: void *: {{.*}}omptarget host device{{.*}}
  printf("desc targetsync: %s\n", omp_get_interop_type_desc(obj, omp_ipr_targetsync));
  const char *d = omp_get_interop_type_desc(obj, omp_ipr_fr_id);
  // CHECK-NEXT: desc fr_id: (null)
  printf("desc fr_id: %s\n", d ? d : "(null)");

  // Out of range: below omp_ipr_first, and 0 (no implementation-defined
  // properties).
  int rc = 99;
  intptr_t v = omp_get_interop_int(obj, (omp_interop_property_t)(omp_ipr_first - 1), &rc);
  // CHECK-NEXT: below first: 0 rc=-2
  printf("below first: %ld rc=%d\n", (long)v, rc);
  void *p = omp_get_interop_ptr(obj, (omp_interop_property_t)0, &rc);
  const char *n = omp_get_interop_name(obj, (omp_interop_property_t)0);
  // CHECK-NEXT: property 0: null rc=-2 name=(null)
  printf("property 0: %s rc=%d name=%s\n", p ? "non-null" : "null", rc, n ? n : "(null)");
  // A null ret_code is fine.
  // CHECK-NEXT: null ret_code: 1
  printf("null ret_code: %ld\n", (long)omp_get_interop_int(obj, omp_ipr_device_num, NULL));

  // The queue is the object's until destroy: use leaves it in place.
  void *q1 = omp_get_interop_ptr(obj, omp_ipr_targetsync, NULL);
#pragma omp interop use(obj)
  void *q2 = omp_get_interop_ptr(obj, omp_ipr_targetsync, NULL);
  // CHECK-NEXT: same queue after use: 1
  printf("same queue after use: %d\n", q1 == q2);
#pragma omp interop destroy(obj)
  // CHECK-NEXT: destroyed: none
  printf("destroyed: %s\n", obj == omp_interop_none ? "none" : "object");

  // A target object: no targetsync; the default device.
#pragma omp interop init(target : obj)
  // CHECK-NEXT: ptr targetsync: null rc=1
  show_ptr(omp_ipr_targetsync);
  // CHECK-NEXT: int device_num: 0 rc=0
  show_int(omp_ipr_device_num);
#pragma omp interop destroy(obj)

  // Two live targetsync objects: in asynchronous mode each holds a queue of
  // its own; in immediate mode both have the device's one immediate queue.
  omp_interop_t a = omp_interop_none, b = omp_interop_none;
#pragma omp interop init(targetsync : a) device(2)
#pragma omp interop init(targetsync : b) device(2)
  void *qa = omp_get_interop_ptr(a, omp_ipr_targetsync, NULL);
  void *qb = omp_get_interop_ptr(b, omp_ipr_targetsync, NULL);
  const char *mode = getenv("OMPTARGET_HOST_ASYNC");
  int async = mode && atoi(mode) == 1;
  // CHECK-NEXT: two objects: distinct=1 queues as the mode says=1
  printf("two objects: distinct=%d queues as the mode says=%d\n", a != b,
         qa && qb && (async ? qa != qb : qa == qb));
#pragma omp interop destroy(a)
#pragma omp interop destroy(b)
  // CHECK-NEXT: done
  printf("done\n");
  return 0;
}

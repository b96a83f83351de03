// Interop: the property routines on omp_interop_none and on a destroyed
// object, and the return-code descriptions. On omp_interop_none every
// omp_get_interop_int/ptr/str returns 0/NULL with omp_irc_empty (-1), also
// for an out-of-range id, and type_desc is NULL; a handle that is no longer a
// live object reports omp_irc_other (-6). Property names do not depend on the
// object. `interop use` / `destroy` of omp_interop_none do nothing, and the
// initial device gives omp_interop_none. LLVM 14 segfaults on the first
// query (it dereferences the null object) and has no rc_desc.
// REQUIRES: omptarget-core
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  setbuf(stdout, NULL);
  omp_interop_t none = omp_interop_none;
  int rc = 99;
  intptr_t i = omp_get_interop_int(none, omp_ipr_device_num, &rc);
  // CHECK: none int: 0 rc=-1
  printf("none int: %ld rc=%d\n", (long)i, rc);
  rc = 99;
  void *p = omp_get_interop_ptr(none, omp_ipr_targetsync, &rc);
  // CHECK-NEXT: none ptr: null rc=-1
  printf("none ptr: %s rc=%d\n", p ? "non-null" : "null", rc);
  rc = 99;
  const char *s = omp_get_interop_str(none, omp_ipr_fr_name, &rc);
  // CHECK-NEXT: none str: null rc=-1
  printf("none str: %s rc=%d\n", s ? "non-null" : "null", rc);
  rc = 99;
  (void)omp_get_interop_int(none, (omp_interop_property_t)-42, &rc);
  // CHECK-NEXT: none out of range: rc=-1
  printf("none out of range: rc=%d\n", rc);
  (void)omp_get_interop_int(none, omp_ipr_device_num, NULL);  // null ret_code: no crash
  const char *d = omp_get_interop_type_desc(none, omp_ipr_device_num);
  // CHECK-NEXT: none type_desc: (null)
  printf("none type_desc: %s\n", d ? d : "(null)");
  // CHECK-NEXT: names: fr_id fr_name vendor vendor_name device_num platform device device_context targetsync
  printf("names:");
  for (int id = -1; id >= omp_ipr_first; --id) printf(" %s", omp_get_interop_name(none, (omp_interop_property_t)id));
  printf("\n");
  const char *bad = omp_get_interop_name(none, (omp_interop_property_t)(omp_ipr_first - 1));
  // CHECK-NEXT: name below first: (null)
  printf("name below first: %s\n", bad ? bad : "(null)");

  // Every return code has a description; others have none.
  // CHECK-NEXT: rc -1: empty: the object is omp_interop_none
  printf("rc -1: %s\n", omp_get_interop_rc_desc(none, omp_irc_empty));
  int described = 0;
  for (int c = omp_irc_other; c <= omp_irc_no_value; ++c)
    described += omp_get_interop_rc_desc(none, (omp_interop_rc_t)c) != NULL;
  // CHECK-NEXT: described: 8 unknown: (null)
  const char *unknown = omp_get_interop_rc_desc(none, (omp_interop_rc_t)7);
  printf("described: %d unknown: %s\n", described, unknown ? unknown : "(null)");

  // use / destroy of omp_interop_none: nothing happens.
#pragma omp interop use(none)
#pragma omp interop destroy(none)
  // CHECK-NEXT: none use/destroy: ok
  printf("none use/destroy: %s\n", none == omp_interop_none ? "ok" : "changed");

  // The initial device has no foreign runtime: omp_interop_none.
  omp_interop_t host = (omp_interop_t)1;
  int initial = omp_get_initial_device();
#pragma omp interop init(targetsync : host) device(initial)
  // CHECK-NEXT: initial device: none
  printf("initial device: %s\n", host == omp_interop_none ? "none" : "object");

  // A destroyed object's stale handle: omp_irc_other, no crash.
  omp_interop_t obj = omp_interop_none;
#pragma omp interop init(targetsync : obj)
  omp_interop_t stale = obj;
  rc = 99;
  i = omp_get_interop_int(stale, omp_ipr_device_num, &rc);
  // CHECK-NEXT: live: device_num=0 rc=0
  printf("live: device_num=%ld rc=%d\n", (long)i, rc);
#pragma omp interop destroy(obj)
  rc = 99;
  i = omp_get_interop_int(stale, omp_ipr_device_num, &rc);
  d = omp_get_interop_type_desc(stale, omp_ipr_device_num);
  // CHECK-NEXT: stale: 0 rc=-6 type_desc=(null)
  printf("stale: %ld rc=%d type_desc=%s\n", (long)i, rc, d ? d : "(null)");
  // A stale handle in `interop use`: an error line, nothing else.
#pragma omp interop use(stale)
  // CHECK-NEXT: Libomptarget error: interop use: 0x{{[0-9a-f]+}} is not an interop object of this runtime (never initialized by `interop init`, or destroyed already); ignored
  // CHECK-NEXT: done
  printf("done\n");
  return 0;
}

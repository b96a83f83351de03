// LIBOMPTARGET_LOCK_MAPPED_HOST_BUFFERS=1: every new mapping entry of at
// least OMPTARGET_LOCK_MAPPED_MIN_BYTES locks its host range for the entry's
// lifetime and unlocks it when the entry goes. The LIBOMPTARGET_DEBUG trace
// shows one lock (the plugin's pinned map and the core) when each large
// entry is created and one unlock when it is removed, none for a small
// entry; a mapping inside memory the program locked adds a reference to the
// program's lock and drops it again, leaving the memory locked; a mapping
// that only partly overlaps the program's locked memory stays pageable,
// with trace lines and no error (data_try_lock). The results are right in
// every case, with and without the trace, and with the variable unset
// (then no mapping locks anything).
// REQUIRES: omptarget-core, omptarget-plugin
// RUN: %clang-offload -L%libdir %s -o %t
// RUN: env LIBOMPTARGET_LOCK_MAPPED_HOST_BUFFERS=1 OMPTARGET_LOCK_MAPPED_MIN_BYTES=4096 LIBOMPTARGET_DEBUG=1 \
// RUN:   %run %t 2>&1 | %fcheck --check-prefixes=TRACE,RES --implicit-check-not=error
// RUN: env LIBOMPTARGET_LOCK_MAPPED_HOST_BUFFERS=1 OMPTARGET_LOCK_MAPPED_MIN_BYTES=4096 \
// RUN:   %run %t 2>&1 | %fcheck --check-prefix=RES --implicit-check-not=error
// Off (the default): mappings lock nothing; the program's own locks only.
// RUN: env LIBOMPTARGET_DEBUG=1 %run %t 2>&1 | %fcheck --check-prefixes=OFF,RES --implicit-check-not=error
#include <omptarget/omp_target_ext.h>
#include <stdio.h>
#include <stdlib.h>

#define BIG 16384  // ints: 64 KiB, locked
#define SMALL 256  // ints: 1 KiB, below the minimum

int main(void) {
  setbuf(stdout, NULL);
  int *a = malloc(BIG * sizeof(int)), *s = malloc(SMALL * sizeof(int));
  int *c = malloc(BIG * sizeof(int)), *p = malloc(BIG * sizeof(int));
  for (int i = 0; i < BIG; i++) a[i] = c[i] = p[i] = i;
  for (int i = 0; i < SMALL; i++) s[i] = i;
  printf("a=%p c=%p p=%p\n", (void *)a, (void *)c, (void *)p);
  // RES: a=0x[[#%x,A:]] c=0x[[#%x,C:]] p=0x[[#%x,P:]]
  // OFF-NOT: pinned map

  // A large entry: locked at its creation, unlocked at its removal (the end
  // of the region); the small one is never locked.
  // TRACE: pinned map --> device 0: locked [0x[[#A]], 0x[[#A+0x10000]]) (65536 bytes)
  // TRACE-NEXT: omptarget --> Device 0: locked 65536 bytes at 0x[[#A]] (device-accessible 0x[[#A]])
  // TRACE-NOT: lock
  // TRACE: pinned map --> device 0: last unlock of [0x[[#A]], 0x[[#A+0x10000]]) (65536 bytes), unpinning
  // TRACE-NEXT: omptarget --> Device 0: unlocked 0x[[#A]]
  // TRACE-NOT: lock
  // RES: region: ok
#pragma omp target teams distribute parallel for map(tofrom : a[0:BIG], s[0:SMALL])
  for (int i = 0; i < BIG; i++) {
    a[i] += 1;
    if (i < SMALL) s[i] *= 2;
  }
  int ok = 1;
  for (int i = 0; i < BIG; i++) ok &= a[i] == i + 1;
  for (int i = 0; i < SMALL; i++) ok &= s[i] == 2 * i;
  printf("region: %s\n", ok ? "ok" : "wrong");

  // The lock lives as long as the entry: from enter data to exit data.
  // TRACE: pinned map --> device 0: locked [0x[[#A]], 0x[[#A+0x10000]]) (65536 bytes)
  // TRACE-NOT: unlock
  // RES: entry alive: ok
#pragma omp target enter data map(to : a[0:BIG])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < BIG; i++) a[i] *= 3;
#pragma omp target update from(a[0:BIG])
  ok = 1;
  for (int i = 0; i < BIG; i++) ok &= a[i] == 3 * (i + 1);
  printf("entry alive: %s\n", ok ? "ok" : "wrong");
  // TRACE: pinned map --> device 0: last unlock of [0x[[#A]], 0x[[#A+0x10000]]) (65536 bytes), unpinning
  // OFF-NOT: pinned map
  // RES: entry gone
#pragma omp target exit data map(delete : a[0:BIG])
  printf("entry gone\n");

  // A mapping inside memory the program locked: a reference to that lock,
  // dropped with the entry; the program's lock stays until its own unlock.
  // TRACE: pinned map --> device 0: locked [0x[[#C]], 0x[[#C+0x10000]]) (65536 bytes)
  // TRACE: pinned map --> device 0: [0x[[#C+0x4000]], 0x[[#C+0xc000]]) (32768 bytes) is inside locked [0x[[#C]], 0x[[#C+0x10000]]) (65536 bytes), now 2 locks
  // TRACE: pinned map --> device 0: unlocked 0x[[#C+0x4000]] in [0x[[#C]], 0x[[#C+0x10000]]) (65536 bytes), 1 locks left
  // TRACE-NOT: last unlock
  // OFF: pinned map --> device 0: locked [0x[[#C]], 0x[[#C+0x10000]]) (65536 bytes)
  // OFF-NOT: pinned map
  // RES: inside the program's lock: ok
  llvm_omp_target_lock_mem(c, BIG * sizeof(int), 0);
#pragma omp target teams distribute parallel for map(tofrom : c[4096:8192])
  for (int i = 4096; i < 4096 + 8192; i++) c[i] = -c[i];
  ok = 1;
  for (int i = 0; i < BIG; i++) ok &= c[i] == (i >= 4096 && i < 4096 + 8192 ? -i : i);
  printf("inside the program's lock: %s\n", ok ? "ok" : "wrong");
  // TRACE: pinned map --> device 0: last unlock of [0x[[#C]], 0x[[#C+0x10000]]) (65536 bytes), unpinning
  // OFF: pinned map --> device 0: last unlock of [0x[[#C]], 0x[[#C+0x10000]]) (65536 bytes), unpinning
  // RES: program unlocked c
  llvm_omp_target_unlock_mem(c, 0);
  printf("program unlocked c\n");

  // A mapping that only partly overlaps the program's locked memory cannot
  // be locked: it stays pageable, and says so in the trace, not as an error.
  // TRACE: pinned map --> device 0: locked [0x[[#P+0x100]], 0x[[#P+0x200]]) (256 bytes)
  // TRACE: TARGET x86_64 RTL --> device 0: data_try_lock: left unlocked: data_lock: device 0: cannot lock host range [0x[[#P]], 0x[[#P+0x10000]]) (65536 bytes): it overlaps the locked range [0x[[#P+0x100]], 0x[[#P+0x200]]) (256 bytes) without lying inside it{{.*}}
  // TRACE-NEXT: omptarget --> Device 0: host range 0x{{0*}}[[#P]] (65536 bytes) of a new mapping not locked (the plugin's trace says why); its copies take the pageable route
  // TRACE-NOT: unlock
  // OFF: pinned map --> device 0: locked [0x[[#P+0x100]], 0x[[#P+0x200]]) (256 bytes)
  // OFF-NOT: {{try_lock|inside locked|of a new mapping}}
  // RES: partly locked mapping: ok
  llvm_omp_target_lock_mem(p + 64, 256, 0);
#pragma omp target teams distribute parallel for map(tofrom : p[0:BIG])
  for (int i = 0; i < BIG; i++) p[i] += 5;
  ok = 1;
  for (int i = 0; i < BIG; i++) ok &= p[i] == i + 5;
  printf("partly locked mapping: %s\n", ok ? "ok" : "wrong");
  // TRACE: pinned map --> device 0: last unlock of [0x[[#P+0x100]], 0x[[#P+0x200]]) (256 bytes), unpinning
  // OFF: pinned map --> device 0: last unlock of [0x[[#P+0x100]], 0x[[#P+0x200]]) (256 bytes), unpinning
  llvm_omp_target_unlock_mem(p + 100, 0);
  // RES: done
  printf("done\n");
  free(a), free(s), free(c), free(p);
  return 0;
}

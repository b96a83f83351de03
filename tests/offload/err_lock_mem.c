// Errors: bad input to llvm_omp_target_lock_mem / llvm_omp_target_unlock_mem.
// Each call below fails with its message (a check made by the core is one
// `Libomptarget error` line; one made by the plugin is the plugin's line,
// which says why, then the core's line naming the API call), returns NULL
// from lock, changes nothing and crashes nothing: a null pointer, a zero or
// huge size, an invalid device number, a range that extends a locked range,
// a range over two locked ranges, a double unlock, an unlock of memory never
// locked, an unlock on another device than the lock's (the host plugin has
// four devices), unlock(NULL), an unlock of llvm_omp_target_alloc_host
// memory that holds no lock. The locked ranges still work afterwards, each
// with exactly the one reference it had: one unlock each succeeds quietly,
// a second fails.
// GPU: skip (the host plugin's messages and four devices)
// REQUIRES: omptarget-core, omptarget-plugin
// RUN: %clang-offload -L%libdir %s -o %t && %run %t 2>&1 | %fcheck --implicit-check-not=error
#include <omptarget/omp_target_ext.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  setbuf(stdout, NULL);
  char *buf = aligned_alloc(4096, 16 * 4096);
  printf("buf=%p\n", (void *)buf);
  // CHECK: buf=0x[[#%x,B:]]
  char *r1 = buf + 4096, *r2 = buf + 3 * 4096;

  // CHECK-NEXT: Libomptarget error: llvm_omp_target_lock_mem: cannot lock host memory 0x0000000000000000 of 64 bytes on device 0: null pointer
  // CHECK-NEXT: lock(NULL)=(nil)
  printf("lock(NULL)=%p\n", llvm_omp_target_lock_mem(NULL, 64, 0));
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_lock_mem: cannot lock host memory 0x{{0*}}[[#B]] of 0 bytes on device 0: zero size
  // CHECK-NEXT: lock(size 0)=(nil)
  printf("lock(size 0)=%p\n", llvm_omp_target_lock_mem(buf, 0, 0));
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_lock_mem: cannot lock host memory 0x{{0*}}[[#B]] of 18446744073709551615 bytes on device 0: the size is too large
  // CHECK-NEXT: lock(size SIZE_MAX)=(nil)
  printf("lock(size SIZE_MAX)=%p\n", llvm_omp_target_lock_mem(buf, SIZE_MAX, 0));
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_lock_mem: invalid device number 99 (there are 4 devices; valid numbers are 0..3, or omp_get_initial_device() for the host); nothing was locked
  // CHECK-NEXT: lock(device 99)=(nil)
  printf("lock(device 99)=%p\n", llvm_omp_target_lock_mem(buf, 64, 99));
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_lock_mem: invalid device number -7 (there are 4 devices; valid numbers are 0..3, or omp_get_initial_device() for the host); nothing was locked
  // CHECK-NEXT: lock(device -7)=(nil)
  printf("lock(device -7)=%p\n", llvm_omp_target_lock_mem(buf, 64, -7));

  // Two locked ranges: [B+0x1000, B+0x2000) and [B+0x3000, B+0x4000).
  // CHECK-NEXT: locked r1=1 r2=1
  printf("locked r1=%d r2=%d\n", llvm_omp_target_lock_mem(r1, 4096, 0) == r1,
         llvm_omp_target_lock_mem(r2, 4096, 0) == r2);

  // CHECK-NEXT: TARGET x86_64 RTL error: data_lock: device 0: cannot lock host range [0x[[#B+0x1100]], 0x[[#B+0x2100]]) (4096 bytes): it overlaps the locked range [0x[[#B+0x1000]], 0x[[#B+0x2000]]) (4096 bytes) without lying inside it; lock a range inside it, or unlock it first (a locked range is never extended)
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_lock_mem: device 0: the plugin could not lock host memory 0x{{0*}}[[#B+0x1100]] (4096 bytes); its message, if any, says why
  // CHECK-NEXT: lock(extends r1)=(nil)
  printf("lock(extends r1)=%p\n", llvm_omp_target_lock_mem(r1 + 256, 4096, 0));
  // CHECK-NEXT: TARGET x86_64 RTL error: data_lock: device 0: cannot lock host range [0x[[#B+0xf00]], 0x[[#B+0x1100]]) (512 bytes): it overlaps the locked range [0x[[#B+0x1000]], 0x[[#B+0x2000]]) (4096 bytes) without lying inside it; lock a range inside it, or unlock it first (a locked range is never extended)
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_lock_mem: device 0: the plugin could not lock host memory 0x{{0*}}[[#B+0xf00]] (512 bytes); its message, if any, says why
  // CHECK-NEXT: lock(starts before r1)=(nil)
  printf("lock(starts before r1)=%p\n", llvm_omp_target_lock_mem(r1 - 256, 512, 0));
  // CHECK-NEXT: TARGET x86_64 RTL error: data_lock: device 0: cannot lock host range [0x[[#B+0x1100]], 0x[[#B+0x4100]]) (12288 bytes): it overlaps the locked range [0x[[#B+0x1000]], 0x[[#B+0x2000]]) (4096 bytes) without lying inside it and the locked range [0x[[#B+0x3000]], 0x[[#B+0x4000]]) (4096 bytes); lock a range inside it, or unlock it first (a locked range is never extended)
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_lock_mem: device 0: the plugin could not lock host memory 0x{{0*}}[[#B+0x1100]] (12288 bytes); its message, if any, says why
  // CHECK-NEXT: lock(over r1 and r2)=(nil)
  printf("lock(over r1 and r2)=%p\n", llvm_omp_target_lock_mem(r1 + 256, 3 * 4096, 0));

  // Double unlock: the second finds nothing locked.
  char *r3 = buf + 6 * 4096;
  // CHECK-NEXT: locked r3=1
  printf("locked r3=%d\n", llvm_omp_target_lock_mem(r3, 100, 0) == r3);
  llvm_omp_target_unlock_mem(r3, 0);
  // CHECK-NEXT: TARGET x86_64 RTL error: data_unlock: device 0: host pointer 0x[[#B+0x6000]] is not in memory locked on this device (llvm_omp_target_lock_mem); nothing was unlocked
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_unlock_mem: device 0: the plugin could not unlock host memory 0x{{0*}}[[#B+0x6000]]; its message, if any, says why
  // CHECK-NEXT: double unlock survived
  llvm_omp_target_unlock_mem(r3, 0);
  printf("double unlock survived\n");
  // Never locked (the end of r1 is not inside it).
  // CHECK-NEXT: TARGET x86_64 RTL error: data_unlock: device 0: host pointer 0x[[#B+0x2000]] is not in memory locked on this device (llvm_omp_target_lock_mem); nothing was unlocked
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_unlock_mem: device 0: the plugin could not unlock host memory 0x{{0*}}[[#B+0x2000]]; its message, if any, says why
  // CHECK-NEXT: unlock of unlocked memory survived
  llvm_omp_target_unlock_mem(r1 + 4096, 0);
  printf("unlock of unlocked memory survived\n");
  // The wrong device: r1 is locked on device 0, not 1.
  // CHECK-NEXT: TARGET x86_64 RTL error: data_unlock: device 1: host pointer 0x[[#B+0x1010]] is not in memory locked on this device (llvm_omp_target_lock_mem); nothing was unlocked; it is locked on device 0: unlock it with the device number it was locked with
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_unlock_mem: device 1: the plugin could not unlock host memory 0x{{0*}}[[#B+0x1010]]; its message, if any, says why
  // CHECK-NEXT: unlock on the wrong device survived
  llvm_omp_target_unlock_mem(r1 + 16, 1);
  printf("unlock on the wrong device survived\n");
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_unlock_mem: null pointer on device 0; nothing was unlocked
  // CHECK-NEXT: unlock(NULL) survived
  llvm_omp_target_unlock_mem(NULL, 0);
  printf("unlock(NULL) survived\n");
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_unlock_mem: invalid device number 99 (there are 4 devices; valid numbers are 0..3, or omp_get_initial_device() for the host); nothing was unlocked
  // CHECK-NEXT: unlock(device 99) survived
  llvm_omp_target_unlock_mem(r1, 99);
  printf("unlock(device 99) survived\n");
  // Pinned memory from llvm_omp_target_alloc_host, never locked.
  char *h = llvm_omp_target_alloc_host(100, 0);
  printf("h=%p\n", (void *)h);
  // CHECK-NEXT: h=0x[[#%x,H:]]
  // CHECK-NEXT: TARGET x86_64 RTL error: data_unlock: device 0: host pointer 0x[[#H+4]] is in pinned memory from llvm_omp_target_alloc_host [0x[[#H]], 0x[[#H+100]]) (100 bytes) that holds no lock (llvm_omp_target_lock_mem) to drop; it stays pinned until llvm_omp_target_free
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_unlock_mem: device 0: the plugin could not unlock host memory 0x{{0*}}[[#H+4]]; its message, if any, says why
  // CHECK-NEXT: unlock of alloc_host memory survived
  llvm_omp_target_unlock_mem(h + 4, 0);
  printf("unlock of alloc_host memory survived\n");
  llvm_omp_target_free_host(h, 0);
  // The initial device: nothing to lock or unlock, no message.
  // CHECK-NEXT: initial device: lock=1
  printf("initial device: lock=%d\n", llvm_omp_target_lock_mem(buf, 64, omp_get_initial_device()) == buf);
  llvm_omp_target_unlock_mem(buf, omp_get_initial_device());

  // r1 and r2 still locked and usable.
  for (int i = 0; i < 4096; i++) r1[i] = (char)i, r2[i] = (char)(3 * i);
#pragma omp target teams distribute parallel for map(tofrom : r1[0:4096], r2[0:4096])
  for (int i = 0; i < 4096; i++) {
    r1[i] += 1;
    r2[i] += 2;
  }
  int ok = 1;
  for (int i = 0; i < 4096; i++) ok &= r1[i] == (char)(i + 1) && r2[i] == (char)(3 * i + 2);
  // CHECK-NEXT: locked buffers after the errors: ok
  printf("locked buffers after the errors: %s\n", ok ? "ok" : "wrong");
  // One reference each: the first unlock is quiet, the second an error.
  llvm_omp_target_unlock_mem(r1 + 100, 0);
  llvm_omp_target_unlock_mem(r2, 0);
  // CHECK-NEXT: unlocked r1 and r2
  printf("unlocked r1 and r2\n");
  // CHECK-NEXT: TARGET x86_64 RTL error: data_unlock: device 0: host pointer 0x[[#B+0x1000]] is not in memory locked on this device (llvm_omp_target_lock_mem); nothing was unlocked
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_unlock_mem: device 0: the plugin could not unlock host memory 0x{{0*}}[[#B+0x1000]]; its message, if any, says why
  // CHECK-NEXT: done
  llvm_omp_target_unlock_mem(r1, 0);
  printf("done\n");
  free(buf);
  return 0;
}

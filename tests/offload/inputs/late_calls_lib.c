// A library whose destructor calls the offload API after the runtime shut
// down (late_calls_after_shutdown.c). It does not link libomptarget.so: the
// program lists it after libomptarget.so, so the loader finalizes it after
// the runtime's own library destructor; the API is looked up at that time.
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void *Kept;  // omp_target_alloc'ed on device 0 by the program, never freed

void late_keep(void *P) { Kept = P; }

#define LATE_FN(Ret, Name, ...) Ret (*Name)(__VA_ARGS__) = (Ret(*)(__VA_ARGS__))dlsym(RTLD_DEFAULT, #Name)

__attribute__((destructor)) static void lateCalls(void) {
  LATE_FN(void, omp_target_free, void *, int);
  LATE_FN(void *, omp_target_alloc, size_t, int);
  LATE_FN(int, omp_get_num_devices, void);
  LATE_FN(int, omp_target_is_present, const void *, int);
  LATE_FN(int, omp_target_memcpy, void *, const void *, size_t, size_t, size_t, int, int);
  LATE_FN(void *, llvm_omp_target_lock_mem, void *, size_t, int);
  LATE_FN(void, llvm_omp_target_unlock_mem, void *, int);
  LATE_FN(int, omp_target_associate_ptr, const void *, const void *, size_t, size_t, int);
  LATE_FN(int, omp_target_disassociate_ptr, const void *, int);
  LATE_FN(void *, omp_get_mapped_ptr, const void *, int);
  static char Host[64];
  printf("late: num_devices %d\n", omp_get_num_devices());
  omp_target_free(Kept, 0);
  printf("late: freed the kept block\n");
  printf("late: alloc %s\n", omp_target_alloc(64, 0) ? "pointer" : "NULL");
  printf("late: is_present %d\n", omp_target_is_present(Host, 0));
  printf("late: memcpy %d\n", omp_target_memcpy(Kept, Host, sizeof Host, 0, 0, 0, 1));
  printf("late: lock %s\n", llvm_omp_target_lock_mem(Host, sizeof Host, 0) ? "pointer" : "NULL");
  llvm_omp_target_unlock_mem(Host, 0);
  printf("late: associate %d\n", omp_target_associate_ptr(Host, Kept, sizeof Host, 0, 0));
  printf("late: disassociate %d\n", omp_target_disassociate_ptr(Host, 0));
  printf("late: mapped_ptr %s\n", omp_get_mapped_ptr(Host, 0) ? "pointer" : "NULL");
  fflush(stdout);
}

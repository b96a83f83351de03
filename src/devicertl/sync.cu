// Mutual exclusion and single-thread constructs: critical sections and
// OpenMP locks (device-wide spin locks), master/masked/single, flush,
// ordered, cancellation (not supported on the device: never cancels).
#include "state.h"

using namespace devrtl;

// clang's critical-section name: 8 words of zero-initialized storage per name.
ENTRY void __kmpc_critical(IdentTy *, int32_t, uint32_t (*Name)[8]) { spinLock(&(*Name)[0]); }
ENTRY void __kmpc_end_critical(IdentTy *, int32_t, uint32_t (*Name)[8]) { spinUnlock(&(*Name)[0]); }

// omp_lock_t on the device: its first word is the lock.
struct omp_lock_t {
  uint32_t Word;
};
ENTRY void omp_init_lock(omp_lock_t *Lock) { atomicStore(&Lock->Word, kUnlocked); }
ENTRY void omp_destroy_lock(omp_lock_t *Lock) { atomicStore(&Lock->Word, kUnlocked); }
ENTRY void omp_set_lock(omp_lock_t *Lock) { spinLock(&Lock->Word); }
ENTRY void omp_unset_lock(omp_lock_t *Lock) { spinUnlock(&Lock->Word); }
ENTRY int omp_test_lock(omp_lock_t *Lock) {
  uint32_t Expected = kUnlocked;
  if (!atomicCompareExchange(&Lock->Word, Expected, kLocked)) return 0;
  fenceDevice();
  return 1;
}

ENTRY int32_t __kmpc_master(IdentTy *, int32_t) { return omp_get_thread_num() == 0; }
ENTRY void __kmpc_end_master(IdentTy *, int32_t) {}
ENTRY int32_t __kmpc_masked(IdentTy *, int32_t, int32_t Filter) {
  return omp_get_thread_num() == Filter;
}
ENTRY void __kmpc_end_masked(IdentTy *, int32_t) {}
// single: the team's thread 0 runs it (clang adds the barrier after it unless
// nowait).
ENTRY int32_t __kmpc_single(IdentTy *, int32_t) { return omp_get_thread_num() == 0; }
ENTRY void __kmpc_end_single(IdentTy *, int32_t) {}

ENTRY void __kmpc_flush(IdentTy *) { fenceDevice(); }
ENTRY void __kmpc_ordered(IdentTy *, int32_t) {}
ENTRY void __kmpc_end_ordered(IdentTy *, int32_t) {}

ENTRY int32_t __kmpc_cancel(IdentTy *, int32_t, int32_t) { return 0; }
ENTRY int32_t __kmpc_cancellationpoint(IdentTy *, int32_t, int32_t) { return 0; }

ENTRY uint64_t __kmpc_warp_active_thread_mask() { return activeMask(); }
ENTRY void __kmpc_syncwarp(uint64_t Mask) { warpSync(static_cast<uint32_t>(Mask)); }

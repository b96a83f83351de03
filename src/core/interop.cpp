// OpenMP 5.1 interop objects. No plugin of ours exposes foreign runtime
// handles yet, so `interop init` yields omp_interop_none and every property
// query reports that the object holds no such property.
#include <cstdint>

#include "debug.h"
#include "export.h"
#include "omptarget/abi.h"

namespace {
// omp_interop_rc_t values from omp.h.
constexpr int kRcNoValue = 1;
constexpr int kRcOutOfRange = -2;
}  // namespace

extern "C" {

OMPT_EXPORT void __tgt_interop_init(ident_t *, int32_t, void **InteropPtr, int32_t, int32_t DeviceId,
                                    int64_t, void *, int32_t) {
  OMPT_TRACE("omptarget", "interop init on device %d: interop objects are not supported; "
                          "returning omp_interop_none", DeviceId);
  if (InteropPtr) *InteropPtr = nullptr;
}
OMPT_EXPORT void __tgt_interop_use(ident_t *, int32_t, void **, int32_t, int64_t, void *, int32_t) {}
OMPT_EXPORT void __tgt_interop_destroy(ident_t *, int32_t, void **InteropPtr, int32_t, int64_t,
                                       void *, int32_t) {
  if (InteropPtr) *InteropPtr = nullptr;
}

OMPT_EXPORT intptr_t omp_get_interop_int(const void *, int, int *Err) {
  if (Err) *Err = kRcNoValue;
  return 0;
}
OMPT_EXPORT void *omp_get_interop_ptr(const void *, int, int *Err) {
  if (Err) *Err = kRcNoValue;
  return nullptr;
}
OMPT_EXPORT const char *omp_get_interop_str(const void *, int, int *Err) {
  if (Err) *Err = kRcNoValue;
  return nullptr;
}
OMPT_EXPORT const char *omp_get_interop_name(const void *, int) { return nullptr; }
OMPT_EXPORT const char *omp_get_interop_type_desc(const void *, int) { return nullptr; }
OMPT_EXPORT const char *omp_get_interop_rc_desc(const void *, int Rc) {
  return Rc == kRcOutOfRange ? "property out of range" : "no value";
}

}  // extern "C"

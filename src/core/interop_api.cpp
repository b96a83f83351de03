// The interoperability routines (OpenMP 5.1 §3.12): omp_get_interop_int /
// ptr / str / name / type_desc / rc_desc and omp_get_num_interop_properties.
// (libomp exports the same names and forwards to these, rc_desc under the
// name omp_get_interop_rec_desc.)
//
// Return codes (stored through a non-null ret_code):
//   omp_irc_empty         the object is omp_interop_none (checked first)
//   omp_irc_other         the handle is not a live object of this runtime
//                         (destroyed, or never made by `interop init`)
//   omp_irc_out_of_range  the property id is outside omp_ipr_first..-1 (an
//                         object has no implementation-defined properties)
//   omp_irc_type_int/ptr/str  the property's type is int / pointer /
//                         string: read it with that routine
//   omp_irc_no_value      the property has no value on this object
//   omp_irc_success       the value is returned
// On any code but success the routine returns 0 / NULL. omp_get_interop_name
// does not depend on the object (the names of Table 3.1); type_desc returns
// NULL where int/ptr/str would not return a value. Nothing here crashes on
// omp_interop_none or a stale handle (LLVM 14 dereferences both).
#include <cstdint>

#include "export.h"
#include "interop_object.h"
#include "runtime.h"

using namespace omptarget::core;
namespace ir = omptarget::core::interop;

namespace {

int typeRc(PropertyType T) {
  switch (T) {
    case PropertyType::Int: return ir::kRcTypeInt;
    case PropertyType::Ptr: return ir::kRcTypePtr;
    case PropertyType::Str: return ir::kRcTypeStr;
  }
  return ir::kRcOther;
}

bool inRange(int Id) { return Id >= ir::kFirstProperty && Id < 0; }

// The property `Id` of `Handle` when it has type `Want` and a value: Rc
// success and the property, else Rc says why and no property.
struct Lookup {
  int Rc = ir::kRcOther;
  InteropProperty Prop;
};
Lookup lookup(const void *Handle, int Id, PropertyType Want) {
  Lookup L;
  if (!Handle) {
    L.Rc = ir::kRcEmpty;
    return L;
  }
  RuntimeUse Use;  // after shutdown no object is live
  if (!Use) {
    L.Rc = ir::kRcOther;
    return L;
  }
  std::shared_ptr<InteropObject> Obj = Runtime::get().interops().find(Handle);
  if (!Obj) {
    L.Rc = ir::kRcOther;
    return L;
  }
  if (!inRange(Id)) {
    L.Rc = ir::kRcOutOfRange;
    return L;
  }
  const InteropProperty &P = Obj->property(Id);
  if (P.Type != Want)
    L.Rc = typeRc(P.Type);
  else if (!P.HasValue)
    L.Rc = ir::kRcNoValue;
  else {
    L.Rc = ir::kRcSuccess;
    L.Prop = P;
  }
  return L;
}

void store(int *RetCode, int Rc) {
  if (RetCode) *RetCode = Rc;
}

}  // namespace

extern "C" {

OMPT_EXPORT int omp_get_num_interop_properties(const void *) { return 0; }

OMPT_EXPORT intptr_t omp_get_interop_int(const void *Interop, int Property, int *RetCode) {
  Lookup L = lookup(Interop, Property, PropertyType::Int);
  store(RetCode, L.Rc);
  return L.Rc == ir::kRcSuccess ? L.Prop.Int : 0;
}

OMPT_EXPORT void *omp_get_interop_ptr(const void *Interop, int Property, int *RetCode) {
  Lookup L = lookup(Interop, Property, PropertyType::Ptr);
  store(RetCode, L.Rc);
  return L.Rc == ir::kRcSuccess ? L.Prop.Ptr : nullptr;
}

OMPT_EXPORT const char *omp_get_interop_str(const void *Interop, int Property, int *RetCode) {
  Lookup L = lookup(Interop, Property, PropertyType::Str);
  store(RetCode, L.Rc);
  return L.Rc == ir::kRcSuccess ? L.Prop.Str : nullptr;
}

OMPT_EXPORT const char *omp_get_interop_name(const void *, int Property) {
  static const char *const Names[ir::kNumProperties] = {"fr_id",      "fr_name",
                                                        "vendor",     "vendor_name",
                                                        "device_num", "platform",
                                                        "device",     "device_context",
                                                        "targetsync"};
  return inRange(Property) ? Names[-Property - 1] : nullptr;
}

OMPT_EXPORT const char *omp_get_interop_type_desc(const void *Interop, int Property) {
  RuntimeUse Use;
  if (!Interop || !inRange(Property) || !Use) return nullptr;
  std::shared_ptr<InteropObject> Obj = Runtime::get().interops().find(Interop);
  if (!Obj) return nullptr;
  const InteropProperty &P = Obj->property(Property);
  return P.HasValue ? P.TypeDesc : nullptr;
}

OMPT_EXPORT const char *omp_get_interop_rc_desc(const void *Interop, int Rc);

// libomp 14's omp_get_interop_rc_desc forwards to this misspelt name (and
// returns NULL when nothing exports it): programs reach the routine here.
OMPT_EXPORT const char *omp_get_interop_rec_desc(const void *Interop, int Rc) {
  return omp_get_interop_rc_desc(Interop, Rc);
}

OMPT_EXPORT const char *omp_get_interop_rc_desc(const void *, int Rc) {
  switch (Rc) {
    case ir::kRcNoValue: return "no value: the object has no value for this property";
    case ir::kRcSuccess: return "success";
    case ir::kRcEmpty: return "empty: the object is omp_interop_none";
    case ir::kRcOutOfRange: return "out of range: no property has this id";
    case ir::kRcTypeInt: return "type error: the property is an integer; use omp_get_interop_int";
    case ir::kRcTypePtr: return "type error: the property is a pointer; use omp_get_interop_ptr";
    case ir::kRcTypeStr: return "type error: the property is a string; use omp_get_interop_str";
    case ir::kRcOther:
      return "other error: the handle is not a live interop object (destroyed, or not made by "
             "`interop init`)";
  }
  return nullptr;
}

}  // extern "C"

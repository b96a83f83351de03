#include "ffi_launch.h"

#include <ffi.h>

#include <array>
#include <vector>

namespace omptarget::host {

namespace {
// Argument arrays live on the stack up to this many arguments.
constexpr int32_t kInlineArgs = 32;

Status call(void *Entry, void **Args, const ptrdiff_t *Offsets, int32_t NumArgs, ffi_type **Types,
            void **Ptrs, void **Values) {
  for (int32_t I = 0; I < NumArgs; ++I) {
    Types[I] = &ffi_type_pointer;
    Ptrs[I] = static_cast<char *>(Args[I]) + Offsets[I];
    Values[I] = &Ptrs[I];
  }
  ffi_cif Cif;
  ffi_status S = ffi_prep_cif(&Cif, FFI_DEFAULT_ABI, static_cast<unsigned>(NumArgs), &ffi_type_void, Types);
  if (S != FFI_OK) return makeError("ffi_prep_cif failed for %d argument(s) (status %d)", NumArgs, S);
  ffi_call(&Cif, FFI_FN(Entry), nullptr, Values);
  return {};
}
}  // namespace

Status callWithPointerArgs(void *Entry, void **Args, const ptrdiff_t *Offsets, int32_t NumArgs) {
  if (NumArgs <= kInlineArgs) {
    std::array<ffi_type *, kInlineArgs> Types;
    std::array<void *, kInlineArgs> Ptrs, Values;
    return call(Entry, Args, Offsets, NumArgs, Types.data(), Ptrs.data(), Values.data());
  }
  std::vector<ffi_type *> Types(static_cast<size_t>(NumArgs));
  std::vector<void *> Ptrs(static_cast<size_t>(NumArgs)), Values(static_cast<size_t>(NumArgs));
  return call(Entry, Args, Offsets, NumArgs, Types.data(), Ptrs.data(), Values.data());
}

}  // namespace omptarget::host

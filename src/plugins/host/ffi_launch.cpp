#include "ffi_launch.h"

#include <ffi.h>

#include <array>
#include <utility>
#include <vector>

namespace omptarget::host {

namespace {
// Up to this many arguments the entry is called directly, through a function
// pointer of the exact type void(void *, ..., void *): the outlined region is
// such a function, so this is the call the compiler itself would emit.
constexpr int32_t kDirectArgs = 16;
// Up to this many arguments the prepared ffi_cif comes from a table built
// once (every argument is a pointer, so a cif depends on NumArgs only).
constexpr int32_t kCachedCifs = 64;

template <size_t>
using PtrArg = void *;

template <size_t... Is>
void callDirect(void *Entry, void **Args, const ptrdiff_t *Offsets, std::index_sequence<Is...>) {
  using FnT = void (*)(PtrArg<Is>...);
  reinterpret_cast<FnT>(Entry)(static_cast<void *>(static_cast<char *>(Args[Is]) + Offsets[Is])...);
}

using DirectFn = void (*)(void *, void **, const ptrdiff_t *);

template <size_t N>
void callDirectN(void *Entry, void **Args, const ptrdiff_t *Offsets) {
  callDirect(Entry, Args, Offsets, std::make_index_sequence<N>{});
}

template <size_t... Ns>
constexpr std::array<DirectFn, sizeof...(Ns)> makeDirectTable(std::index_sequence<Ns...>) {
  return {&callDirectN<Ns>...};
}

constexpr auto kDirect = makeDirectTable(std::make_index_sequence<kDirectArgs + 1>{});

struct CifTable {
  std::array<ffi_type *, kCachedCifs> Types;
  std::array<ffi_cif, kCachedCifs + 1> Cifs;
  std::array<bool, kCachedCifs + 1> Ok;
  CifTable() {
    Types.fill(&ffi_type_pointer);
    for (int32_t N = 0; N <= kCachedCifs; ++N)
      Ok[N] = ffi_prep_cif(&Cifs[N], FFI_DEFAULT_ABI, static_cast<unsigned>(N), &ffi_type_void,
                           Types.data()) == FFI_OK;
  }
};

const CifTable &cifTable() {
  static const CifTable Table;  // never changes after construction: no lock on use
  return Table;
}

Status callFfi(void *Entry, void **Args, const ptrdiff_t *Offsets, int32_t NumArgs, void **Ptrs,
               void **Values) {
  for (int32_t I = 0; I < NumArgs; ++I) {
    Ptrs[I] = static_cast<char *>(Args[I]) + Offsets[I];
    Values[I] = &Ptrs[I];
  }
  if (NumArgs <= kCachedCifs) {
    const CifTable &T = cifTable();
    if (!T.Ok[NumArgs]) return makeError("ffi_prep_cif failed for %d argument(s)", NumArgs);
    ffi_call(const_cast<ffi_cif *>(&T.Cifs[NumArgs]), FFI_FN(Entry), nullptr, Values);
    return {};
  }
  std::vector<ffi_type *> Types(static_cast<size_t>(NumArgs), &ffi_type_pointer);
  ffi_cif Cif;
  ffi_status S = ffi_prep_cif(&Cif, FFI_DEFAULT_ABI, static_cast<unsigned>(NumArgs), &ffi_type_void,
                              Types.data());
  if (S != FFI_OK)
    return makeError("ffi_prep_cif failed for %d argument(s) (status %d)", NumArgs, S);
  ffi_call(&Cif, FFI_FN(Entry), nullptr, Values);
  return {};
}
}  // namespace

Status callWithPointerArgs(void *Entry, void **Args, const ptrdiff_t *Offsets, int32_t NumArgs) {
  if (NumArgs >= 0 && NumArgs <= kDirectArgs) {
    kDirect[static_cast<size_t>(NumArgs)](Entry, Args, Offsets);
    return {};
  }
  if (NumArgs <= kCachedCifs) {
    std::array<void *, kCachedCifs> Ptrs, Values;
    return callFfi(Entry, Args, Offsets, NumArgs, Ptrs.data(), Values.data());
  }
  std::vector<void *> Ptrs(static_cast<size_t>(NumArgs)), Values(static_cast<size_t>(NumArgs));
  return callFfi(Entry, Args, Offsets, NumArgs, Ptrs.data(), Values.data());
}

}  // namespace omptarget::host

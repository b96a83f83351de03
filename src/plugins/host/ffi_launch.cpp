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

// The same with a null launch environment first (EnvironmentFirst).
template <size_t... Is>
void callDirectAfterNull(void *Entry, void **Args, const ptrdiff_t *Offsets,
                         std::index_sequence<Is...>) {
  using FnT = void (*)(void *, PtrArg<Is>...);
  reinterpret_cast<FnT>(Entry)(nullptr,
                               static_cast<void *>(static_cast<char *>(Args[Is]) + Offsets[Is])...);
}

using DirectFn = void (*)(void *, void **, const ptrdiff_t *);

template <size_t N>
void callDirectN(void *Entry, void **Args, const ptrdiff_t *Offsets) {
  callDirect(Entry, Args, Offsets, std::make_index_sequence<N>{});
}

template <size_t N>
void callDirectAfterNullN(void *Entry, void **Args, const ptrdiff_t *Offsets) {
  callDirectAfterNull(Entry, Args, Offsets, std::make_index_sequence<N>{});
}

template <size_t... Ns>
constexpr std::array<DirectFn, sizeof...(Ns)> makeDirectTable(std::index_sequence<Ns...>) {
  return {&callDirectN<Ns>...};
}

template <size_t... Ns>
constexpr std::array<DirectFn, sizeof...(Ns)> makeDirectAfterNullTable(std::index_sequence<Ns...>) {
  return {&callDirectAfterNullN<Ns>...};
}

// Indexed by the number of arguments after the environment: 0 to 15.
constexpr auto kDirect = makeDirectTable(std::make_index_sequence<kDirectArgs + 1>{});
constexpr auto kDirectAfterNull = makeDirectAfterNullTable(std::make_index_sequence<kDirectArgs>{});

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

// NumParams = NumArgs, or NumArgs + 1 with the null environment first.
Status callFfi(void *Entry, void **Args, const ptrdiff_t *Offsets, int32_t NumParams, int32_t Lead,
               void **Ptrs, void **Values) {
  for (int32_t I = 0; I < NumParams; ++I) {
    Ptrs[I] = I < Lead ? nullptr : static_cast<char *>(Args[I - Lead]) + Offsets[I - Lead];
    Values[I] = &Ptrs[I];
  }
  if (NumParams <= kCachedCifs) {
    const CifTable &T = cifTable();
    if (!T.Ok[NumParams]) return makeError("ffi_prep_cif failed for %d parameter(s)", NumParams);
    ffi_call(const_cast<ffi_cif *>(&T.Cifs[NumParams]), FFI_FN(Entry), nullptr, Values);
    return {};
  }
  std::vector<ffi_type *> Types(static_cast<size_t>(NumParams), &ffi_type_pointer);
  ffi_cif Cif;
  ffi_status S = ffi_prep_cif(&Cif, FFI_DEFAULT_ABI, static_cast<unsigned>(NumParams),
                              &ffi_type_void, Types.data());
  if (S != FFI_OK)
    return makeError("ffi_prep_cif failed for %d parameter(s) (status %d)", NumParams, S);
  ffi_call(&Cif, FFI_FN(Entry), nullptr, Values);
  return {};
}
}  // namespace

Status callWithPointerArgs(void *Entry, void **Args, const ptrdiff_t *Offsets, int32_t NumArgs,
                           bool EnvironmentFirst) {
  if (NumArgs < 0) return makeError("a region called with %d arguments", NumArgs);
  const int32_t Lead = EnvironmentFirst ? 1 : 0;
  const int32_t NumParams = NumArgs + Lead;
  if (NumParams <= kDirectArgs) {
    const DirectFn Call = EnvironmentFirst ? kDirectAfterNull[static_cast<size_t>(NumArgs)]
                                           : kDirect[static_cast<size_t>(NumArgs)];
    Call(Entry, Args, Offsets);
    return {};
  }
  if (NumParams <= kCachedCifs) {
    std::array<void *, kCachedCifs> Ptrs, Values;
    return callFfi(Entry, Args, Offsets, NumParams, Lead, Ptrs.data(), Values.data());
  }
  std::vector<void *> Ptrs(static_cast<size_t>(NumParams)), Values(static_cast<size_t>(NumParams));
  return callFfi(Entry, Args, Offsets, NumParams, Lead, Ptrs.data(), Values.data());
}

}  // namespace omptarget::host

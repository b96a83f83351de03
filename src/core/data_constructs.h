// The mapping phases of the data constructs: `target data`/`enter data`
// (begin), `exit data` and the end of regions (end), and `target update`.
// They follow OpenMP 5.1 and LLVM 14's observable behaviour: reference
// counting, PTR_AND_OBJ attachment with shadow pointers, MEMBER_OF entries,
// user-defined mappers, non-contiguous updates.
#pragma once

#include <cstdint>

#include "async_info.h"
#include "device.h"
#include "error.h"

namespace omptarget::core {

// The argument arrays clang passes to every mapping entry point.
struct MapArgs {
  int32_t Num = 0;
  void **Bases = nullptr;
  void **Begins = nullptr;
  int64_t *Sizes = nullptr;
  int64_t *Types = nullptr;
  map_var_info_t *Names = nullptr;
  void **Mappers = nullptr;
  // When set, dataBegin stores how many leading arguments it has mapped, so a
  // failed construct can give back exactly the references it took.
  int32_t *Progress = nullptr;
  // When set (Num elements), dataBegin stores the device address of each
  // argument's begin it mapped, so that a target region need not look its
  // arguments up again; entries it did not map stay as they were.
  void **TgtBegins = nullptr;
  // Set by a mapper's expansion of a list item that is itself a member of a
  // struct mapped by the same construct: the first component (the whole
  // item) then rides on that struct's reference count like any member, in
  // both phases, so the item's own members still see the struct as new.
  bool FirstRidesOnParent = false;

  // Argument I is that first component.
  bool ridesOnParent(int32_t I) const { return I == 0 && FirstRidesOnParent; }
};

Status dataBegin(Device &D, const MapArgs &Args, AsyncInfo &Async);
// Issues D2H copies now; restoring host pointers and freeing device memory
// run after the construct's synchronization.
Status dataEnd(Device &D, const MapArgs &Args, AsyncInfo &Async);
Status dataUpdate(Device &D, const MapArgs &Args, AsyncInfo &Async);
// The end phase of a construct that failed: gives back the references that
// dataBegin took for Args, copying nothing back.
Status dataEndWithoutCopyBack(Device &D, const MapArgs &Args, AsyncInfo &Async);

enum class DataConstruct { Begin, End, Update };
// A whole data construct: its phase on one AsyncInfo, synchronized once at
// the end. Entries a Begin created are dropped again if its queued copies fail.
Status runDataConstruct(Device &D, DataConstruct Kind, const MapArgs &Args);

}  // namespace omptarget::core

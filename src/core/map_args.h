// The argument arrays clang passes to every mapping entry point, as one
// value the data phases (data_constructs.h), the mapper expansion
// (mappers.h) and the target launch (target_launch.h) share.
#pragma once

#include <cstdint>

#include "omptarget/abi.h"

namespace omptarget::core {

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
  map_var_info_t nameOf(int32_t I) const { return Names ? Names[I] : nullptr; }
};

}  // namespace omptarget::core

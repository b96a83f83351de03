// User-defined mappers (`declare mapper`): clang emits a mapper function per
// mapper that, called with a handle, pushes the component maps of one list
// item through __tgt_push_mapper_component. The runtime then runs the data
// phase on those components as if they had been the construct's arguments.
#pragma once

#include <cstdint>
#include <vector>

#include "data_constructs.h"

namespace omptarget::core {

struct MapperComponent {
  void *Base;
  void *Begin;
  int64_t Size;
  int64_t Type;
  map_var_info_t Name;
};

// What a mapper handle points to.
struct MapperComponents {
  std::vector<MapperComponent> Items;
};

using DataPhase = Status (*)(Device &, const MapArgs &, AsyncInfo &);

// Expands argument `I` of `Args` with its mapper and runs `Phase` on the
// components. When `Phase` is dataBegin and a component fails, the components
// before it give back what they took (nothing copied back): a list item is
// mapped whole or not at all.
Status runMapper(Device &D, const MapArgs &Args, int32_t I, AsyncInfo &Async, DataPhase Phase);

}  // namespace omptarget::core

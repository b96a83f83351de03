// User-defined mappers (`declare mapper`): clang emits a mapper function per
// mapper that, called with a handle, pushes the component maps of one list
// item through __tgt_push_mapper_component (nested mappers push into the
// same handle). expandMapper calls it and returns the components as
// arguments of their own, which the data phases (data_constructs.h) then
// map as if they had been the construct's.
//
// The outer clause's modifiers reach every component: clang 14 and 19 build
// a component's map type from the mapper's own clause, adjusted only by the
// outer `to`/`from`, so an `always`, `close`, `present` or `ompx_hold` on
// the clause that names the mapper would be lost (OpenMP applies them to
// the list item, hence to everything its mapper maps). The expansion adds
// them to each component.
#pragma once

#include <cstdint>
#include <vector>

#include "map_args.h"

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

// The modifiers of an outer map clause that every component inherits.
constexpr int64_t kInheritedModifiers =
    static_cast<int64_t>(abi::kMapAlways | abi::kMapClose | abi::kMapPresent | abi::kMapOmpxHold);

// The components of argument I of Args (which has a mapper), as arguments.
class MapperExpansion {
 public:
  MapperExpansion(const MapArgs &Args, int32_t I);
  // args() points into the expansion's own arrays.
  MapperExpansion(const MapperExpansion &) = delete;
  MapperExpansion &operator=(const MapperExpansion &) = delete;
  const MapArgs &args() const { return Args_; }

 private:
  std::vector<void *> Bases_, Begins_;
  std::vector<int64_t> Sizes_, Types_;
  std::vector<map_var_info_t> Names_;
  MapArgs Args_;
};

}  // namespace omptarget::core

#include "mappers.h"

#include "debug.h"

namespace omptarget::core {

namespace {
using MapperFunction = void (*)(void *Handle, void *Base, void *Begin, int64_t Size, int64_t Type,
                                void *Name);
}

MapperExpansion::MapperExpansion(const MapArgs &Args, int32_t I) {
  MapperComponents Components;
  auto Mapper = reinterpret_cast<MapperFunction>(Args.Mappers[I]);
  const int64_t OuterType = Args.Types[I];
  Mapper(&Components, Args.Bases[I], Args.Begins[I], Args.Sizes[I], OuterType, Args.nameOf(I));
  OMPT_TRACE("omptarget", "Mapper of argument %d produced %zu components", I,
             Components.Items.size());
  const int64_t Inherited = OuterType & kInheritedModifiers;
  for (const MapperComponent &C : Components.Items) {
    Bases_.push_back(C.Base);
    Begins_.push_back(C.Begin);
    Sizes_.push_back(C.Size);
    Types_.push_back(C.Type | Inherited);
    Names_.push_back(C.Name);
  }
  Args_.Num = static_cast<int32_t>(Components.Items.size());
  Args_.Bases = Bases_.data();
  Args_.Begins = Begins_.data();
  Args_.Sizes = Sizes_.data();
  Args_.Types = Types_.data();
  Args_.Names = Names_.data();
  Args_.FirstRidesOnParent = (OuterType & static_cast<int64_t>(abi::kMapMemberOfMask)) != 0;
}

}  // namespace omptarget::core

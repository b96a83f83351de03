#include "mappers.h"

#include "debug.h"

namespace omptarget::core {

namespace {
using MapperFunction = void (*)(void *Handle, void *Base, void *Begin, int64_t Size, int64_t Type,
                                void *Name);
}

Status runMapper(Device &D, const MapArgs &Args, int32_t I, AsyncInfo &Async, DataPhase Phase) {
  MapperComponents Components;
  auto Mapper = reinterpret_cast<MapperFunction>(Args.Mappers[I]);
  Mapper(&Components, Args.Bases[I], Args.Begins[I], Args.Sizes[I], Args.Types[I],
         Args.Names ? Args.Names[I] : nullptr);
  OMPT_TRACE("omptarget", "Mapper of argument %d produced %zu components", I,
             Components.Items.size());
  size_t N = Components.Items.size();
  std::vector<void *> Bases(N), Begins(N);
  std::vector<int64_t> Sizes(N), Types(N);
  std::vector<map_var_info_t> Names(N);
  for (size_t K = 0; K < N; ++K) {
    const MapperComponent &C = Components.Items[K];
    Bases[K] = C.Base;
    Begins[K] = C.Begin;
    Sizes[K] = C.Size;
    Types[K] = C.Type;
    Names[K] = C.Name;
  }
  MapArgs Sub;
  Sub.Num = static_cast<int32_t>(N);
  Sub.Bases = Bases.data();
  Sub.Begins = Begins.data();
  Sub.Sizes = Sizes.data();
  Sub.Types = Types.data();
  Sub.Names = Names.data();
  Sub.FirstRidesOnParent = (Args.Types[I] & static_cast<int64_t>(abi::kMapMemberOfMask)) != 0;
  if (Phase != dataBegin) return Phase(D, Sub, Async);

  // The construct only knows that argument I failed, so the components
  // mapped before the failing one give their references back here (at once,
  // or after the construct's synchronize if it has work queued, like any
  // drop): the list item leaves no entry behind.
  int32_t Mapped = 0;
  Sub.Progress = &Mapped;
  Status S = dataBegin(D, Sub, Async);
  if (!S && Mapped > 0) {
    Sub.Num = Mapped;
    if (Status Undo = dataEndWithoutCopyBack(D, Sub, Async); !Undo)
      debug::error("releasing the components of a failed mapper: %s",
                   Undo.error().message().c_str());
  }
  return S;
}

}  // namespace omptarget::core

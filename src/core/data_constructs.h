// The mapping phases of the data constructs: `target data`/`enter data`
// (begin), `exit data` and the end of regions (end), and `target update`.
// They follow OpenMP 5.1 and LLVM 14's observable behaviour: reference
// counting, PTR_AND_OBJ attachment with shadow pointers, MEMBER_OF entries,
// user-defined mappers, non-contiguous updates. They state the OpenMP rule
// of each list item and call the mapping layer: map_ops.h to enter an
// entry, entry_exit.h to leave one.
#pragma once

#include <cstdint>

#include "async_info.h"
#include "device.h"
#include "error.h"
#include "map_args.h"

namespace omptarget::core {

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
// The same on the caller's AsyncInfo, left unsynchronized (a deferred
// construct's: deferred_constructs.h).
Status runDataConstructOn(Device &D, DataConstruct Kind, const MapArgs &Args, AsyncInfo &Async);

}  // namespace omptarget::core

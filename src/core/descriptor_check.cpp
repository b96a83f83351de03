#include "descriptor_check.h"

#include <cstdint>

#include "entry_range.h"

namespace omptarget::core {

namespace {
const void *ptr(const void *P) { return P; }

// The flaw of an entry table that checkEntryRange refused: ordered non-null
// bounds fail only for a size that is not a whole number of records (another
// compiler's entry layout); a null or reversed bound is corruption.
DescriptorFlaw rangeFlaw(const __tgt_offload_entry *Begin, const __tgt_offload_entry *End) {
  auto B = reinterpret_cast<uintptr_t>(Begin);
  auto E = reinterpret_cast<uintptr_t>(End);
  return B != 0 && E != 0 && B <= E ? DescriptorFlaw::Layout : DescriptorFlaw::Corrupt;
}

// Every record of a checked table has a name; globals (size > 0) and kernels
// (their region ids) have an address. A record without them is read through
// a layout that is not its compiler's. clang 19's requires records have
// neither, by design (isRequiresRecord).
Status checkEntries(const __tgt_bin_desc &Desc, const char *Table, const __tgt_offload_entry *Begin,
                    size_t Count) {
  for (size_t I = 0; I < Count; ++I) {
    const __tgt_offload_entry &E = Begin[I];
    if (isRequiresRecord(E)) continue;
    if (!E.name)
      return makeError("descriptor %p: %s entry %zu (address %p, size %zu) has no name", ptr(&Desc),
                       Table, I, E.addr, E.size);
    if (!E.addr)
      return makeError("descriptor %p: %s entry %zu ('%s') has a null address", ptr(&Desc), Table,
                       I, E.name);
  }
  return Status::success();
}
}  // namespace

Status checkDescriptor(const __tgt_bin_desc &Desc, DescriptorFlaw &Flaw) {
  Flaw = DescriptorFlaw::Layout;
  Expected<size_t> HostCount = checkEntryRange(Desc.HostEntriesBegin, Desc.HostEntriesEnd);
  if (!HostCount) {
    Flaw = rangeFlaw(Desc.HostEntriesBegin, Desc.HostEntriesEnd);
    return makeError("descriptor %p: host entries: %s", ptr(&Desc),
                     HostCount.error().message().c_str());
  }
  if (Status S = checkEntries(Desc, "host", Desc.HostEntriesBegin, *HostCount); !S) return S;

  Flaw = DescriptorFlaw::Corrupt;
  if (Desc.NumDeviceImages < 0)
    return makeError("descriptor %p has a negative number of device images (%d)", ptr(&Desc),
                     Desc.NumDeviceImages);
  if (Desc.NumDeviceImages > 0 && !Desc.DeviceImages)
    return makeError("descriptor %p has %d device images but a null image array", ptr(&Desc),
                     Desc.NumDeviceImages);
  for (int32_t I = 0; I < Desc.NumDeviceImages; ++I) {
    const __tgt_device_image &Image = Desc.DeviceImages[I];
    Flaw = DescriptorFlaw::Corrupt;
    if (!Image.ImageStart || !Image.ImageEnd)
      return makeError("descriptor %p: device image %d has a null bound [%p, %p)", ptr(&Desc), I,
                       Image.ImageStart, Image.ImageEnd);
    if (Image.ImageEnd < Image.ImageStart)
      return makeError("descriptor %p: device image %d ends before it begins [%p, %p)", ptr(&Desc),
                       I, Image.ImageStart, Image.ImageEnd);
    Expected<size_t> Count = checkEntryRange(Image.EntriesBegin, Image.EntriesEnd);
    if (!Count) {
      Flaw = rangeFlaw(Image.EntriesBegin, Image.EntriesEnd);
      return makeError("descriptor %p: device image %d: %s", ptr(&Desc), I,
                       Count.error().message().c_str());
    }
    Flaw = DescriptorFlaw::Layout;
    // clang 14 gives every image the host's table; the core pairs the
    // plugin's entries with the host's by position.
    if (*Count != *HostCount)
      return makeError(
          "descriptor %p: device image %d lists %zu entries but the host table has %zu", ptr(&Desc),
          I, *Count, *HostCount);
    if (Image.EntriesBegin != Desc.HostEntriesBegin)
      if (Status S = checkEntries(Desc, "device image", Image.EntriesBegin, *Count); !S) return S;
  }
  return Status::success();
}

Status checkDescriptor(const __tgt_bin_desc &Desc) {
  DescriptorFlaw Flaw;
  return checkDescriptor(Desc, Flaw);
}

}  // namespace omptarget::core

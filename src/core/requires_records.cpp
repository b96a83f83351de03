#include "requires_records.h"

#include "descriptor_check.h"
#include "scoped_lock.h"

namespace omptarget::core {

namespace {
std::vector<__tgt_offload_entry> withoutRecords(const __tgt_offload_entry *Begin,
                                                const __tgt_offload_entry *End) {
  std::vector<__tgt_offload_entry> Out;
  for (const __tgt_offload_entry *E = Begin; E != End; ++E)
    if (!isRequiresRecord(*E)) Out.push_back(*E);
  return Out;
}
}  // namespace

__tgt_bin_desc *RequiresRecords::strip(__tgt_bin_desc *Desc, int64_t &Flags, bool &HasRecords) {
  HasRecords = false;
  for (const __tgt_offload_entry *E = Desc->HostEntriesBegin; E != Desc->HostEntriesEnd; ++E)
    if (isRequiresRecord(*E)) {
      HasRecords = true;
      Flags |= E->reserved;
    }
  if (!HasRecords) return Desc;
  auto C = std::make_unique<Copy>();
  C->HostEntries = withoutRecords(Desc->HostEntriesBegin, Desc->HostEntriesEnd);
  C->Images.assign(Desc->DeviceImages, Desc->DeviceImages + Desc->NumDeviceImages);
  C->ImageEntries.reserve(C->Images.size());
  for (__tgt_device_image &Image : C->Images) {
    // clang 19 gives every image the host's table; one with its own is
    // stripped on its own.
    std::vector<__tgt_offload_entry> *Table = &C->HostEntries;
    if (Image.EntriesBegin != Desc->HostEntriesBegin)
      Table = &C->ImageEntries.emplace_back(withoutRecords(Image.EntriesBegin, Image.EntriesEnd));
    Image.EntriesBegin = Table->data();
    Image.EntriesEnd = Table->data() + Table->size();
  }
  C->Desc.NumDeviceImages = Desc->NumDeviceImages;
  C->Desc.DeviceImages = C->Images.data();
  C->Desc.HostEntriesBegin = C->HostEntries.data();
  C->Desc.HostEntriesEnd = C->HostEntries.data() + C->HostEntries.size();
  __tgt_bin_desc *Stripped = &C->Desc;
  ScopedLock L(Mutex_);
  Copies_[Desc] = std::move(C);
  return Stripped;
}

__tgt_bin_desc *RequiresRecords::registered(__tgt_bin_desc *Desc) {
  ScopedLock L(Mutex_);
  auto It = Copies_.find(Desc);
  return It == Copies_.end() ? Desc : &It->second->Desc;
}

void RequiresRecords::forget(__tgt_bin_desc *Desc) {
  ScopedLock L(Mutex_);
  Copies_.erase(Desc);
}

}  // namespace omptarget::core

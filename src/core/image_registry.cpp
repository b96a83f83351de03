#include "image_registry.h"

#include <algorithm>
#include <cinttypes>

#include "async_info.h"
#include "debug.h"
#include "entry_kernels.h"
#include "entry_range.h"
#include "scoped_lock.h"

namespace omptarget::core {

int ImageRegistry::registerLib(__tgt_bin_desc *Desc, int64_t RequiresFlags) {
  std::string IdlePlugins;
  return registerLib(Desc, RequiresFlags, IdlePlugins);
}

int ImageRegistry::registerLib(__tgt_bin_desc *Desc, int64_t RequiresFlags,
                               std::string &IdlePlugins) {
  auto Bin = std::make_unique<Binary>();
  Bin->Desc = Desc;
  const size_t HostCount = static_cast<size_t>(Desc->HostEntriesEnd - Desc->HostEntriesBegin);
  for (size_t I = 0; I < HostCount; ++I) {
    const __tgt_offload_entry &E = Desc->HostEntriesBegin[I];
    if (E.size != 0) continue;  // only kernels construct or destruct
    if (E.flags & abi::kEntryCtor) Bin->Ctors.push_back(I);
    if (E.flags & abi::kEntryDtor) Bin->Dtors.insert(Bin->Dtors.begin(), I);
  }
  int Accepted = 0;
  int WithDevices = 0;  // images accepted by a plugin that has devices
  std::vector<Plugin *> Plugins = Devices_.plugins();
  for (int32_t I = 0; I < Desc->NumDeviceImages; ++I) {
    __tgt_device_image *Image = &Desc->DeviceImages[I];
    bool Taken = false;
    for (Plugin *P : Plugins) {
      if (!P->fn().is_valid_binary(Image)) continue;
      auto [First, Count] = Devices_.activate(*P, RequiresFlags);
      if (Bin->ImageFor.size() < static_cast<size_t>(First + Count)) {
        Bin->ImageFor.resize(static_cast<size_t>(First + Count), nullptr);
        Bin->TableFor.resize(static_cast<size_t>(First + Count), nullptr);
        Bin->CtorsOn.resize(static_cast<size_t>(First + Count), CtorState::Pending);
      }
      for (int32_t Id = First; Id < First + Count; ++Id)
        if (!Bin->ImageFor[static_cast<size_t>(Id)]) Bin->ImageFor[static_cast<size_t>(Id)] = Image;
      OMPT_TRACE("omptarget", "Image %p accepted by %s (devices %d..%d)", Image->ImageStart,
                 P->name().c_str(), First, First + Count - 1);
      // Every plugin that accepts the image gets it for its devices (an
      // x86_64 image runs on the host plugin's devices and on the MPI
      // plugin's remote ones); the image counts once.
      if (!Taken) ++Accepted;
      Taken = true;
      if (Count > 0)
        ++WithDevices;
      else if (IdlePlugins.find(P->name()) == std::string::npos)
        IdlePlugins += (IdlePlugins.empty() ? "" : ", ") + P->name();
    }
    if (!Taken)
      OMPT_TRACE("omptarget", "No plugin accepts image %d (%p..%p)", I, Image->ImageStart,
                 Image->ImageEnd);
  }
  if (WithDevices > 0) IdlePlugins.clear();  // some image has a device to run on

  ScopedLock Lock(Mutex_);
  Bin->Serial = NextSerial_++;
  size_t Index = 0;
  for (__tgt_offload_entry *E = Desc->HostEntriesBegin; E != Desc->HostEntriesEnd; ++E, ++Index)
    if (E->size == 0) {
      Kernels_[E->addr] = KernelRef{Bin.get(), Index};
      Retired_.erase(E->addr);
    }
  Binaries_.push_back(std::move(Bin));
  Generation_.fetch_add(1, std::memory_order_acq_rel);
  return Accepted;
}

std::vector<ImageRegistry::LoadedImage> ImageRegistry::unregisterLib(__tgt_bin_desc *Desc) {
  // The destructors first, on every device where the constructors ran.
  std::vector<std::pair<Device *, std::vector<EntryKernel>>> Dtors;
  {
    ScopedLock Lock(Mutex_);
    for (const auto &BinPtr : Binaries_) {
      const Binary &Bin = *BinPtr;
      if (Bin.Desc != Desc) continue;
      if (Bin.Dtors.empty()) break;
      for (size_t Id = 0; Id < Bin.TableFor.size(); ++Id) {
        if (!Bin.TableFor[Id] || Bin.CtorsOn[Id] != CtorState::Done) continue;
        Device *D = Devices_.get(static_cast<int64_t>(Id));
        if (!D) continue;
        Dtors.emplace_back(D, Bin.kernelsOn(Id, Bin.Dtors));
      }
      break;
    }
  }
  for (auto &[D, Kernels] : Dtors)
    if (Status S = runEntryKernels(*D, Kernels, "destructor"); !S)
      debug::error("__tgt_unregister_lib: device %d: %s", D->id(), S.error().message().c_str());

  std::vector<LoadedImage> Loaded;
  {
    ScopedLock Lock(Mutex_);
    auto It = std::find_if(Binaries_.begin(), Binaries_.end(),
                           [&](const auto &B) { return B->Desc == Desc; });
    if (It == Binaries_.end()) return Loaded;
    Binary &Bin = **It;
    for (__tgt_offload_entry *E = Desc->HostEntriesBegin; E != Desc->HostEntriesEnd; ++E) {
      if (E->size == 0) {
        auto K = Kernels_.find(E->addr);
        if (K != Kernels_.end() && K->second.Bin == &Bin) {
          Kernels_.erase(K);
          Retired_.insert(E->addr);
        }
        continue;
      }
      // Unmap the global from every device that loaded this binary.
      for (size_t Id = 0; Id < Bin.TableFor.size(); ++Id) {
        if (!Bin.TableFor[Id]) continue;
        Device *D = Devices_.get(static_cast<int64_t>(Id));
        if (!D) continue;
        ScopedLock TableLock(D->mappings().Mutex);
        auto Begin = reinterpret_cast<uintptr_t>(E->addr);
        LookupResult R = D->mappings().lookup(Begin, static_cast<int64_t>(E->size));
        if (R.IsContained && R.Entry->HstBegin == Begin) D->mappings().erase(*R.Entry);
      }
    }
    for (size_t Id = 0; Id < Bin.TableFor.size(); ++Id)
      if (Bin.TableFor[Id])
        if (Device *D = Devices_.get(static_cast<int64_t>(Id)))
          Loaded.push_back({D, Bin.ImageFor[Id]});
    Binaries_.erase(It);
    Generation_.fetch_add(1, std::memory_order_acq_rel);
    OMPT_TRACE("omptarget", "Unregistered binary %p", static_cast<void *>(Desc));
  }
  return Loaded;
}

void ImageRegistry::unloadImages(const std::vector<LoadedImage> &Loaded) {
  for (const LoadedImage &L : Loaded) {
    auto Unload = L.Dev->plugin().fn().unload_binary;
    if (!Unload) continue;  // the plugin keeps it until the device's deinit
    if (Unload(L.Dev->pluginDeviceId(), L.Image) != abi::kOffloadSuccess)
      debug::error(
          "__tgt_unregister_lib: device %d: plugin %s could not unload the device image at %p; "
          "it stays loaded until the device shuts down",
          L.Dev->id(), L.Dev->plugin().name().c_str(), L.Image->ImageStart);
  }
}

Status ImageRegistry::loadPendingImages(Device &D) {
  struct PendingCtors {
    uint64_t Serial;
    std::vector<EntryKernel> Kernels;
  };
  std::vector<PendingCtors> Pending;
  const auto Id = static_cast<size_t>(D.id());
  {
    ScopedLock Lock(Mutex_);
    for (auto &BinPtr : Binaries_) {
      Binary &Bin = *BinPtr;
      if (Id >= Bin.ImageFor.size() || !Bin.ImageFor[Id]) continue;
      if (!Bin.TableFor[Id]) {
        // A binary without offload entries has nothing to load (and some
        // plugins refuse such images).
        if (Bin.Desc->HostEntriesBegin == Bin.Desc->HostEntriesEnd) continue;
        if (Status S = loadImage(D, Bin); !S) return S;
        Bin.CtorsOn[Id] = Bin.Ctors.empty() ? CtorState::Done : CtorState::Pending;
      }
      if (Bin.CtorsOn[Id] == CtorState::Failed)
        return makeError(
            "device %d: a constructor of a declare-target global failed on this device "
            "earlier (see the first error); the device cannot run this program's code",
            D.id());
      if (Bin.CtorsOn[Id] != CtorState::Pending) continue;
      Pending.push_back(PendingCtors{Bin.Serial, Bin.kernelsOn(Id, Bin.Ctors)});
    }
  }
  // Still under D's init mutex: no construct uses D before they finish.
  for (PendingCtors &P : Pending) {
    Status S = runEntryKernels(D, P.Kernels, "constructor");
    {
      ScopedLock Lock(Mutex_);
      for (auto &BinPtr : Binaries_)
        if (BinPtr->Serial == P.Serial)
          BinPtr->CtorsOn[Id] = S ? CtorState::Done : CtorState::Failed;
    }
    if (!S) return makeError("device %d: %s", D.id(), S.error().message().c_str());
  }
  return Status::success();
}

std::vector<EntryKernel> ImageRegistry::Binary::kernelsOn(
    size_t Id, const std::vector<size_t> &Indices) const {
  std::vector<EntryKernel> Kernels;
  Kernels.reserve(Indices.size());
  for (size_t I : Indices)
    Kernels.push_back({TableFor[Id]->EntriesBegin[I].addr, Desc->HostEntriesBegin[I].name});
  return Kernels;
}

Status ImageRegistry::loadImage(Device &D, Binary &Bin) {
  const auto Id = static_cast<size_t>(D.id());
  __tgt_target_table *Table = D.plugin().fn().load_binary(D.pluginDeviceId(), Bin.ImageFor[Id]);
  if (!Table)
    return makeError("device %d: plugin %s could not load the device image at %p", D.id(),
                     D.plugin().name().c_str(), Bin.ImageFor[Id]->ImageStart);
  size_t HostCount = static_cast<size_t>(Bin.Desc->HostEntriesEnd - Bin.Desc->HostEntriesBegin);
  Expected<size_t> DevCount = checkEntryRange(Table->EntriesBegin, Table->EntriesEnd);
  if (!DevCount)
    return makeError("device %d: plugin %s returned a malformed table for the image at %p: %s",
                     D.id(), D.plugin().name().c_str(), Bin.ImageFor[Id]->ImageStart,
                     DevCount.error().message().c_str());
  if (HostCount != *DevCount)
    return makeError("device %d: the device image has %zu offload entries but the host has %zu",
                     D.id(), *DevCount, HostCount);
  Bin.TableFor[Id] = Table;
  // `declare target indirect` functions (clang 19, entry flag 0x08): the
  // entry's device global holds the device's address of the function, and
  // the host function's address maps to that (a function pointer passed to
  // a region translates to the device's function, as with LLVM 19).
  std::vector<void *> DevAddr(HostCount);
  {
    AsyncInfo Async(D);
    for (size_t I = 0; I < HostCount; ++I) {
      const __tgt_offload_entry &Host = Bin.Desc->HostEntriesBegin[I];
      DevAddr[I] = Table->EntriesBegin[I].addr;
      if (Host.size == 0 || !(Host.flags & abi::kEntryIndirect)) continue;
      if (Host.size != sizeof(void *))
        return makeError("device %d: indirect function entry %s has %zu bytes, expected %zu",
                         D.id(), Host.name, Host.size, sizeof(void *));
      if (Status S = D.retrieve(&DevAddr[I], DevAddr[I], sizeof(void *), *Async.raw()); !S)
        return makeError("device %d: reading the device address of indirect function %s: %s",
                         D.id(), Host.name, S.error().message().c_str());
    }
    if (Status S = Async.synchronize(); !S)
      return makeError("device %d: reading the device addresses of indirect functions: %s", D.id(),
                       S.error().message().c_str());
  }
  // Declare-target globals: the device's copy lives as long as the image.
  ScopedLock TableLock(D.mappings().Mutex);
  for (size_t I = 0; I < HostCount; ++I) {
    __tgt_offload_entry &Host = Bin.Desc->HostEntriesBegin[I];
    if (Host.size == 0) continue;
    auto Begin = reinterpret_cast<uintptr_t>(Host.addr);
    if (D.mappings().lookup(Begin, static_cast<int64_t>(Host.size)).found()) continue;
    D.mappings().insert(Begin, Begin, Begin + Host.size, reinterpret_cast<uintptr_t>(DevAddr[I]),
                        false, nullptr, /*Infinite=*/true);
    OMPT_TRACE("omptarget", "Device %d: %s %s host %p -> device %p (%zu bytes)", D.id(),
               Host.flags & abi::kEntryIndirect ? "indirect function" : "global", Host.name,
               Host.addr, DevAddr[I], Host.size);
  }
  return Status::success();
}

namespace {
// Per-thread memo of the last kernel lookup; valid while the registry's
// generation is unchanged (registration and unregistration bump it).
struct KernelMemo {
  void *HostPtr = nullptr;
  const Device *Dev = nullptr;
  uint64_t Generation = 0;
  void *Entry = nullptr;
};
thread_local KernelMemo LastKernel;
}  // namespace

Expected<void *> ImageRegistry::kernelFor(void *HostPtr, const Device &D) {
  uint64_t Gen = generation();
  if (LastKernel.HostPtr == HostPtr && LastKernel.Dev == &D && LastKernel.Generation == Gen)
    return LastKernel.Entry;
  Expected<void *> Found = lookupKernel(HostPtr, D);
  if (Found) LastKernel = KernelMemo{HostPtr, &D, Gen, *Found};
  return Found;
}

Expected<void *> ImageRegistry::lookupKernel(void *HostPtr, const Device &D) {
  ScopedLock Lock(Mutex_);
  auto It = Kernels_.find(HostPtr);
  if (It == Kernels_.end())
    return makeError("host region " OMPT_PTR_FMT
                     " has no registered kernel (was its binary unregistered?)",
                     OMPT_PTR(HostPtr));
  const Binary &Bin = *It->second.Bin;
  const auto Id = static_cast<size_t>(D.id());
  if (Id >= Bin.TableFor.size() || !Bin.TableFor[Id])
    return makeError("device %d has no image containing kernel %s", D.id(),
                     Bin.Desc->HostEntriesBegin[It->second.Index].name);
  return Bin.TableFor[Id]->EntriesBegin[It->second.Index].addr;
}

bool ImageRegistry::retired(void *HostPtr) {
  ScopedLock Lock(Mutex_);
  return Retired_.contains(HostPtr);
}

const char *ImageRegistry::kernelName(void *HostPtr) {
  ScopedLock Lock(Mutex_);
  auto It = Kernels_.find(HostPtr);
  if (It == Kernels_.end()) return nullptr;
  return It->second.Bin->Desc->HostEntriesBegin[It->second.Index].name;
}

std::string describeImage(const __tgt_device_image &Image) {
  auto *Begin = static_cast<const unsigned char *>(Image.ImageStart);
  auto *End = static_cast<const unsigned char *>(Image.ImageEnd);
  if (!Begin || End < Begin || End - Begin < 20 || Begin[0] != 0x7f || Begin[1] != 'E' ||
      Begin[2] != 'L' || Begin[3] != 'F')
    return formatString("non-ELF image of %td bytes", End >= Begin ? End - Begin : 0);
  unsigned Machine = Begin[18] | (Begin[19] << 8);  // e_machine, little-endian
  const char *Name = Machine == 62 ? "x86_64" : Machine == 190 ? "CUDA" : "unknown machine";
  return formatString("ELF %s (e_machine %u)", Name, Machine);
}

}  // namespace omptarget::core

#include "host_device.h"

#include <unistd.h>

#include <cstring>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "debug.h"
#include "elf_check.h"
#include "ffi_launch.h"
#include "offload_entries.h"
#include "region_call.h"

namespace omptarget::host {

namespace {
HostQueue &queue(void *Q) { return *static_cast<HostQueue *>(Q); }
HostEvent &event(void *E) { return *static_cast<HostEvent *>(E); }

// The CPU's model name from /proc/cpuinfo, or "x86_64 CPU".
std::string cpuModelName() {
  std::ifstream Info("/proc/cpuinfo");
  for (std::string Line; std::getline(Info, Line);) {
    if (!Line.starts_with("model name")) continue;
    size_t Colon = Line.find(':');
    size_t Begin =
        Line.find_first_not_of(" \t", Colon == std::string::npos ? Line.size() : Colon + 1);
    if (Begin != std::string::npos) return Line.substr(Begin);
  }
  return "x86_64 CPU";
}

// A loaded image: its private copy of the shared object and, when the image
// has an offload-entries section, the table read from it.
class HostImage final : public plugin::DeviceImage {
 public:
  HostImage(const __tgt_device_image &Source, std::unique_ptr<MemoryLibrary> Library,
            std::optional<OffloadEntryTable> Entries)
      : DeviceImage(Source), Library_(std::move(Library)), Entries_(std::move(Entries)) {}

  // Host entry Index of the image's descriptor, from the image's entries
  // section; entries the section lacks (`declare target link` references)
  // and images without one (no section table) come from the dynamic symbol
  // table. The loader resolves each entry once, in order (generic_device.h),
  // so one cursor follows the section.
  Expected<void *> resolve(const char *Name, size_t Index, size_t Size) {
    if (Entries_) {
      if (Index == 0) Cursor_ = 0;
      Expected<void *> Addr = Entries_->resolve(Cursor_, Name, Size);
      if (!Addr || *Addr) return Addr;
    }
    Expected<void *> Symbol = Library_->symbol(Name);
    if (!Symbol && Entries_)
      return makeError(
          "neither among the %zu entries of the image's %s section nor a dynamic symbol "
          "of the image",
          Entries_->size(), abi::kEntriesSection);
    return Symbol;
  }

 private:
  std::unique_ptr<MemoryLibrary> Library_;
  std::optional<OffloadEntryTable> Entries_;
  size_t Cursor_ = 0;  // the section record after the last one resolved
};
}  // namespace

Status HostDevice::initImpl() { return {}; }

Status HostDevice::deinitImpl() {
  Allocations_.freeAll();
  return {};
}

Expected<std::unique_ptr<plugin::DeviceImage>> HostDevice::loadImageImpl(
    const __tgt_device_image &Image) {
  auto *Begin = static_cast<const std::byte *>(Image.ImageStart);
  auto *End = static_cast<const std::byte *>(Image.ImageEnd);
  if (!Begin || !End || End < Begin)
    return makeError("invalid image bounds [%p, %p)", Image.ImageStart, Image.ImageEnd);
  std::span<const std::byte> Bytes(Begin, End);
  // Checked before dlopen: the dynamic loader trusts the file's offsets.
  Expected<ElfLayout> Layout = parseElfLayout(Bytes);
  if (!Layout) return Layout.takeError();
  std::string Tag = "omptarget-x86_64-dev" + std::to_string(id());
  Expected<std::unique_ptr<MemoryLibrary>> Lib = MemoryLibrary::load(Bytes, Tag);
  if (!Lib) return Lib.takeError();
  std::optional<OffloadEntryTable> Entries;
  if (Layout->Entries) {
    Expected<OffloadEntryTable> Table = OffloadEntryTable::read(*Layout, (*Lib)->loadBase());
    if (!Table) return Table.takeError();
    Entries = std::move(*Table);
  }
  OMPT_TRACE(traceComponent(), "device %d: loaded image %p (%td bytes) from memory, %s", id(),
             Image.ImageStart, End - Begin,
             Entries ? formatString("%zu entries in its %s section", Entries->size(),
                                    abi::kEntriesSection)
                           .c_str()
                     : "no entries section: entries are looked up by dynamic symbol");
  return std::unique_ptr<plugin::DeviceImage>(
      std::make_unique<HostImage>(Image, std::move(*Lib), std::move(Entries)));
}

Expected<void *> HostDevice::getKernelImpl(plugin::DeviceImage &Image, const char *Name,
                                           size_t Index) {
  return static_cast<HostImage &>(Image).resolve(Name, Index, 0);
}

Expected<void *> HostDevice::getGlobalImpl(plugin::DeviceImage &Image, const char *Name,
                                           size_t Size, size_t Index) {
  return static_cast<HostImage &>(Image).resolve(Name, Index, Size);
}

// Every kind is ordinary host memory.
Expected<void *> HostDevice::allocImpl(size_t Size, void *, abi::TargetAllocKind) {
  return Allocations_.allocate(Size);
}

Status HostDevice::freeImpl(void *TgtPtr) { return Allocations_.freeBlock(TgtPtr); }

// Allocated now, not when the queue reaches this point: memory that is valid
// at once is valid for everything queued after the allocation too (and for
// any other queue ordered after it), which is all the contract asks.
Expected<void *> HostDevice::allocAsyncImpl(size_t Size, void *HostPtr, abi::TargetAllocKind Kind,
                                            void *) {
  return allocImpl(Size, HostPtr, Kind);
}

// The block leaves the registry now, so a second release (on a queue or not)
// fails here at once, changing nothing; the memory is freed by the queue's
// worker after the work queued before this release (the queue runs its
// operations in order), never skipped after an error. Until then it stays
// allocated and is handed out to no one. The registry outlives the queues
// (the base destroys them at deinit, draining each worker).
Status HostDevice::freeAsyncImpl(void *TgtPtr, void *Queue) {
  Expected<size_t> Size = Allocations_.forget(TgtPtr);
  if (!Size) return Size.takeError();
  return queue(Queue).enqueue(HostOp{HostOp::Release, *Size}, [this, TgtPtr]() -> Status {
    Allocations_.release(TgtPtr);
    return {};
  });
}

Expected<void *> HostDevice::createQueueImpl() {
  return std::make_unique<HostQueue>(Mode_).release();
}

Status HostDevice::destroyQueueImpl(void *Queue) {
  std::unique_ptr<HostQueue> Owned(static_cast<HostQueue *>(Queue));
  return Owned->synchronize();
}

Status HostDevice::synchronizeImpl(void *Queue) { return queue(Queue).synchronize(); }
Expected<bool> HostDevice::queueIdleImpl(void *Queue) { return queue(Queue).idle(); }

Status HostDevice::submitImpl(void *TgtPtr, const void *HstPtr, size_t Size, void *Queue) {
  return queue(Queue).enqueue(HostOp{HostOp::Submit, Size}, [=]() -> Status {
    std::memcpy(TgtPtr, HstPtr, Size);
    return {};
  });
}

Status HostDevice::retrieveImpl(void *HstPtr, const void *TgtPtr, size_t Size, void *Queue) {
  return queue(Queue).enqueue(HostOp{HostOp::Retrieve, Size}, [=]() -> Status {
    std::memcpy(HstPtr, TgtPtr, Size);
    return {};
  });
}

// Every host device can read every other one's memory (it is all host memory).
bool HostDevice::isDataExchangeableImpl(const GenericDevice &Dst) const {
  return dynamic_cast<const HostDevice *>(&Dst) != nullptr;
}

Status HostDevice::exchangeImpl(const void *SrcPtr, GenericDevice &Dst, void *DstPtr, size_t Size,
                                void *Queue) {
  if (!isDataExchangeableImpl(Dst))
    return GenericDevice::exchangeImpl(SrcPtr, Dst, DstPtr, Size, Queue);
  return queue(Queue).enqueue(HostOp{HostOp::Exchange, Size}, [=]() -> Status {
    std::memmove(DstPtr, SrcPtr, Size);  // may overlap on one device
    return {};
  });
}

// Teams and thread limit are not used: the outlined region forks its own
// teams and threads through libomp. Immediate mode calls it now, on this
// thread or a runner (region_call.h). In asynchronous mode the kernel runs
// later on the queue's worker thread (not an OpenMP thread: libomp treats it
// as a new root), so the argument values are copied now: the core's argument
// arrays need not outlive the call.
Status HostDevice::launchImpl(const plugin::KernelLaunch &L, void *Queue) {
  HostQueue &Q = queue(Queue);
  HostOp Info{HostOp::Kernel, 0, L.Name};
  if (!Q.isAsync())
    return Q.enqueue(Info, [&]() -> Status {
      return callRegion(Runners_, L.Entry, L.Args, L.Offsets, L.NumArgs, L.IsTeamRegion);
    });
  auto N = static_cast<size_t>(L.NumArgs);
  std::vector<void *> Ptrs(N);
  for (size_t I = 0; I < N; ++I) Ptrs[I] = static_cast<char *>(L.Args[I]) + L.Offsets[I];
  return Q.enqueue(Info, [Entry = L.Entry, Ptrs = std::move(Ptrs)]() mutable -> Status {
    std::vector<ptrdiff_t> Zero(Ptrs.size(), 0);
    return callWithPointerArgs(Entry, Ptrs.data(), Zero.data(), static_cast<int32_t>(Ptrs.size()));
  });
}

Expected<void *> HostDevice::markImpl(void *Queue, uint64_t *Slot) {
  HostQueue &Q = queue(Queue);
  if (!Q.isAsync()) return GenericDevice::markImpl(Queue, Slot);
  if (Status S = Q.enqueue(HostOp{HostOp::Other, 0, "profile timestamp"},
                           [Slot]() -> Status {
                             *Slot = plugin::steadyNowNs();
                             return {};
                           });
      !S)
    return S.takeError();
  return nullptr;
}

Expected<void *> HostDevice::createEventImpl() { return std::make_unique<HostEvent>().release(); }

Status HostDevice::destroyEventImpl(void *Event) {
  std::unique_ptr<HostEvent> Owned(static_cast<HostEvent *>(Event));
  return {};
}

Status HostDevice::recordEventImpl(void *Event, void *Queue) {
  return event(Event).record(queue(Queue));
}

Status HostDevice::waitEventImpl(void *Event, void *Queue) {
  return event(Event).waitOn(queue(Queue));
}

Status HostDevice::syncEventImpl(void *Event) {
  event(Event).sync();
  return {};
}

// The host has no native context or device handle for interop.
Status HostDevice::initDeviceInfoImpl(__tgt_device_info &Info) {
  Info.Context = nullptr;
  Info.Device = nullptr;
  return {};
}

// Interop objects of a host device: no foreign runtime, vendor, device or
// context; only targetsync, the device's queue (opaque: it accepts no work
// from outside the runtime; interop use and destroy wait for it).
void HostDevice::interopInfoImpl(__tgt_interop_info &Info) const {
  Info.TargetSyncType = Mode_.Async
                            ? "void *: a queue of the omptarget host device (opaque)"
                            : "void *: the immediate queue of the omptarget host device (opaque; "
                              "nothing is ever pending on it)";
}

void HostDevice::describeImpl(plugin::PropertySink &Sink) {
  Sink.add("name", cpuModelName());
  Sink.add("device_type", "host (x86_64), runs offloaded code on the CPU");
  Sink.add("queue_mode", Mode_.Async ? "asynchronous" : "synchronous");
  if (Mode_.Async) Sink.add("queue_delay_us", Mode_.DelayUs);
  Sink.add("cpus", sysconf(_SC_NPROCESSORS_ONLN));
  long Pages = sysconf(_SC_PHYS_PAGES), PageSize = sysconf(_SC_PAGESIZE);
  if (Pages > 0 && PageSize > 0)
    Sink.add("memory_total_bytes", static_cast<uint64_t>(Pages) * static_cast<uint64_t>(PageSize));
  if (std::optional<uint64_t> Free = freeMemoryBytesImpl()) Sink.add("memory_free_bytes", *Free);
  // The registry also holds the blocks the memory manager keeps for reuse.
  Sink.add("device_blocks", Allocations_.liveBlocks());
  Sink.add("device_block_bytes", Allocations_.liveBytes());
  Sink.add("pending_releases", Allocations_.releasingBlocks());
}

std::optional<uint64_t> HostDevice::freeMemoryBytesImpl() {
  long Pages = sysconf(_SC_AVPHYS_PAGES), PageSize = sysconf(_SC_PAGESIZE);
  if (Pages <= 0 || PageSize <= 0) return std::nullopt;
  return static_cast<uint64_t>(Pages) * static_cast<uint64_t>(PageSize);
}

}  // namespace omptarget::host

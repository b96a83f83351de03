// One host "device": the host itself, with its own copy of each image.
//
// Queues are HostQueue objects and events HostEvent objects, handed to the
// generic pools as opaque handles (created by unique_ptr::release, destroyed
// by re-adopting). Every queue of a device has the device's mode (immediate
// or asynchronous with a worker thread, see host_queue.h); the queue pool is
// destroyed (workers drained and joined) before the event pool at deinit. In
// immediate mode a queue has no state, so one (Immediate_) serves every
// construct at once and the pool is not used for constructs.
// Immediate mode calls a kernel on the calling thread, or, for a teams region
// launched from inside a parallel region, on a runner thread of the plugin's
// RunnerPool (region_call.h); asynchronous mode calls every kernel on its
// queue's worker thread.
// Allocations_ and Runners_ lock themselves; Mode_ and Immediate_ are
// immutable; the base class synchronises everything else.
//
// Allocation is synchronous in both modes. Release: immediate mode frees at
// once (its queue has nothing pending). Asynchronous mode has stream-ordered
// release (hasAsyncAllocation): a release on a queue forgets the block in
// the registry when issued (a second release is reported at once) and frees
// the memory as an operation of that queue, so the copies and kernels queued
// before it, which its worker runs first, never touch freed memory; the
// release runs even after an earlier failure of the queue (nothing leaks).
// Queues are destroyed, their workers drained, before deinitImpl frees what
// is still live, so every queued release has run by then.
#pragma once

#include <memory>

#include "generic_device.h"
#include "host_allocations.h"
#include "host_queue.h"
#include "memory_library.h"
#include "runner_pool.h"

namespace omptarget::host {

class HostDevice final : public plugin::GenericDevice {
 public:
  // Runners: the plugin's pool (it outlives the device).
  HostDevice(plugin::GenericPlugin &Plugin, int32_t DeviceId, HostQueueMode Mode,
             RunnerPool &Runners)
      : GenericDevice(Plugin, DeviceId),
        Mode_(Mode),
        Immediate_(Mode.Async ? nullptr : std::make_unique<HostQueue>(Mode)),
        Runners_(Runners) {}

  const HostQueueMode &mode() const { return Mode_; }
  bool completesSynchronously() const override { return !Mode_.Async; }
  // Pooled queues with a worker each; enqueueing takes the queue's lock.
  bool queuesPersist() const override { return Mode_.Async; }
  // Immediate mode: copies and launches in the direct table are the memcpy
  // or the call itself (host_direct.cpp, the device's one fast path).
  void specializeDirect(__tgt_direct_device &Table) const override;
  // The stateless queue of immediate mode (null in asynchronous mode).
  HostQueue *immediateQueue() const { return Immediate_.get(); }
  // Where immediate mode runs teams regions launched from parallel regions.
  RunnerPool &runners() const { return Runners_; }
  const HostAllocations &allocations() const { return Allocations_; }

 protected:
  Status initImpl() override;
  Status deinitImpl() override;

  Expected<std::unique_ptr<plugin::DeviceImage>> loadImageImpl(
      const __tgt_device_image &Image) override;
  // From the image's offload-entries section (offload_entries.h).
  Expected<void *> getKernelImpl(plugin::DeviceImage &Image, const char *Name,
                                 size_t Index) override;
  Expected<void *> getGlobalImpl(plugin::DeviceImage &Image, const char *Name, size_t Size,
                                 size_t Index) override;

  Expected<void *> allocImpl(size_t Size, void *HostPtr, abi::TargetAllocKind Kind) override;
  Status freeImpl(void *TgtPtr) override;
  // Asynchronous mode only (see above).
  bool hasAsyncAllocation() const override { return Mode_.Async; }
  Expected<void *> allocAsyncImpl(size_t Size, void *HostPtr, abi::TargetAllocKind Kind,
                                  void *Queue) override;
  Status freeAsyncImpl(void *TgtPtr, void *Queue) override;
  // The host's available physical memory (an allocation failure's message).
  std::optional<uint64_t> freeMemoryBytesImpl() override;

  Expected<void *> createQueueImpl() override;
  // Immediate mode: one stateless queue serves every construct at once.
  void *sharedQueue() override { return Immediate_.get(); }
  Status destroyQueueImpl(void *Queue) override;
  Status synchronizeImpl(void *Queue) override;
  Expected<bool> queueIdleImpl(void *Queue) override;

  Status submitImpl(void *TgtPtr, const void *HstPtr, size_t Size, void *Queue) override;
  Status retrieveImpl(void *HstPtr, const void *TgtPtr, size_t Size, void *Queue) override;
  bool isDataExchangeableImpl(const GenericDevice &Dst) const override;
  Status exchangeImpl(const void *SrcPtr, GenericDevice &Dst, void *DstPtr, size_t Size,
                      void *Queue) override;

  Status launchImpl(const plugin::KernelLaunch &Launch, void *Queue) override;
  // Asynchronous mode: the queue's worker writes the time when it gets to
  // the mark (the generic default, now, is right for immediate mode).
  Expected<void *> markImpl(void *Queue, uint64_t *Slot) override;

  Expected<void *> createEventImpl() override;
  Status destroyEventImpl(void *Event) override;
  Status recordEventImpl(void *Event, void *Queue) override;
  Status waitEventImpl(void *Event, void *Queue) override;
  Status syncEventImpl(void *Event) override;

  // The device is the host: every host address is its own.
  bool isAccessibleImpl(const void *, size_t) const override { return true; }

  Status initDeviceInfoImpl(__tgt_device_info &Info) override;
  void interopInfoImpl(__tgt_interop_info &Info) const override;
  // name (the CPU model), device type, queue mode, CPUs, the host's memory
  // and the device's blocks.
  void describeImpl(plugin::PropertySink &Sink) override;

 private:
  const HostQueueMode Mode_;
  const std::unique_ptr<HostQueue> Immediate_;  // immediate mode only
  HostAllocations Allocations_;
  RunnerPool &Runners_;
};

}  // namespace omptarget::host

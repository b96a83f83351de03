// MpiDevice: one device of a device server on another MPI rank, seen as a
// device of the program. Each hook is one request to the server (mpi_client.h):
// the server does the work on its own plugin's device and answers.
//
// Queues are ids (1, 2, ... per device, never reused), which the server maps
// to one __tgt_async_info each. On a queue, a Launch or a Submit is posted:
// its hook returns once the request (and a Submit's bytes) is sent, and its
// reply is taken when the queue is synchronized or queried, after that
// request is sent (so the round trips overlap); its failure is that
// synchronize's. A Retrieve on a queue is posted too: its data's receives
// are posted into the program's memory first, and complete by that
// synchronize (mpi_client.h). Without a queue the hook waits for the
// reply. A query of a queue whose posted bytes or replies have not all
// arrived answers "not idle" at once, with no request; else it sends a
// Query. The server serves one program's requests in order, so a later
// request sees an earlier one's work.
// Events are the server's: an MpiEvent is an id (1, 2, ... per device);
// record and wait are posted on their queue (RecordEvent, WaitEvent), so
// the server's plugin orders the queues and no thread here waits; sync
// asks the server and waits (SyncEvent). The server makes its event at the
// first record: an event never recorded costs no request, not even at
// destroy.
// Kernel handles and global addresses are the server's device addresses
// (LoadImage's reply); the server refuses any it did not hand out.
// An image is sent only to a device whose server plugin takes its kind
// (remotePluginRuns): another is refused here, before any request, with an
// error naming the device, its plugin and the image's kind.
// Thread safety: NextQueue_ and NextEvent_ are atomic, so is an event's
// Recorded;
// PendingMutex_ guards Pending_ (held only to add to or take a queue's
// list, never across MPI); the rest is immutable after construction (the
// rank locks nothing: its transport is thread-safe).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "futex_mutex.h"
#include "generic_device.h"
#include "mpi_client.h"
#include "thread_annotations.h"

namespace omptarget::mpi {

struct RemoteDeviceInfo {
  RemoteRank *Rank = nullptr;
  int32_t ServerDevice = 0;  // the device's number on its server
  std::string Plugin;        // the server's plugin ("x86_64", "cuda")
  std::string Name;
};

// Whether the server plugin named Plugin runs images of Image's kind, by the
// same check as that plugin's own (x86_64: host::isX86_64SharedObject;
// cuda: cuda::readCubin, the CUDA plugin's format check; whether the GPU's
// architecture runs the cubin is the server's CUDA plugin's to say at
// LoadImage). False for any other plugin name.
bool remotePluginRuns(const std::string &Plugin, std::span<const std::byte> Image);

class MpiDevice final : public plugin::GenericDevice {
 public:
  MpiDevice(plugin::GenericPlugin &Plugin, int32_t DeviceId, RemoteDeviceInfo Info)
      : GenericDevice(Plugin, DeviceId), Info_(std::move(Info)) {}

 protected:
  Status initImpl() override { return {}; }

  Expected<std::unique_ptr<plugin::DeviceImage>> loadImageImpl(
      const __tgt_device_image &Image) override;
  Expected<void *> getKernelImpl(plugin::DeviceImage &Image, const char *Name,
                                 size_t Index) override;
  Expected<void *> getGlobalImpl(plugin::DeviceImage &Image, const char *Name, size_t Size,
                                 size_t Index) override;

  Expected<void *> allocImpl(size_t Size, void *HostPtr, abi::TargetAllocKind Kind) override;
  Status freeImpl(void *TgtPtr) override;

  Expected<void *> createQueueImpl() override;
  Status destroyQueueImpl(void *Queue) override;
  Status synchronizeImpl(void *Queue) override;
  Expected<bool> queueIdleImpl(void *Queue) override;

  Status submitImpl(void *TgtPtr, const void *HstPtr, size_t Size, void *Queue) override;
  Status retrieveImpl(void *HstPtr, const void *TgtPtr, size_t Size, void *Queue) override;

  // Any two remote devices: never through the program's memory. Two
  // devices of one server: one Exchange (Local) there. Two servers: an
  // Exchange Receive to Dst's server and an Exchange Send to this one, the
  // bytes going server to server on a fresh tag; one such pair at a time
  // in this process (ExchangeMutex, mpi_device.cpp), so that two servers
  // never each wait to send to the other. Done when both have answered.
  bool isDataExchangeableImpl(const plugin::GenericDevice &) const override { return true; }
  Status exchangeImpl(const void *SrcPtr, plugin::GenericDevice &Dst, void *DstPtr, size_t Size,
                      void *Queue) override;

  Status launchImpl(const plugin::KernelLaunch &Launch, void *Queue) override;
  // A marker the server's own plugin replaces with its launch environment.
  Expected<void *> launchEnvironmentImpl(const plugin::KernelLaunch &Launch, void *Queue) override;

  Expected<void *> createEventImpl() override;
  Status destroyEventImpl(void *Event) override;
  Status recordEventImpl(void *Event, void *Queue) override;
  Status waitEventImpl(void *Event, void *Queue) override;
  Status syncEventImpl(void *Event) override;

  // No driver handles: the device's context is in another process.
  Status initDeviceInfoImpl(__tgt_device_info &Info) override {
    Info.Context = nullptr;
    Info.Device = nullptr;
    return {};
  }
  // name, device_type, mpi_rank, host_name, the server's plugin and device.
  void describeImpl(plugin::PropertySink &Sink) override;

 private:
  Status queueRequest(MessageKind Kind, uint64_t Queue, const char *What, bool *Pending);
  // Sends Kind on Queue: posted (its reply kept in Pending_) with a queue,
  // answered before it returns without one.
  template <typename P>
  Status sendOnQueue(uint64_t Queue, MessageKind Kind, const P &Payload, const std::string &What,
                     std::span<const std::byte> Out = {});
  // With a queue, keeps Posted in Pending_ for its synchronize; without,
  // takes its reply now.
  Status keepOrCollect(uint64_t Queue, PendingReply Posted);
  // Takes the replies of Queue's posted requests, oldest first; the first
  // failure, after all are taken.
  Status collectPosted(uint64_t Queue);

  const RemoteDeviceInfo Info_;
  std::atomic<uint64_t> NextQueue_{1};
  std::atomic<uint64_t> NextEvent_{1};
  FutexMutex PendingMutex_;
  std::map<uint64_t, std::vector<PendingReply>> Pending_ GUARDED_BY(PendingMutex_);
};

}  // namespace omptarget::mpi

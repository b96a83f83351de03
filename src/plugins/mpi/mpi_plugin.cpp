// The MPI plugin (libomptarget.rtl.mpi.so): the devices of device servers
// (omptarget-mpi-device) on the other ranks of an MPI job, after the local
// devices, numbered in rank order, then by the server's device number.
//
// Start-up (numberOfDevicesImpl, at the first call into the plugin: the
// core starts it at the program's first registration when mpi_launch.h
// says so, whatever the policy, since the servers wait for it):
//  - without an MPI launcher asking for it (mpi_launch.h) it offers no
//    device and loads nothing (libmpi is never mapped into such programs);
//  - otherwise it dlopens libomptarget.mpi_transport.so from its own
//    directory (the part linked with libmpi), which initialises MPI and dups
//    MPI_COMM_WORLD (collective with every server), then says Hello to each
//    rank but its own. Version 1: the program is world rank 0, alone; on
//    any other rank the plugin offers no device.
// At exit (an atexit handler registered after MPI's start): Shutdown to
// every server that still answers, then MPI_Finalize if this plugin
// initialised MPI and every server answered (a hung peer would hang
// MPI_Finalize); calls after that fail quietly (driverShutDownImpl).
//
// Environment: OMPTARGET_MPI (mpi_launch.h), OMPTARGET_MPI_TIMEOUT_MS
// (each request's deadline, default 30000).
// Thread safety: Ranks_, Devices_ and Transport_ are written by
// numberOfDevicesImpl, before any device exists, then only read;
// ShutDown_ is atomic.
#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <deque>
#include <memory>
#include <vector>

#include "debug.h"
#include "env.h"
#include "generic_plugin.h"
#include "mpi_client.h"
#include "mpi_device.h"
#include "mpi_launch.h"
#include "mpi_transport.h"
#include "own_directory.h"

namespace omptarget::mpi {

namespace {

constexpr const char *kTransportLibrary = "libomptarget.mpi_transport.so";

class MpiPlugin final : public plugin::GenericPlugin {
 public:
  MpiPlugin() : GenericPlugin("mpi") {}

  // The atexit handler's work.
  void shutdown() {
    if (ShutDown_.exchange(true)) return;
    bool AllAnswer = true;
    for (RemoteRank &R : Ranks_) {
      if (R.unanswering()) AllAnswer = false;
      if (Status S = R.shutdown(); !S) {
        AllAnswer = false;
        OMPT_TRACE(traceComponent(), "%s", S.error().message().c_str());
      }
    }
    for (RemoteRank &R : Ranks_)
      if (R.unanswering()) AllAnswer = false;
    if (Transport_) Transport_->close(AllAnswer);
  }

 protected:
  Expected<int32_t> numberOfDevicesImpl() override {
    LaunchDecision D = launchDecision();
    OMPT_TRACE(traceComponent(), "%s: %s", D.UseMpi ? "looking for device servers" : "no devices",
               D.Why.c_str());
    if (!D.UseMpi) return 0;
    // The transport is installed beside the plugin.
    const std::string Path = directoryOf(&kTransportLibrary) + kTransportLibrary;
    void *Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!Handle) return makeError("cannot load %s: %s", Path.c_str(), dlerror());
    auto Open = reinterpret_cast<OmptargetMpiOpenTransportFn>(
        dlsym(Handle, "omptarget_mpi_open_transport"));
    if (!Open) return makeError("%s has no omptarget_mpi_open_transport", Path.c_str());
    char Why[1024] = {};
    Transport_.reset(Open(Why, sizeof(Why)));
    if (!Transport_) return makeError("%s", Why);
    registerShutdown();
    if (Transport_->rank() != 0) {
      debug::warning(
          "the MPI plugin offers remote devices to world rank 0 only (this is rank %d); "
          "launch as `mpirun -np 1 ./app : -np N omptarget-mpi-device`",
          Transport_->rank());
      return 0;
    }
    const int TimeoutMs =
        static_cast<int>(env::getInt("OMPTARGET_MPI_TIMEOUT_MS", 30000, 1, 86400000));
    for (int Rank = 1; Rank < Transport_->size(); ++Rank)
      Ranks_.emplace_back(*Transport_, Rank, TimeoutMs);
    for (RemoteRank &R : Ranks_) {
      HelloRequest Req;
      Req.OriginRank = 0;
      Expected<Reply> Rep =
          R.request(MessageKind::Hello, Req, MessageKind::HelloReply, "Hello", -1);
      Expected<HelloReply> Hello =
          Rep ? HelloReply::decode(Rep->Payload) : Expected<HelloReply>(Rep.takeError());
      if (!Hello) {
        reportError(Hello.error());
        continue;
      }
      R.setHostName(Hello->HostName);
      for (const RemoteDevice &Dev : Hello->Devices)
        Devices_.push_back(RemoteDeviceInfo{&R, Dev.LocalId, Dev.Plugin, Dev.Name});
      OMPT_TRACE(traceComponent(), "rank %d (%s): %zu device(s)", R.rank(), Hello->HostName.c_str(),
                 Hello->Devices.size());
    }
    return static_cast<int32_t>(Devices_.size());
  }

  Expected<std::unique_ptr<plugin::GenericDevice>> createDeviceImpl(int32_t DeviceId) override {
    if (DeviceId < 0 || static_cast<size_t>(DeviceId) >= Devices_.size())
      return makeError("no remote device %d", static_cast<int>(DeviceId));
    return std::unique_ptr<plugin::GenericDevice>(
        std::make_unique<MpiDevice>(*this, DeviceId, Devices_[static_cast<size_t>(DeviceId)]));
  }

  // An image some server device's plugin runs (remotePluginRuns: x86_64
  // shared objects for x86_64 devices, NVPTX cubins for cuda devices). The
  // core then gives it to every device of this plugin; a device of another
  // kind refuses it at load (MpiDevice::loadImageImpl).
  bool isValidBinaryImpl(std::span<const std::byte> Image) override {
    for (const RemoteDeviceInfo &D : Devices_)
      if (remotePluginRuns(D.Plugin, Image)) return true;
    return false;
  }

  // "mpi-<host>-rank<R>-<plugin>-<device>": the same device of the same
  // job has the same id; two jobs on one node may share ids, as the host
  // plugin's ids are shared by all programs of a node.
  Expected<std::string> deviceUidImpl(int32_t DeviceId) override {
    const RemoteDeviceInfo &D = Devices_.at(static_cast<size_t>(DeviceId));
    return formatString("mpi-%s-rank%d-%s-%d", D.Rank->hostName().c_str(), D.Rank->rank(),
                        D.Plugin.c_str(), static_cast<int>(D.ServerDevice));
  }

  bool driverShutDownImpl() const override { return ShutDown_.load(std::memory_order_acquire); }

 private:
  void registerShutdown();

  std::unique_ptr<Transport> Transport_;
  std::deque<RemoteRank> Ranks_;  // stable addresses: devices point at them
  std::vector<RemoteDeviceInfo> Devices_;
  std::atomic<bool> ShutDown_{false};
};

MpiPlugin *ThePlugin = nullptr;  // set once, before the atexit handler is registered

void MpiPlugin::registerShutdown() {
  ThePlugin = this;
  std::atexit([] { ThePlugin->shutdown(); });
}

}  // namespace

}  // namespace omptarget::mpi

std::unique_ptr<omptarget::plugin::GenericPlugin> omptarget::plugin::createPlugin() {
  return std::make_unique<omptarget::mpi::MpiPlugin>();
}

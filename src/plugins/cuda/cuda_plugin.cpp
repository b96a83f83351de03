// The CUDA plugin: libomptarget.rtl.cuda.so runs nvptx64 images (cubins) on
// NVIDIA GPUs through the CUDA driver API, loaded at run time.
//
// Without a usable driver (libcuda.so.1 missing, cuInit failing, an entry
// point missing) or without GPUs the plugin reports 0 devices; the reason is
// in the LIBOMPTARGET_DEBUG trace. It still accepts CUDA images, so the core
// knows the binary's images belong to a plugin without devices.
//
// Device ids (get_device_uid) are the GPUs' UUIDs, "GPU-<uuid>".
//
// Environment (read when a device is initialised):
//   LIBOMPTARGET_NUM_INITIAL_STREAMS / _EVENTS   initial pool sizes (32 / 32)
//   LIBOMPTARGET_SHARED_MEMORY_SIZE              dynamic shared memory per launch
//   LIBOMPTARGET_DEVICE_RTL_DEBUG                device runtime debug kind
//   OMPTARGET_CUDA_MEMORY_POOL                   the device's memory pool (cuda_pool.h)
//   OMPTARGET_CUDA_SYNC_MODE                     the primary context's scheduling flags
//                                                (cuda_sync_mode.h; read once, at the first)
//   OMP_NUM_TEAMS, OMP_TEAMS_THREAD_LIMIT, OMP_TEAM_LIMIT,
//   OMPTARGET_CUDA_BLOCKS_PER_SM                 launch sizing (launch_sizing.h)
// and, when the driver is loaded (the device count):
//   OMPTARGET_CUDA_API_STATS                     driver-call statistics (cuda_api_stats.h)
#include "cubin.h"
#include "cuda_api_stats.h"
#include "cuda_device.h"
#include "cuda_driver.h"
#include "debug.h"
#include "generic_plugin.h"
#include "peer_access.h"

namespace omptarget::cuda {

namespace {
class CudaPlugin final : public plugin::GenericPlugin {
 public:
  CudaPlugin() : GenericPlugin("cuda") {}

 protected:
  Expected<int32_t> numberOfDevicesImpl() override {
    // The first load: the API statistics (OMPTARGET_CUDA_API_STATS) wrap
    // the driver table here, before cuInit.
    const Expected<const Driver *> &D = loadDriver(installApiStatsIfRequested);
    if (!D) {
      OMPT_TRACE(traceComponent(), "no CUDA devices: %s", D.error().message().c_str());
      return 0;
    }
    int Count = 0;
    if (CUresult R = (*D)->cuDeviceGetCount(&Count); R != CUDA_SUCCESS) {
      OMPT_TRACE(traceComponent(), "no CUDA devices: cuDeviceGetCount: %s", errorText(R).c_str());
      return 0;
    }
    NumDevices_ = Count;
    return Count;
  }

  Expected<std::unique_ptr<plugin::GenericDevice>> createDeviceImpl(int32_t DeviceId) override {
    return std::unique_ptr<plugin::GenericDevice>(
        std::make_unique<CudaDevice>(*this, DeviceId, NumDevices_, Peers_, Registrations_));
  }

  bool driverShutDownImpl() const override { return driverShutDown(); }

  bool isValidBinaryImpl(std::span<const std::byte> Image) override {
    return readCubin(Image).has_value();
  }

  // The GPU's UUID as nvidia-smi prints it: GPU-xxxxxxxx-xxxx-xxxx-xxxx-
  // xxxxxxxxxxxx (no context needed; under MIG the instance's UUID).
  Expected<std::string> deviceUidImpl(int32_t DeviceId) override {
    const Driver &D = driver();
    CUdevice Dev = 0;
    if (Status S = check(D.cuDeviceGet(&Dev, DeviceId), "cuDeviceGet"); !S) return S.takeError();
    CUuuid Uuid{};
    if (Status S = check(D.cuDeviceGetUuid(&Uuid, Dev), "cuDeviceGetUuid"); !S)
      return S.takeError();
    std::string Text = "GPU-";
    for (int I = 0; I < 16; ++I) {
      if (I == 4 || I == 6 || I == 8 || I == 10) Text += '-';
      Text += formatString("%02x", static_cast<unsigned char>(Uuid.bytes[I]));
    }
    return Text;
  }

 private:
  int32_t NumDevices_ = 0;  // written by initialize(), before any device exists
  PeerAccessTable Peers_;
  HostRegistrations Registrations_;  // host ranges registered for any device
};
}  // namespace

}  // namespace omptarget::cuda

std::unique_ptr<omptarget::plugin::GenericPlugin> omptarget::plugin::createPlugin() {
  return std::make_unique<omptarget::cuda::CudaPlugin>();
}

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

  // A cubin whose machine code no GPU of this machine runs (sm_80 or sm_86
  // on an H200, sm_90 on an A100) is refused with one warning naming the
  // image's SM and the devices': no plugin then takes the image, so its
  // regions run on the host (under OMP_TARGET_OFFLOAD=mandatory the core
  // stops at the first one), as LLVM's later plugins do. Accepting it would
  // number the GPUs and fail every region in load_binary, which the default
  // policy makes fatal once a device exists. Without a driver or a GPU, or
  // when a device's compute capability cannot be read, the cubin is taken
  // (the core then says the plugin found no device; load_binary checks the
  // SM of each device it loads on).
  bool isValidBinaryImpl(std::span<const std::byte> Image) override {
    std::optional<CubinInfo> Info = readCubin(Image);
    if (!Info) return false;
    if (Info->Sm == 0 || numberOfDevices() == 0) return true;
    const Driver &D = driver();
    std::string Devices;
    for (int32_t Id = 0; Id < numberOfDevices(); ++Id) {
      CUdevice Dev = 0;
      int Major = 0, Minor = 0;
      if (D.cuDeviceGet(&Dev, Id) != CUDA_SUCCESS ||
          D.cuDeviceGetAttribute(&Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Dev) !=
              CUDA_SUCCESS ||
          D.cuDeviceGetAttribute(&Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Dev) !=
              CUDA_SUCCESS)
        return true;
      if (smCompatible(Info->Sm, static_cast<uint32_t>(Major), static_cast<uint32_t>(Minor)))
        return true;
      Devices += formatString("%sdevice %d: sm_%d%d", Id ? ", " : "", Id, Major, Minor);
    }
    debug::warning(
        "the device image was built for sm_%u, which no CUDA device of this machine runs "
        "(%s); the CUDA plugin does not take it: its target regions run on the host (fatal "
        "under OMP_TARGET_OFFLOAD=mandatory); rebuild for the devices' architecture (see "
        "docs/usage.md, \"Building for NVIDIA GPUs\")",
        Info->Sm, Devices.c_str());
    return false;
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

#include "runtime.h"

#include "llvm19_env.h"

#include <chrono>
#include <cinttypes>
#include <string>
#include <thread>

#include "debug.h"
#include "default_device.h"
#include "descriptor_check.h"
#include "env.h"
#include "exit_mark.h"
#include "mpi_launch.h"
#include "scoped_lock.h"

namespace omptarget::core {

namespace {
// The holder is never destroyed: stop() ends the runtime at a defined point
// (library destructor), and calls that arrive later must find an empty slot,
// not a destroyed one.
std::unique_ptr<Runtime> &slot() {
  static union Holder {
    std::unique_ptr<Runtime> R;
    Holder() : R() {}
    ~Holder() {}
  } H;
  return H.R;
}
// The gate (runtime.h): closed by stop(); InFlight counts the threads inside
// an exported call (a thread's nested calls count once, through UseDepth).
std::atomic<bool> Stopped{false};
std::atomic<int64_t> InFlight{0};
thread_local int UseDepth = 0;
// Published copy of slot()'s pointer for the hot path (no static-init guard).
std::atomic<Runtime *> Live{nullptr};

// Waits until no other thread is inside a call (this thread's own hold, if
// any, aside); false after kShutdownWaitMs.
bool waitForOtherCalls() {
  using Clock = std::chrono::steady_clock;
  const auto Deadline = Clock::now() + std::chrono::milliseconds(Runtime::kShutdownWaitMs);
  const int64_t Own = UseDepth > 0 ? 1 : 0;
  while (InFlight.load(std::memory_order_seq_cst) > Own) {
    if (Clock::now() >= Deadline) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

OffloadPolicy parsePolicy() {
  auto Text = env::getString("OMP_TARGET_OFFLOAD");
  if (!Text) return OffloadPolicy::Default;
  if (auto Policy = parseOffloadPolicy(*Text)) return *Policy;
  debug::warning("ignoring OMP_TARGET_OFFLOAD='%s': expected MANDATORY, DISABLED or DEFAULT",
                 Text->c_str());
  return OffloadPolicy::Default;
}

thread_local int64_t TripCountDevice = -1;
thread_local uint64_t TripCountValue = 0;
}  // namespace

std::string invalidDeviceMessage(const char *Call, int64_t Id, HostDevice Host) {
  Runtime &R = Runtime::get();
  int32_t N = R.devices().size();
  const bool HostOk = Host == HostDevice::Accepted;
  if (Id == abi::kOmpInvalidDevice && HostOk)
    return formatString("%s: device number omp_invalid_device (%" PRId64
                        ") names no device (there "
                        "are %d devices; pass %somp_initial_device for the host)",
                        Call, Id, N, N == 0 ? "" : formatString("0..%d, or ", N - 1).c_str());
  if (N == 0)
    return formatString("%s: invalid device number %" PRId64 " (there are 0 devices: %s%s)", Call,
                        Id,
                        R.offloadDisabled()
                            ? "OMP_TARGET_OFFLOAD=disabled"
                            : "no plugin found a device or accepts this program's device images",
                        HostOk ? "; use omp_get_initial_device() for the host" : "");
  return formatString("%s: invalid device number %" PRId64
                      " (there are %d devices; valid numbers "
                      "are 0..%d%s)",
                      Call, Id, N, N - 1,
                      HostOk ? ", or omp_get_initial_device() for the host" : "");
}

int32_t initialDevice() { return Runtime::get().devices().size(); }
bool isInitialDevice(int64_t DeviceId) {
  return DeviceId == initialDevice() || DeviceId == abi::kOmpInitialDevice ||
         DeviceId == abi::kHostDeviceLegacy;
}

Runtime::Runtime() : ConfiguredPolicy_(parsePolicy()) { warnUnhonouredLlvm19Variables(); }
Runtime::~Runtime() = default;

namespace {
void publish() {
  if (!slot()) slot() = std::make_unique<Runtime>();
  Live.store(slot().get(), std::memory_order_release);
}
}  // namespace

Runtime &Runtime::get() {
  // Calls that arrive before the library constructor ran (another library's
  // constructor) get a runtime made on the spot; so would a call after stop()
  // that no RuntimeUse guards, but the gate stays closed for it.
  if (Runtime *R = Live.load(std::memory_order_acquire)) return *R;
  publish();
  return *slot();
}
void Runtime::start() {
  // The library constructor, or a test starting the runtime again after stop().
  Stopped.store(false, std::memory_order_seq_cst);
  publish();
}
void Runtime::stop() {
  Stopped.store(true, std::memory_order_seq_cst);
  if (UseDepth > 0) {
    // exit() from inside a call (the host device runs the region's code on
    // the calling thread): this thread's own frames still use the runtime,
    // and other threads may wait on locks it holds.
    OMPT_TRACE("omptarget", "exit() called inside an offload call: the runtime is left in place");
    return;
  }
  if (!waitForOtherCalls()) {
    OMPT_TRACE("omptarget",
               "%" PRId64
               " offload calls still running %d ms after exit() began: the runtime is "
               "left in place",
               InFlight.load(), kShutdownWaitMs);
    return;
  }
  Live.store(nullptr, std::memory_order_release);
  slot().reset();
}
bool Runtime::stopped() { return Stopped.load(std::memory_order_seq_cst); }

RuntimeUse::RuntimeUse() noexcept : Held_(true) {
  if (UseDepth++ > 0) return;  // the outermost call's hold covers this one
  InFlight.fetch_add(1, std::memory_order_seq_cst);
  if (!Stopped.load(std::memory_order_seq_cst)) [[likely]]
    return;
  InFlight.fetch_sub(1, std::memory_order_seq_cst);
  --UseDepth;
  Held_ = false;
}
RuntimeUse::~RuntimeUse() {
  if (!Held_ || --UseDepth > 0) return;
  InFlight.fetch_sub(1, std::memory_order_seq_cst);
}

void reportAfterShutdown(const char *Call, const char *What) {
  debug::error("%s: called after the offload runtime shut down at program exit; %s", Call, What);
}

void Runtime::registerRequires(int64_t Flags) {
  // The first translation unit sets the flags; every later one must agree on
  // the clauses that change the runtime's behaviour.
  int64_t Old = abi::kReqUndefined;
  if (RequiresFlags_.compare_exchange_strong(Old, Flags)) return;
  static constexpr struct {
    int64_t Bit;
    const char *Clause;
  } Checked[] = {{abi::kReqReverseOffload, "reverse_offload"},
                 {abi::kReqUnifiedAddress, "unified_address"},
                 {abi::kReqUnifiedSharedMemory, "unified_shared_memory"}};
  for (const auto &C : Checked)
    if ((Old & C.Bit) != (Flags & C.Bit))
      debug::fatal(1,
                   "'#pragma omp requires %s' not used consistently! (__tgt_register_requires: "
                   "flags 0x%" PRIx64 " after 0x%" PRIx64
                   "; every translation unit that "
                   "offloads must carry the same requires directives)",
                   C.Clause, static_cast<uint64_t>(Flags), static_cast<uint64_t>(Old));
}

bool Runtime::unifiedSharedMemory() const {
  return (requiresFlags() & abi::kReqUnifiedSharedMemory) != 0;
}

void Runtime::registerLib(__tgt_bin_desc *Desc) {
  if (!Desc) {
    debug::error("__tgt_register_lib: null descriptor ignored");
    return;
  }
  // The device servers of an MPI launch wait in MPI_Init until this rank
  // starts the MPI plugin: start it at the first registration, whatever
  // the policy and the descriptor (usage.md, "Devices on other nodes"); its
  // devices are added as any plugin's, when it takes an image.
  if (mpi::launchDecision().UseMpi) Devices_.startPlugin("libomptarget.rtl.mpi.so");
  // A descriptor of another compiler's entry layout is ignored, as an image
  // no plugin accepts is: its target regions run on the host, and under
  // OMP_TARGET_OFFLOAD=mandatory the first of them is fatal (api_target.cpp,
  // no device). A corrupt one stops the program: the pointer given is not a
  // descriptor. With offloading disabled no descriptor is needed: either is
  // ignored. (docs/usage.md, "Malformed binary descriptors".)
  DescriptorFlaw Flaw;
  if (Status S = checkDescriptor(*Desc, Flaw); !S) {
    const char *What = S.error().message().c_str();
    const char *Hint =
        Flaw == DescriptorFlaw::Layout ? kLayoutDescriptorHint : kCorruptDescriptorHint;
    if (ConfiguredPolicy_ == OffloadPolicy::Disabled) {
      debug::error(
          "__tgt_register_lib: %s; offloading is disabled, so the descriptor is ignored; %s", What,
          Hint);
      return;
    }
    if (Flaw == DescriptorFlaw::Corrupt) debug::fatal(1, "__tgt_register_lib: %s; %s", What, Hint);
    debug::warning("__tgt_register_lib: %s; the descriptor is ignored, so %s; %s", What,
                   ConfiguredPolicy_ == OffloadPolicy::Mandatory
                       ? "the first target region of this binary is a fatal error "
                         "(OMP_TARGET_OFFLOAD=mandatory)"
                       : "the target regions of this binary run on the host",
                   Hint);
    return;
  }
  // clang 19 passes `#pragma omp requires` as records of the entry table.
  int64_t Requires = 0;
  bool HasRecords = false;
  Desc = RequiresRecords_.strip(Desc, Requires, HasRecords);
  if (HasRecords) registerRequires(Requires);
  loadPlugins();
  std::string IdlePlugins;
  int Accepted = Images_.registerLib(Desc, requiresFlags(), IdlePlugins);
  exit_mark::arm();  // the plugins that took an image have started their drivers
  // OMPTARGET_LOCAL_RANK_DEVICE: resolved once, by the first registration
  // that leaves devices (default_device.h).
  localRankDevice().resolve(Devices_.size(), libompDefaultDeviceIcv());
  if (Desc->NumDeviceImages == 0) return;
  if (!IdlePlugins.empty()) {
    // Taken by a plugin that found no device (no GPU, no driver): say so
    // once per binary; LIBOMPTARGET_DEBUG=1 shows the plugin's reason.
    std::string Kinds;
    for (int32_t I = 0; I < Desc->NumDeviceImages; ++I)
      Kinds += (I ? ", " : "") + describeImage(Desc->DeviceImages[I]);
    debug::warning(
        "__tgt_register_lib: the device image(s) of this binary (%s) are for %s, which "
        "found no device; its target regions run on the host",
        Kinds.c_str(), IdlePlugins.c_str());
    return;
  }
  if (Accepted > 0) return;
  // Plugins were found but none takes any image: the program was built for
  // targets this installation cannot run. Say so once per binary.
  std::string Plugins, Kinds;
  for (Plugin *P : Devices_.plugins()) Plugins += (Plugins.empty() ? "" : ", ") + P->name();
  for (int32_t I = 0; I < Desc->NumDeviceImages; ++I)
    Kinds += (I ? ", " : "") + describeImage(Desc->DeviceImages[I]);
  if (Plugins.empty())
    OMPT_TRACE("omptarget", "__tgt_register_lib: no plugin loaded; %d image(s) (%s) unused",
               Desc->NumDeviceImages, Kinds.c_str());
  else
    debug::warning(
        "__tgt_register_lib: no plugin accepts the %d device image(s) of this binary "
        "(%s; plugins loaded: %s); its target regions run on the host",
        Desc->NumDeviceImages, Kinds.c_str(), Plugins.c_str());
}

void Runtime::unregisterLib(__tgt_bin_desc *Desc) {
  if (!Desc) return;
  // At exit the program unregisters its binary from its own destructor,
  // before the runtime stops: a nowait region still running on a helper
  // thread uses the binary's kernels and mapped globals, so let it finish
  // first (bounded; regions that start later find the binary retired and
  // run their host version: api_target.cpp).
  const bool Quiet = waitForOtherCalls();
  if (!Quiet)
    OMPT_TRACE("omptarget",
               "__tgt_unregister_lib: offload calls still running after %d ms; unregistering "
               "anyway, its device images stay loaded",
               kShutdownWaitMs);
  std::vector<ImageRegistry::LoadedImage> Loaded =
      Images_.unregisterLib(RequiresRecords_.registered(Desc));
  // A call that found one of the binary's kernels before it was retired may
  // still be running it (a construct's kernels are done when its call
  // returns): the images go only once no other call is in flight (at once,
  // unless one started since the wait above). Not once exit() has begun:
  // the images go with the process, and closing one then, while other
  // threads still offload, made libomp 14 re-initialize itself and abort
  // in 3 of 30 runs of exit_work_in_flight's threads case under ASan (0 of
  // 40 without the unload). Nor while a deferred `nowait` construct (libomp
  // 19) may still have a kernel queued: its call has returned, so the wait
  // does not see it (closing the image then crashed the asynchronous host
  // device's worker in about 4 of 100 exits of exit_work_in_flight's nowait
  // case, whose exit() unregisters the binary before the exit mark is set);
  // its images then stay until deinit.
  if (Quiet && !exit_mark::begun() && waitForOtherCalls() && Deferred_.empty())
    ImageRegistry::unloadImages(Loaded);
  RequiresRecords_.forget(Desc);
}

OffloadPolicy Runtime::resolvePolicy() {
  OffloadPolicy P = ConfiguredPolicy_;
  if (P == OffloadPolicy::Default) {
    loadPlugins();
    P = Devices_.size() > 0 ? OffloadPolicy::Mandatory : OffloadPolicy::Disabled;
  }
  ResolvedPolicy_.store(P, std::memory_order_release);
  return P;
}

void Runtime::loadPlugins() {
  // With offloading disabled no plugin is loaded: there are no devices.
  if (ConfiguredPolicy_ != OffloadPolicy::Disabled) Devices_.loadPlugins();
}

void Runtime::activateAllPlugins() {
  loadPlugins();
  for (Plugin *P : Devices_.plugins()) (void)Devices_.activate(*P, requiresFlags());
  exit_mark::arm();
}

Expected<Device *> Runtime::readyDevice(int64_t Id, const char *Call) {
  Device *D = Devices_.get(Id);
  if (!D) return Error(invalidDeviceMessage(Call, Id));
  uint64_t Generation = Images_.generation();
  if (D->isReady() && D->loadedGeneration() == Generation) return D;
  ScopedLock Lock(D->initMutex());
  const bool FirstStart = !D->isReady();
  if (Status S = D->initializeLocked(unifiedSharedMemory()); !S)
    return makeError("%s: %s", Call, S.error().message().c_str());
  // The device's start (its context) may register driver handlers; one
  // entry per binary and per device in all.
  if (FirstStart) exit_mark::arm();
  if (Status S = Images_.loadPendingImages(*D); !S)
    return makeError("%s: %s", Call, S.error().message().c_str());
  D->markReady(Generation);
  return D;
}

void Runtime::pushTripCount(int64_t DeviceId, uint64_t Count) {
  TripCountDevice = DeviceId;
  TripCountValue = Count;
}

uint64_t Runtime::popTripCount(int64_t DeviceId) {
  if (TripCountDevice != DeviceId) return 0;
  TripCountDevice = -1;
  return TripCountValue;
}

}  // namespace omptarget::core

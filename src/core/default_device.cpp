// The default device of the calling thread: libomp's default-device ICV
// (OMP_DEFAULT_DEVICE, omp_set_default_device), read for every construct
// without a device clause.
//
// OMPTARGET_LOCAL_RANK_DEVICE=1 (default_device.h) writes that ICV once,
// when a binary's registration first leaves the program with devices; the
// per-construct read below is the same with or without it (no check, no
// load of ours: bench/count_region_instructions.sh counts the same
// instructions per region either way).
//
// At exit() libomp (a shared library: no atexit handler of its own) shuts
// down in its library destructor, which may run before ours while other
// threads still offload (exit() from main while they run target regions).
// A thread that then asks libomp makes it initialize again, and libomp 14
// aborts there ("Assertion failure at kmp_runtime.cpp(7163)",
// `__kmp_all_nth == 0`): 47 of 200 exits of exit_work_in_flight.c's
// threads case when main exits as the threads start, 0 of 200 since. So,
// once exit() has begun (the exit mark is set by an atexit handler, before
// any library destructor), the runtime asks libomp no more: a thread gets
// the value it read last or, if it never asked, the local-rank device when
// one was set, else OMP_DEFAULT_DEVICE's (0 when unset). Not covered:
// omp_set_default_device called by a thread after exit() has begun is not
// seen.
//
// Thread safety: the last value read is thread-local; the local-rank
// resolution is claimed by one thread (an atomic flag) and publishes its
// device through an atomic.
#include "default_device.h"

#include <cinttypes>
#include <iterator>
#include <optional>

#include "debug.h"
#include "env.h"
#include "exit_mark.h"
#include "runtime.h"

extern "C" int omp_get_default_device(void) __attribute__((weak));
extern "C" void omp_set_default_device(int) __attribute__((weak));
extern "C" void kmp_set_defaults(const char *) __attribute__((weak));

namespace omptarget::core {

namespace {
thread_local std::optional<int64_t> LastRead;

[[gnu::cold]] int64_t defaultDeviceAtExit() {
  if (LastRead) return *LastRead;
  if (int64_t Local = localRankDevice().applied(); Local >= 0) return Local;
  // libomp has warned about a value it did not take: 0, silently, as it did.
  if (auto Text = env::getString("OMP_DEFAULT_DEVICE"))
    if (auto Value = env::parseInt(*Text); Value && *Value >= 0) return *Value;
  return 0;
}

constexpr const char *kSetting = "OMPTARGET_LOCAL_RANK_DEVICE";

// "OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID or SLURM_LOCALID"
std::string lookedFor() {
  std::string Names;
  constexpr size_t N = std::size(kLocalRankVariables);
  for (size_t I = 0; I < N; ++I)
    Names += std::string(I == 0 ? "" : I + 1 == N ? " or " : ", ") + kLocalRankVariables[I];
  return Names;
}

LocalRankResolution outcome(LocalRankOutcome O) {
  LocalRankResolution R;
  R.Outcome = O;
  return R;
}
}  // namespace

int64_t defaultDevice() {
  if (!omp_get_default_device) return 0;
  if (exit_mark::begun()) [[unlikely]]
    return defaultDeviceAtExit();
  const int64_t Device = omp_get_default_device();
  LastRead = Device;
  return Device;
}

DefaultDeviceIcv libompDefaultDeviceIcv() {
  return {omp_get_default_device, omp_set_default_device, kmp_set_defaults};
}

LocalRankDevice &localRankDevice() {
  static LocalRankDevice Instance;  // constant-initialized, never destroyed in use
  return Instance;
}

LocalRankResolution LocalRankDevice::resolve(int32_t NumDevices, const DefaultDeviceIcv &Icv) {
  if (Done_.load(std::memory_order_acquire)) return outcome(LocalRankOutcome::Resolved);
  // Malformed: env::getInt's warning, then off.
  if (env::getInt(kSetting, 0, 0, 1) == 0) {
    Done_.store(true, std::memory_order_release);
    return outcome(LocalRankOutcome::Off);
  }
  // No device (yet): the default device is unchanged (the host runs the
  // regions); a binary registered later may bring devices.
  if (NumDevices <= 0) return outcome(LocalRankOutcome::NoDevices);
  if (Done_.exchange(true, std::memory_order_acq_rel)) return outcome(LocalRankOutcome::Resolved);

  // The user's explicit choice wins (an empty value counts as unset).
  if (auto Text = env::getString("OMP_DEFAULT_DEVICE"); Text && !Text->empty()) {
    OMPT_TRACE("omptarget", "%s=1: OMP_DEFAULT_DEVICE='%s' is set and wins", kSetting,
               Text->c_str());
    return outcome(LocalRankOutcome::OmpDefaultSet);
  }
  // The first launcher variable present (an empty one counts as absent).
  std::optional<std::string> Text;
  const char *Variable = nullptr;
  for (const char *Name : kLocalRankVariables)
    if ((Text = env::getString(Name)) && !Text->empty()) {
      Variable = Name;
      break;
    }
  if (!Variable) {
    debug::warning(
        "%s=1: no node-local rank in the environment (%s is not set); the default device stays "
        "as it is",
        kSetting, lookedFor().c_str());
    return outcome(LocalRankOutcome::NoLauncher);
  }
  std::optional<int64_t> Rank = env::parseInt(*Text);
  if (!Rank || *Rank < 0) {
    debug::warning(
        "%s=1: ignoring %s='%s': expected a node-local rank (an integer >= 0); the default "
        "device stays as it is",
        kSetting, Variable, Text->c_str());
    return {LocalRankOutcome::BadRank, -1, -1, Variable};
  }
  const int64_t Device = *Rank % NumDevices;
  if (!Icv.Get || !Icv.Set) {
    OMPT_TRACE("omptarget", "%s=1: libomp is not loaded; the default device is not set", kSetting);
    return {LocalRankOutcome::NoLibomp, -1, *Rank, Variable};
  }
  // OMP_DEFAULT_DEVICE is unset, so libomp's value is 0 unless the program
  // chose one already (a constructor that ran first, a library dlopen'ed
  // after such a call): that call wins. One that chose 0 cannot be told
  // from no call.
  if (int Current = Icv.Get(); Current != 0) {
    OMPT_TRACE("omptarget", "%s=1: the default device is already %d (omp_set_default_device); kept",
               kSetting, Current);
    return {LocalRankOutcome::CallWins, Current, *Rank, Variable};
  }
  // libomp's initial value first, for threads that start using OpenMP later
  // (kmp_set_defaults parses the text as the environment's), then this
  // thread's own ICV, which its parallel regions and tasks inherit.
  if (Icv.SetDefaults) Icv.SetDefaults(("OMP_DEFAULT_DEVICE=" + std::to_string(Device)).c_str());
  Icv.Set(static_cast<int>(Device));
  Applied_.store(Device, std::memory_order_release);
  OMPT_TRACE("omptarget",
             "%s=1: default device %" PRId64 " = node-local rank %" PRId64
             " (%s) modulo %d device(s)",
             kSetting, Device, *Rank, Variable, NumDevices);
  return {LocalRankOutcome::Applied, Device, *Rank, Variable};
}

}  // namespace omptarget::core

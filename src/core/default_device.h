// OMPTARGET_LOCAL_RANK_DEVICE=1 (docs/env-vars.md): the default device of
// an MPI rank becomes its node-local rank modulo the number of devices, so
// that one rank per GPU each offloads to its own GPU without code.
//
// The default device is libomp's ICV (omp_get_default_device), which the
// core reads for every construct without a device clause (defaultDevice(),
// default_device.cpp). The setting does not touch that path: it is resolved
// once, when a binary's registration first leaves the program with devices
// (normally before main, from the program's constructors), and written into
// libomp: the registering thread's ICV (omp_set_default_device; its parallel
// regions and tasks inherit it) and libomp's initial value for threads that
// start using OpenMP later (kmp_set_defaults("OMP_DEFAULT_DEVICE=N")).
//
// Precedence: OMP_DEFAULT_DEVICE, when set, wins (nothing is written);
// omp_set_default_device calls made afterwards win as they always do; one
// made before the resolution (a default device other than 0 then) is kept.
//
// Thread safety: resolveLocalRankDevice may be called concurrently (binaries
// registered by several threads); only the first call that finds devices
// resolves, and later ones return at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace omptarget::core {

// The launcher variables that hold the node-local rank, in the order they are
// looked for: an MPI launcher's own first, since a job step's Slurm variables
// are inherited by the ranks that mpirun / mpiexec starts inside it
// (SLURM_LOCALID=0 for all of them).
inline constexpr const char *kLocalRankVariables[] = {"OMPI_COMM_WORLD_LOCAL_RANK",
                                                      "MPI_LOCALRANKID", "SLURM_LOCALID"};

// libomp's default-device ICV as the resolution reaches it: libomp's entries
// (weak references; null where libomp is not loaded), or a test's fakes.
struct DefaultDeviceIcv {
  int (*Get)();                       // omp_get_default_device
  void (*Set)(int);                   // omp_set_default_device
  void (*SetDefaults)(const char *);  // kmp_set_defaults (libomp's initial ICVs)
};
DefaultDeviceIcv libompDefaultDeviceIcv();

enum class LocalRankOutcome {
  Off,            // OMPTARGET_LOCAL_RANK_DEVICE unset or 0
  NoDevices,      // no device yet: unchanged, asked again at the next registration
  OmpDefaultSet,  // OMP_DEFAULT_DEVICE is set: it wins
  NoLauncher,     // no launcher variable: warned, unchanged
  BadRank,        // a launcher variable that is not a rank: warned, unchanged
  NoLibomp,       // libomp not loaded: nothing to set
  CallWins,       // omp_set_default_device was called before: kept
  Applied,        // Device written into libomp
  Resolved,       // resolved by an earlier call (nothing done now)
};

struct LocalRankResolution {
  LocalRankOutcome Outcome = LocalRankOutcome::Off;
  int64_t Device = -1;   // Applied: the default device set
  int64_t Rank = -1;     // Applied: the node-local rank read
  std::string Variable;  // Applied, BadRank: the launcher variable read
};

// The state of one process's resolution (the runtime keeps one; tests their own).
class LocalRankDevice {
 public:
  // Called with omp_get_num_devices()'s count after each registration of a
  // binary: resolves at the first call that finds devices (or that finds the
  // setting off, OMP_DEFAULT_DEVICE set), warns there if it must, and writes
  // the default device through Icv. Later calls do nothing (Resolved).
  LocalRankResolution resolve(int32_t NumDevices, const DefaultDeviceIcv &Icv);
  // The default device written (Applied), else -1: the exit path's answer
  // for threads that never asked libomp (default_device.cpp).
  int64_t applied() const { return Applied_.load(std::memory_order_acquire); }

 private:
  std::atomic<bool> Done_{false};
  std::atomic<int64_t> Applied_{-1};
};

// The runtime's resolution (Runtime::registerLib calls it with the device count).
LocalRankDevice &localRankDevice();

}  // namespace omptarget::core

// Whether this process was started by an MPI launcher in a way that asks
// for remote devices, decided from the environment alone (no MPI call, no
// libmpi loaded), so that a program run without a launcher, or an ordinary
// MPI program that initialises MPI itself, is left alone. The MPI plugin
// asks it before it looks for device servers; the core asks it to start
// that plugin even when offloading is disabled, since the servers wait in
// MPI_Init for the program's rank (runtime.cpp).
//
//   OMPTARGET_MPI=0   never: the MPI plugin offers no device
//   OMPTARGET_MPI=1   whenever a launcher's variables are set
//                     (OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_RANK)
//   unset             when Open MPI's launcher started several programs
//                     (OMPI_NUM_APP_CTX >= 2: `mpirun -np 1 ./app : -np N
//                     omptarget-mpi-device`)
// Pure functions of the environment; no state.
#pragma once

#include <string>

namespace omptarget::mpi {

struct LaunchDecision {
  bool UseMpi = false;
  std::string Why;  // for the trace: what decided it
};

LaunchDecision launchDecision();

}  // namespace omptarget::mpi

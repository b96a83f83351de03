#include "mpi_launch.h"

#include <cstdlib>

#include "env.h"

namespace omptarget::mpi {

LaunchDecision launchDecision() {
  const int64_t Wanted = env::getInt("OMPTARGET_MPI", -1, 0, 1);
  if (Wanted == 0) return {false, "OMPTARGET_MPI=0"};
  const char *Launcher = nullptr;
  for (const char *Var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(Var)) {
      Launcher = Var;
      break;
    }
  if (!Launcher)
    return {false, "no MPI launcher variable (OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_RANK)"};
  if (Wanted == 1) return {true, std::string("OMPTARGET_MPI=1 and ") + Launcher};
  const int64_t Apps = env::getInt("OMPI_NUM_APP_CTX", 1, 0, INT32_MAX);
  if (Apps >= 2) return {true, "Open MPI started several programs (OMPI_NUM_APP_CTX)"};
  return {false,
          "one program under the MPI launcher (set OMPTARGET_MPI=1 to look for device servers)"};
}

}  // namespace omptarget::mpi

// API (OpenMP 6.0, beyond LLVM 14; C++): omp_get_uid_from_device and
// omp_get_device_from_uid. Every device and the initial device have a
// non-empty id, all different; each id maps back to its device; asking
// twice gives the same string; omp_initial_device and
// omp_get_initial_device() give the same id ("HOST"). Host-plugin devices
// are "x86_64-<n>" (also with LLVM 14's host plugin, which has no id entry:
// the core names its devices the same way), CUDA devices the GPU's UUID as
// nvidia-smi prints it. Unknown ids and NULL give omp_invalid_device; an
// invalid device number gives NULL and a message.
// REQUIRES: omptarget-core
// RUN: %clangxx-offload -L%libdir %s -o %t && %run %t 2>&1 | %fcheck
#include <omptarget/omp_target_ext.h>

#include <cstdio>
#include <cstring>
#include <set>
#include <string>

int main() {
  setbuf(stdout, nullptr);
  int n = omp_get_num_devices();
  std::set<std::string> seen;
  int round_trips = 0, stable = 0, nonempty = 0;
  for (int d = 0; d <= n; d++) {
    const char *uid = omp_get_uid_from_device(d);
    if (!uid) {
      std::printf("device %d: NULL id\n", d);
      continue;
    }
    nonempty += uid[0] != '\0';
    seen.insert(uid);
    round_trips += omp_get_device_from_uid(uid) == d;
    const char *again = omp_get_uid_from_device(d);
    stable += again && std::strcmp(again, uid) == 0;
    // A copy must work as well as the runtime's own string.
    round_trips += omp_get_device_from_uid(std::string(uid).c_str()) == d;
  }
  // CHECK: ids: nonempty=1 distinct=1 round_trips=1 stable=1
  std::printf("ids: nonempty=%d distinct=%d round_trips=%d stable=%d\n", nonempty == n + 1,
              (int)seen.size() == n + 1, round_trips == 2 * (n + 1), stable == n + 1);
  // CHECK: device 0: {{(x86_64-0|mpi-.+-rank1-x86_64-0|GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$}}
  std::printf("device 0: %s\n", omp_get_uid_from_device(0));

  const char *host = omp_get_uid_from_device(omp_initial_device);
  // CHECK: initial device: HOST same=1 back=1 back_by_constant=1
  std::printf("initial device: %s same=%d back=%d back_by_constant=%d\n", host,
              host == omp_get_uid_from_device(omp_get_initial_device()),
              omp_get_device_from_uid("HOST") == omp_get_initial_device(),
              omp_get_device_from_uid(host) == n);

  // CHECK: unknown: -2 -2 -2 -2
  std::printf("unknown: %d %d %d %d\n", omp_get_device_from_uid("no-such-device"),
              omp_get_device_from_uid(""), omp_get_device_from_uid("host"),
              omp_get_device_from_uid(nullptr));

  // CHECK: Libomptarget error: omp_get_uid_from_device: invalid device number 99
  const char *bad = omp_get_uid_from_device(99);
  // CHECK: Libomptarget error: omp_get_uid_from_device: device number omp_invalid_device (-2) names no device
  const char *invalid = omp_get_uid_from_device(omp_invalid_device);
  // CHECK: invalid devices: 1 1
  std::printf("invalid devices: %d %d\n", bad == nullptr, invalid == nullptr);
  return 0;
}

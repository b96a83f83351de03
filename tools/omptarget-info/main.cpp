// omptarget-info: lists every device of every plugin with its properties
// (docs/usage.md, "Listing devices").
//
//   omptarget-info          a human listing and the peer-access matrix
//   omptarget-info --json   one JSON document (listing.h has its form)
//   omptarget-info --help   the manual page (manual.h)
//
// It gives every plugin its device numbers without an image
// (__tgt_init_all_rtls), then asks our core for each device's properties
// (omptarget_get_device_properties), which starts the device. Exit status:
// 0, 1 when a device could not be described (the core's error is on
// stderr), 2 for a usage error. OMP_TARGET_OFFLOAD=disabled: no device is
// started, and the listing says that offloading is disabled.
#include <strings.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "listing.h"
#include "manual.h"
#include "omptarget/omp_target_ext.h"

extern "C" void __tgt_init_all_rtls();

namespace {

// The core's reading of OMP_TARGET_OFFLOAD (case does not matter).
bool offloadDisabled() {
  const char *V = std::getenv("OMP_TARGET_OFFLOAD");
  return V && strcasecmp(V, "disabled") == 0;
}

void collect(void *Ctx, const char *Key, const char *Value) {
  static_cast<omptarget::info::DeviceProperties *>(Ctx)->Props.emplace_back(Key, Value);
}

}  // namespace

int main(int Argc, char **Argv) {
  bool Json = false;
  for (int I = 1; I < Argc; ++I) {
    if (std::strcmp(Argv[I], "--json") == 0) {
      Json = true;
    } else if (std::strcmp(Argv[I], "--help") == 0 || std::strcmp(Argv[I], "-h") == 0) {
      std::fputs(omptarget::info::kUsage, stdout);
      std::fputs("\n", stdout);
      std::fputs(omptarget::info::kManual, stdout);
      return 0;
    } else {
      std::fprintf(stderr, "omptarget-info: unknown option '%s'\n%s", Argv[I],
                   omptarget::info::kUsage);
      return 2;
    }
  }
  using namespace omptarget::info;
  std::vector<DeviceProperties> Devices;
  if (offloadDisabled()) {
    std::fputs(Json ? jsonListing(Devices, true).c_str() : disabledListing().c_str(), stdout);
    return 0;
  }
  __tgt_init_all_rtls();
  bool AllDescribed = true;
  for (int N = omp_get_num_devices(), I = 0; I < N; ++I) {
    DeviceProperties &D = Devices.emplace_back();
    D.DeviceNum = I;
    D.Described = omptarget_get_device_properties(I, collect, &D) == 0;
    AllDescribed = AllDescribed && D.Described;
  }
  std::string Out = Json ? jsonListing(Devices, false) : humanListing(Devices);
  std::fputs(Out.c_str(), stdout);
  std::fflush(stdout);
  return AllDescribed ? 0 : 1;
}

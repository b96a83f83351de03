// __tgt_rtl_direct_device: the device's direct table (see plugin_abi.h and
// direct_table.h): the generic functions, then whatever the device puts in
// of its own (specializeDirect).
#include "direct_table.h"
#include "exporter.h"

using namespace omptarget;
using namespace omptarget::plugin;

extern "C" int32_t __tgt_rtl_direct_device(int32_t DeviceId, uint32_t Version,
                                           __tgt_direct_device *Direct) noexcept {
  if (Version != OMPTARGET_DIRECT_DEVICE_VERSION || !Direct) return exporter::kFail;
  GenericDevice *D = exporter::thePlugin().readyDevice(DeviceId);
  if (!D) return exporter::kFail;  // not initialised (or no such device): the entries report that
  __tgt_direct_device Table{D,
                            direct::dataAlloc,
                            direct::dataDelete,
                            direct::dataSubmit,
                            direct::dataRetrieve,
                            direct::launch};
  D->specializeDirect(Table);
  *Direct = Table;
  return exporter::kOk;
}

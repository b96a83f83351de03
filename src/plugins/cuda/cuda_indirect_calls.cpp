// clang 19's `declare target indirect` functions on NVIDIA GPUs.
//
// A host function pointer to an indirect function may reach device code
// (read from mapped data, say); the device runtime turns it into the
// device's function through a table the plugin provides: {host address,
// device address} pairs sorted by host address, in device memory, named in
// the device environment (IndirectCallTable, IndirectCallTableSize: the
// number of pairs). Each indirect function is an image entry (flag 0x08,
// 8 bytes) whose host address is the host function and whose device global
// holds the device function's address. The table lives as long as the
// module (CudaImage's destructor frees it).
#include <algorithm>
#include <utility>
#include <vector>

#include "cuda_driver.h"
#include "cuda_module.h"
#include "debug.h"

namespace omptarget::cuda {

namespace {
constexpr const char *kComponent = "TARGET cuda RTL";
}  // namespace

Status CudaImage::buildIndirectCallTable() {
  const __tgt_device_image &Image = source();
  std::vector<std::pair<uint64_t, uint64_t>> Table;
  const Driver &D = driver();
  for (const __tgt_offload_entry *E = Image.EntriesBegin; E && E != Image.EntriesEnd; ++E) {
    if (E->size == 0 || !(E->flags & abi::kEntryIndirect)) continue;
    if (E->size != sizeof(uint64_t))
      return makeError("indirect function entry %s has %zu bytes, expected 8", E->name, E->size);
    CUdeviceptr Ptr = 0;
    size_t Size = 0;
    if (Status S = check(D.cuModuleGetGlobal(&Ptr, &Size, Module_, E->name), "cuModuleGetGlobal");
        !S)
      return makeError("indirect function %s: %s", E->name, S.error().message().c_str());
    if (Size != sizeof(uint64_t))
      return makeError("indirect function %s: its device global has %zu bytes, expected 8", E->name,
                       Size);
    uint64_t Device = 0;
    if (Status S = check(D.cuMemcpyDtoH(&Device, Ptr, sizeof(Device)), "cuMemcpyDtoH"); !S)
      return makeError("indirect function %s: %s", E->name, S.error().message().c_str());
    Table.emplace_back(reinterpret_cast<uint64_t>(E->addr), Device);
  }
  if (Table.empty()) return {};
  std::sort(Table.begin(), Table.end());
  const size_t Bytes = Table.size() * sizeof(Table[0]);
  static_assert(sizeof(Table[0]) == 16, "the device runtime reads pairs of two pointers");
  CUdeviceptr Array = 0;
  if (Status S = check(D.cuMemAlloc(&Array, Bytes), "cuMemAlloc"); !S)
    return makeError("the indirect call table (%zu functions): %s", Table.size(),
                     S.error().message().c_str());
  if (Status S = check(D.cuMemcpyHtoD(Array, Table.data(), Bytes), "cuMemcpyHtoD"); !S) {
    (void)D.cuMemFree(Array);
    return makeError("the indirect call table (%zu functions): %s", Table.size(),
                     S.error().message().c_str());
  }
  IndirectCallTable_ = Array;
  IndirectCallCount_ = Table.size();
  OMPT_TRACE(kComponent, "indirect call table: %zu function(s) at 0x%llx", Table.size(),
             static_cast<unsigned long long>(Array));
  return {};
}

}  // namespace omptarget::cuda

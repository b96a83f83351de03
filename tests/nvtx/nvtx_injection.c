// A stand-in for an NVTX tool (what Nsight Systems injects): loaded by NVTX3
// through NVTX_INJECTION64_PATH, it takes over nvtxRangePushA and
// nvtxRangePop and prints one line per call on stderr ("NVTX push <name>",
// "NVTX pop"), so that tests can check the ranges the runtime opens without
// a profiler.
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>

static int NVTX_API push(const char *Message) {
  fprintf(stderr, "NVTX push %s\n", Message);
  return 0;
}

static int NVTX_API pop(void) {
  fprintf(stderr, "NVTX pop\n");
  return 0;
}

__attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    NvtxGetExportTableFunc_t GetExportTable) {
  const NvtxExportTableCallbacks *Callbacks =
      (const NvtxExportTableCallbacks *)GetExportTable(NVTX_ETID_CALLBACKS);
  NvtxFunctionTable Table = 0;
  unsigned int Size = 0;
  if (!Callbacks || !Callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &Table, &Size) ||
      Size <= NVTX_CBID_CORE_RangePop)
    return 0;
  *Table[NVTX_CBID_CORE_RangePushA] = (NvtxFunctionPointer)push;
  *Table[NVTX_CBID_CORE_RangePop] = (NvtxFunctionPointer)pop;
  return 1;
}

// The CUDA driver API, loaded at run time with dlopen("libcuda.so.1").
//
// The plugin has no link-time CUDA dependency: cuda.h is used for types and
// prototypes only, and every entry point is resolved with dlsym under the
// versioned name cuda.h maps it to (cuMemAlloc -> cuMemAlloc_v2 ...). When the
// library is missing, cuInit fails (no GPU, no permission) or any required
// entry point is absent (a driver older than the plugin needs), driver()
// reports why and the plugin counts 0 devices. The required entry points are
// all in CUDA 11.0's driver (the _v2 primary-context ones, release and set
// flags, came with it). The optional entry points (the stream-ordered
// allocator's, CUDA 11.2) may be missing: their fields stay null and
// hasMemoryPools() says whether all of them are there.
//
// Thread safety: the driver is loaded once (a function-local static); the
// table is immutable afterwards and may be read from any thread.
#pragma once

#include <cuda.h>

#include <string>

#include "error.h"

namespace omptarget::cuda {

// X(field, symbol): the field is named after cuda.h's (macro-expanded) name,
// so calls read like the C API: driver().cuMemAlloc(&Ptr, Size).
#define OMPT_CUDA_DRIVER_ENTRIES(X)                                                             \
  X(cuInit, "cuInit")                                                                           \
  X(cuDriverGetVersion, "cuDriverGetVersion")                                                   \
  X(cuGetErrorName, "cuGetErrorName")                                                           \
  X(cuGetErrorString, "cuGetErrorString")                                                       \
  X(cuDeviceGetCount, "cuDeviceGetCount")                                                       \
  X(cuDeviceGet, "cuDeviceGet")                                                                 \
  X(cuDeviceGetName, "cuDeviceGetName")                                                         \
  X(cuDeviceGetUuid, "cuDeviceGetUuid_v2")                                                      \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute")                                               \
  X(cuDeviceTotalMem, "cuDeviceTotalMem_v2")                                                    \
  X(cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer")                                             \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")                                       \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2")                                  \
  X(cuDevicePrimaryCtxGetState, "cuDevicePrimaryCtxGetState")                                   \
  X(cuDevicePrimaryCtxSetFlags, "cuDevicePrimaryCtxSetFlags_v2")                                \
  X(cuCtxSetCurrent, "cuCtxSetCurrent")                                                         \
  X(cuCtxSynchronize, "cuCtxSynchronize")                                                       \
  X(cuCtxSetLimit, "cuCtxSetLimit")                                                             \
  X(cuCtxGetLimit, "cuCtxGetLimit")                                                             \
  X(cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess")                                             \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx")                                                   \
  X(cuModuleUnload, "cuModuleUnload")                                                           \
  X(cuModuleGetFunction, "cuModuleGetFunction")                                                 \
  X(cuModuleGetGlobal, "cuModuleGetGlobal_v2")                                                  \
  X(cuFuncGetAttribute, "cuFuncGetAttribute")                                                   \
  X(cuFuncSetAttribute, "cuFuncSetAttribute")                                                   \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor") \
  X(cuMemGetInfo, "cuMemGetInfo_v2")                                                            \
  X(cuMemAlloc, "cuMemAlloc_v2")                                                                \
  X(cuMemFree, "cuMemFree_v2")                                                                  \
  X(cuMemAllocHost, "cuMemAllocHost_v2")                                                        \
  X(cuMemFreeHost, "cuMemFreeHost")                                                             \
  X(cuMemAllocManaged, "cuMemAllocManaged")                                                     \
  X(cuMemHostRegister, "cuMemHostRegister_v2")                                                  \
  X(cuMemHostUnregister, "cuMemHostUnregister")                                                 \
  X(cuPointerGetAttribute, "cuPointerGetAttribute")                                             \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2")                                                            \
  X(cuMemcpyDtoH, "cuMemcpyDtoH_v2")                                                            \
  X(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2")                                                  \
  X(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2")                                                  \
  X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2")                                                  \
  X(cuMemcpyPeerAsync, "cuMemcpyPeerAsync")                                                     \
  X(cuStreamCreate, "cuStreamCreate")                                                           \
  X(cuStreamDestroy, "cuStreamDestroy_v2")                                                      \
  X(cuStreamSynchronize, "cuStreamSynchronize")                                                 \
  X(cuStreamQuery, "cuStreamQuery")                                                             \
  X(cuStreamWaitEvent, "cuStreamWaitEvent")                                                     \
  X(cuLaunchKernel, "cuLaunchKernel")                                                           \
  X(cuEventCreate, "cuEventCreate")                                                             \
  X(cuEventDestroy, "cuEventDestroy_v2")                                                        \
  X(cuEventRecord, "cuEventRecord")                                                             \
  X(cuEventSynchronize, "cuEventSynchronize")                                                   \
  X(cuEventElapsedTime, "cuEventElapsedTime")

// The stream-ordered allocator (cuda_pool.h): optional, all or nothing.
#define OMPT_CUDA_DRIVER_POOL_ENTRIES(X)                \
  X(cuMemPoolCreate, "cuMemPoolCreate")                 \
  X(cuMemPoolDestroy, "cuMemPoolDestroy")               \
  X(cuMemPoolSetAttribute, "cuMemPoolSetAttribute")     \
  X(cuMemPoolGetAttribute, "cuMemPoolGetAttribute")     \
  X(cuMemPoolTrimTo, "cuMemPoolTrimTo")                 \
  X(cuMemPoolSetAccess, "cuMemPoolSetAccess")           \
  X(cuMemAllocFromPoolAsync, "cuMemAllocFromPoolAsync") \
  X(cuMemFreeAsync, "cuMemFreeAsync")

// Every entry, required or not (the API statistics wrap them all).
#define OMPT_CUDA_DRIVER_ALL_ENTRIES(X) \
  OMPT_CUDA_DRIVER_ENTRIES(X)           \
  OMPT_CUDA_DRIVER_POOL_ENTRIES(X)

struct Driver {
#define OMPT_CUDA_FIELD(Name, Symbol) decltype(&::Name) Name = nullptr;
  OMPT_CUDA_DRIVER_ALL_ENTRIES(OMPT_CUDA_FIELD)
#undef OMPT_CUDA_FIELD
  int Version = 0;  // cuDriverGetVersion, e.g. 12040
  // Every entry of OMPT_CUDA_DRIVER_POOL_ENTRIES was found (set at load,
  // before any decorator runs).
  bool PoolEntries = false;
  bool hasMemoryPools() const { return PoolEntries; }
};

// Rewrites the resolved table before its first use (cuInit), e.g. to wrap
// every entry (cuda_api_stats.h).
using DriverDecorator = void (*)(Driver &Table);

// The loaded and initialised (cuInit) driver, or why it is unusable. The
// first call loads it, applies Decorate (if any) to the resolved table and
// calls cuInit through it; every later call returns the same answer and
// ignores its argument. The plugin setup (cuda_plugin.cpp) makes the first
// call.
const Expected<const Driver *> &loadDriver(DriverDecorator Decorate = nullptr);

// The loaded driver; only valid once loadDriver() succeeded (every device
// exists only then).
const Driver &driver();

// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)" for Code: the driver's name and
// description, or the plugin's own (cuda_errors.h) where the driver gives
// none; only a code neither knows reads "CUDA error N (...)".
std::string errorText(CUresult Code);

// Status from a driver result: success, or "<What>: <errorText>".
Status check(CUresult Code, const char *What);
// Whether a call checked by check() was answered CUDA_ERROR_DEINITIALIZED:
// the driver has shut down (process exit), and stays so.
bool driverShutDown();

}  // namespace omptarget::cuda

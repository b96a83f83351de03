#include "cuda_errors.h"

#include <algorithm>
#include <iterator>

namespace omptarget::cuda {

namespace {
struct KnownError {
  int Code;
  const char *Name;
  const char *Description;
};

// Sorted by code. Numbers, not cuda.h's enumerators, so that the table
// builds against any cuda.h; the descriptions are ours.
constexpr KnownError kKnown[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "an argument is out of range or invalid"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "the device cannot allocate the memory requested"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "the driver was not initialised (cuInit)"},
    {4, "CUDA_ERROR_DEINITIALIZED", "the driver is shutting down, as at process exit"},
    {5, "CUDA_ERROR_PROFILER_DISABLED", "the profiler is disabled"},
    {6, "CUDA_ERROR_PROFILER_NOT_INITIALIZED", "the profiler was not initialised"},
    {7, "CUDA_ERROR_PROFILER_ALREADY_STARTED", "the profiler is already running"},
    {8, "CUDA_ERROR_PROFILER_ALREADY_STOPPED", "the profiler is already stopped"},
    {34, "CUDA_ERROR_STUB_LIBRARY", "the libcuda found is a stub, not a real driver"},
    {36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER", "the call needs a newer driver"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE", "the device is busy or unavailable (compute mode?)"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA device is visible"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "the device number does not name a device"},
    {102, "CUDA_ERROR_DEVICE_NOT_LICENSED", "the device lacks a licence for this operation"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "the module image is not valid for the device"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "no valid context is current"},
    {202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT", "the context is already current"},
    {205, "CUDA_ERROR_MAP_FAILED", "a map operation failed"},
    {206, "CUDA_ERROR_UNMAP_FAILED", "an unmap operation failed"},
    {207, "CUDA_ERROR_ARRAY_IS_MAPPED", "the array is mapped"},
    {208, "CUDA_ERROR_ALREADY_MAPPED", "the resource is already mapped"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU", "the image has no code for this GPU's architecture"},
    {210, "CUDA_ERROR_ALREADY_ACQUIRED", "the resource is already acquired"},
    {211, "CUDA_ERROR_NOT_MAPPED", "the resource is not mapped"},
    {212, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY", "the resource is not mapped as an array"},
    {213, "CUDA_ERROR_NOT_MAPPED_AS_POINTER", "the resource is not mapped as a pointer"},
    {214, "CUDA_ERROR_ECC_UNCORRECTABLE", "an uncorrectable ECC error was detected"},
    {215, "CUDA_ERROR_UNSUPPORTED_LIMIT", "the device does not support this limit"},
    {216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE", "the context is in use by another thread"},
    {217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED",
     "peer access is not supported between these devices"},
    {218, "CUDA_ERROR_INVALID_PTX", "the PTX could not be compiled"},
    {219, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT", "the graphics context is invalid"},
    {220, "CUDA_ERROR_NVLINK_UNCORRECTABLE", "an uncorrectable NVLink error was detected"},
    {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "the PTX JIT compiler library is missing"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
     "the PTX version is newer than the driver supports"},
    {223, "CUDA_ERROR_JIT_COMPILATION_DISABLED", "PTX JIT compilation is disabled"},
    {224, "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY", "the execution affinity is not supported"},
    {225, "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC",
     "device-side synchronisation is not supported here"},
    {226, "CUDA_ERROR_CONTAINED", "an error was contained to this context"},
    {300, "CUDA_ERROR_INVALID_SOURCE", "the kernel source is invalid"},
    {301, "CUDA_ERROR_FILE_NOT_FOUND", "a file was not found"},
    {302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND", "a shared object symbol was not found"},
    {303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED", "a shared object failed to initialise"},
    {304, "CUDA_ERROR_OPERATING_SYSTEM", "an operating system call failed"},
    {400, "CUDA_ERROR_INVALID_HANDLE", "a handle (stream, event, module, ...) is invalid"},
    {401, "CUDA_ERROR_ILLEGAL_STATE", "the resource is not in a valid state for the operation"},
    {402, "CUDA_ERROR_LOSSY_QUERY", "the query would lose information"},
    {500, "CUDA_ERROR_NOT_FOUND", "the named symbol was not found"},
    {600, "CUDA_ERROR_NOT_READY", "the operation has not completed yet"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS", "a kernel accessed an invalid memory address"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "the launch needs more registers or resources than the device has"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT", "the kernel ran too long and was stopped"},
    {703, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING",
     "the launch uses an incompatible texturing mode"},
    {704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", "peer access is already enabled"},
    {705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", "peer access was never enabled"},
    {708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE", "the primary context is already active"},
    {709, "CUDA_ERROR_CONTEXT_IS_DESTROYED", "the context was destroyed"},
    {710, "CUDA_ERROR_ASSERT", "a device-side assertion failed"},
    {711, "CUDA_ERROR_TOO_MANY_PEERS", "too many peer devices"},
    {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED", "the host memory is already registered"},
    {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED", "the host memory is not registered"},
    {714, "CUDA_ERROR_HARDWARE_STACK_ERROR", "a kernel overflowed or corrupted its stack"},
    {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION", "a kernel executed an illegal instruction (a trap?)"},
    {716, "CUDA_ERROR_MISALIGNED_ADDRESS", "a kernel accessed a misaligned address"},
    {717, "CUDA_ERROR_INVALID_ADDRESS_SPACE",
     "a kernel used an address in the wrong address space"},
    {718, "CUDA_ERROR_INVALID_PC", "a kernel's program counter became invalid"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "a kernel failed while running"},
    {720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", "the cooperative launch has too many blocks"},
    {721, "CUDA_ERROR_TENSOR_MEMORY_LEAK", "a kernel exited without freeing its tensor memory"},
    {800, "CUDA_ERROR_NOT_PERMITTED", "the operation is not permitted"},
    {801, "CUDA_ERROR_NOT_SUPPORTED", "the operation is not supported on this device"},
    {802, "CUDA_ERROR_SYSTEM_NOT_READY",
     "the system is not ready (driver or fabric manager not started?)"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "the driver and the kernel module versions differ"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
     "forward compatibility is not supported on this device"},
    {805, "CUDA_ERROR_MPS_CONNECTION_FAILED", "cannot connect to the MPS server"},
    {806, "CUDA_ERROR_MPS_RPC_FAILURE", "a call to the MPS server failed"},
    {807, "CUDA_ERROR_MPS_SERVER_NOT_READY", "the MPS server is not ready"},
    {808, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED", "the MPS server has its maximum of clients"},
    {809, "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED",
     "the MPS server has its maximum of connections"},
    {810, "CUDA_ERROR_MPS_CLIENT_TERMINATED", "the MPS client was terminated"},
    {811, "CUDA_ERROR_CDP_NOT_SUPPORTED", "dynamic parallelism is not supported here"},
    {812, "CUDA_ERROR_CDP_VERSION_MISMATCH", "dynamic parallelism versions do not match"},
    {900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED",
     "the operation is not allowed while a stream is captured"},
    {901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED",
     "the stream capture was invalidated by an earlier error"},
    {902, "CUDA_ERROR_STREAM_CAPTURE_MERGE", "the operation would merge two separate captures"},
    {903, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED", "the capture was not started in this stream"},
    {904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED", "the capture forked a stream that was not joined"},
    {905, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION",
     "the operation would cross the capture's boundary"},
    {906, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT",
     "the operation would implicitly wait on a captured stream"},
    {907, "CUDA_ERROR_CAPTURED_EVENT",
     "the event was recorded in a capture and cannot be used here"},
    {908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD", "the capture belongs to another thread"},
    {909, "CUDA_ERROR_TIMEOUT", "the wait timed out"},
    {910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE",
     "the graph update violates the executable graph's constraints"},
    {911, "CUDA_ERROR_EXTERNAL_DEVICE", "an asynchronous error happened in an external device"},
    {912, "CUDA_ERROR_INVALID_CLUSTER_SIZE", "the cluster size is invalid"},
    {913, "CUDA_ERROR_FUNCTION_NOT_LOADED", "the function is not loaded"},
    {914, "CUDA_ERROR_INVALID_RESOURCE_TYPE", "the resource type is invalid"},
    {915, "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION", "the resource configuration is invalid"},
    {916, "CUDA_ERROR_KEY_ROTATION", "an encryption key rotation failed"},
    {999, "CUDA_ERROR_UNKNOWN", "an unknown internal error"},
};

const KnownError *find(int Code) {
  auto It = std::lower_bound(std::begin(kKnown), std::end(kKnown), Code,
                             [](const KnownError &E, int C) { return E.Code < C; });
  return It != std::end(kKnown) && It->Code == Code ? It : nullptr;
}
}  // namespace

const char *knownErrorName(int Code) {
  const KnownError *E = find(Code);
  return E ? E->Name : nullptr;
}

const char *knownErrorDescription(int Code) {
  const KnownError *E = find(Code);
  return E ? E->Description : nullptr;
}

}  // namespace omptarget::cuda

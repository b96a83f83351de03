// A stand-in for the CUDA driver (libcuda.so.1) on machines without a GPU.
//
// "Device" memory is host memory, copies are memcpy and complete at once,
// streams and events are tokens, and kernels do not run: cuLaunchKernel only
// counts. Modules are the real cubins clang builds: their ELF symbol tables
// give the kernels and the globals (size and initial bytes), so the CUDA
// plugin loads images, reads execution modes, writes the device environment
// and moves data exactly as on a GPU. It lets CI exercise the plugin's
// host-side paths and lets callgrind profile them (tests/fake_cuda/README.md).
//
// OMPTARGET_FAKE_CUDA_DEVICES: number of devices (default 1). Each says it
// is a "Fake CUDA device" of compute capability 9.0 with 132 SMs and an
// H200's clocks, and can access every other one as a peer unless
// OMPTARGET_FAKE_CUDA_NO_PEER_ACCESS=1 (cuDeviceCanAccessPeer answers 0;
// cuMemcpyPeerAsync still copies, as the real one stages through the host).
//
// Device memory: OMPTARGET_FAKE_CUDA_CAPACITY bytes per process (default
// 16 GiB, also what cuMemGetInfo and cuDeviceTotalMem report), taken by live
// cuMemAlloc blocks and by what memory pools hold. The stream-ordered
// allocator is there (CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED is 1) unless
// OMPTARGET_FAKE_CUDA_MEMORY_POOLS=0; built with OMPTARGET_FAKE_CUDA_NO_POOLS
// the library lacks its entry points altogether, as a driver older than CUDA
// 11.2 does. A pool keeps the blocks freed into it (cuMemFreeAsync, which
// completes at once like every stream operation here) and hands a kept block
// of at least the requested size to the next allocation; it gives kept blocks
// back to the capacity at cuMemPoolTrimTo and, down to its release threshold
// (default 0, as the real driver's), at every stream, event or context
// synchronize. OMPTARGET_FAKE_CUDA_POOL_STATS=1 prints, at exit, per pool:
// allocations, how many reused a kept block, blocks taken from the capacity,
// trims, and the bytes held at the end.
//
// Primary contexts: one per device, created by the first
// cuDevicePrimaryCtxRetain that finds it inactive (retain and release count)
// with the flags cuDevicePrimaryCtxSetFlags gave it (initially
// OMPTARGET_FAKE_CUDA_PRIMARY_CTX_FLAGS, default 0, CU_CTX_SCHED_AUTO);
// cuDevicePrimaryCtxGetState reports the flags and whether it is active. As
// CUDA 11's cuDevicePrimaryCtxSetFlags_v2, setting flags is accepted while it
// is active. OMPTARGET_FAKE_CUDA_PRIMARY_CTX_ACTIVE=1: every device's primary
// context is active from the start, created with those flags and retained
// once (as by the application's CUDA runtime, which never releases it here).
// OMPTARGET_FAKE_CUDA_CTX_STATS=1 prints, at exit, per device whose primary
// context was asked about: the flags it was created with, its flags at exit,
// and how many cuDevicePrimaryCtxSetFlags calls it had.
// Fault injection, for the plugin's error paths:
//   OMPTARGET_FAKE_CUDA_MEMORY=N        cuMemAlloc / cuMemAllocFromPoolAsync
//                                       of more than N bytes fails with
//                                       CUDA_ERROR_OUT_OF_MEMORY (default
//                                       16 GiB); so does one beyond the
//                                       capacity
//   OMPTARGET_FAKE_CUDA_TRAP_LAUNCH=N   the Nth kernel launch "traps": from
//                                       then on every stream operation fails
//                                       with CUDA_ERROR_ILLEGAL_INSTRUCTION,
//                                       sticky, as a real trap leaves the
//                                       context
//   OMPTARGET_FAKE_CUDA_ALLOC_ERROR=N   cuMemAlloc and cuMemAllocFromPoolAsync
//                                       fail with CUresult N
//                                       (e.g. 1 CUDA_ERROR_INVALID_VALUE, 4
//                                       CUDA_ERROR_DEINITIALIZED)
//   OMPTARGET_FAKE_CUDA_HOST_REGISTER_ERROR=N  cuMemHostRegister fails with
//                                       CUresult N (e.g. 2
//                                       CUDA_ERROR_OUT_OF_MEMORY)
//   OMPTARGET_FAKE_CUDA_SET_FLAGS_ERROR=N  cuDevicePrimaryCtxSetFlags fails
//                                       with CUresult N (e.g. 1
//                                       CUDA_ERROR_INVALID_VALUE)
//   OMPTARGET_FAKE_CUDA_NO_ERROR_NAMES=1  cuGetErrorName/String fail with
//                                       CUDA_ERROR_DEINITIALIZED, as a driver
//                                       that is shutting down may
//   OMPTARGET_FAKE_CUDA_FAIL=<function>:<N>[:<CUresult>][,...]
//                                       the Nth call (1-based, counted from
//                                       the start of the process; +N: from
//                                       the program's omptarget_fake_cuda_mark()
//                                       call, below) of that
//                                       driver function fails once with the
//                                       CUresult (default 999,
//                                       CUDA_ERROR_UNKNOWN) and does nothing;
//                                       the calls before and after it work.
//                                       Functions by cuda.h's name without
//                                       the _v2 suffix: cuMemAlloc,
//                                       cuMemAllocFromPoolAsync, cuMemFree,
//                                       cuMemFreeAsync, cuMemAllocHost,
//                                       cuMemHostRegister, cuMemcpyHtoD,
//                                       cuMemcpyDtoH, cuMemcpyHtoDAsync,
//                                       cuMemcpyDtoHAsync, cuMemcpyDtoDAsync,
//                                       cuMemcpyPeerAsync, cuLaunchKernel,
//                                       cuEventCreate, cuEventRecord,
//                                       cuStreamWaitEvent, cuEventSynchronize,
//                                       cuStreamCreate, cuStreamSynchronize,
//                                       cuCtxSynchronize, cuModuleLoadDataEx,
//                                       cuModuleGetFunction,
//                                       cuModuleGetGlobal,
//                                       cuCtxEnablePeerAccess,
//                                       cuDevicePrimaryCtxRetain,
//                                       cuMemPoolCreate, cuEventElapsedTime
//                                       (the profile's timing); another name is an
//                                       error at load (exit status 2). The
//                                       switches above stay: ALLOC_ERROR and
//                                       HOST_REGISTER_ERROR are the same
//                                       fault on every call
// Leak accounting: the fake counts what is live (device allocations and
// their bytes, pinned host allocations, host registrations, streams, events,
// modules, memory pools, primary-context retains). A program may call
// omptarget_fake_cuda_mark() (found with dlopen("libcuda.so.1",
// RTLD_NOLOAD) + dlsym) once the runtime holds what it keeps between
// constructs (its stream and event pools, the loaded module, the memory
// manager's cache: the plugins are not torn down at exit). With
// OMPTARGET_FAKE_CUDA_LAUNCH_LOG=1: each cuLaunchKernel prints "fake-cuda:
// launch <kernel> grid XxYxZ block XxYxZ shared <bytes> arg0 <first
// parameter's 8 bytes>" on stderr; =2 also " env {a, b, arg0+N}": the 16
// bytes arg0 points at, read as a launch environment (two u32 and a pointer
// shown relative to arg0), unless arg0 is 0 or ~0.
// OMPTARGET_FAKE_CUDA_PENDING_QUERIES=N: work on a stream "completes
// later". A device-to-host copy (cuMemcpyDtoHAsync) reads the device at
// issue but writes host memory only when its stream completes: at
// cuStreamSynchronize, at a context or event synchronize (every stream), or
// at the first cuStreamQuery after N that answered CUDA_ERROR_NOT_READY
// (counted from the stream's first such copy or launch since it last
// completed). At exit the fake prints "fake-cuda: N stream queries answered
// not ready" on stderr. Without it every stream is complete at once
// (cuStreamQuery answers CUDA_SUCCESS).
// OMPTARGET_FAKE_CUDA_LEAK_CHECK=1 the fake prints, at exit, what is live,
// and, after a mark, either "fake cuda leak check: nothing leaked since the
// mark" or "fake cuda leak check: LEAKED since the mark: ..." with every
// count that grew.
// cuGetErrorName/String know the codes the fake returns, with the real
// driver's strings, and fail with CUDA_ERROR_INVALID_VALUE (null result) for
// any other code, as the real ones do.
#include <cuda.h>
#include <elf.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace {

struct FakeContext {
  int Device;
};
struct FakeFunction {
  std::string Name;
};
struct FakeModule {
  std::map<std::string, std::vector<unsigned char>> Globals;
  std::map<std::string, std::unique_ptr<FakeFunction>> Functions;
};
struct Token {
  int Unused = 0;
};

std::mutex Mutex;  // guards the containers below
// Pinned host memory by address: cuMemAllocHost blocks and cuMemHostRegister
// ranges (begin -> size, registered). Interior pointers are found, as the
// real driver's pointer attributes find them.
struct PinnedRange {
  size_t Size;
  bool Registered;
};
std::map<uintptr_t, PinnedRange> PinnedBlocks;
// The pinned range that contains P (Mutex held), or end().
std::map<uintptr_t, PinnedRange>::iterator pinnedAt(uintptr_t P) {
  auto It = PinnedBlocks.upper_bound(P);
  if (It == PinnedBlocks.begin()) return PinnedBlocks.end();
  --It;
  return P < It->first + It->second.Size ? It : PinnedBlocks.end();
}
std::set<std::unique_ptr<FakeModule>> Modules;
thread_local CUcontext Current = nullptr;
std::atomic<unsigned long long> Launches{0};
std::atomic<bool> Faulted{false};  // a launch trapped

size_t envSize(const char *Name, size_t Default) {
  const char *V = std::getenv(Name);
  return V ? static_cast<size_t>(std::strtoull(V, nullptr, 0)) : Default;
}
// Read once: the fake should cost little next to the plugin it serves.
const size_t MemoryLimit = envSize("OMPTARGET_FAKE_CUDA_MEMORY", size_t(16) << 30);
const unsigned long long TrapLaunch = envSize("OMPTARGET_FAKE_CUDA_TRAP_LAUNCH", 0);
const auto AllocError = static_cast<CUresult>(envSize("OMPTARGET_FAKE_CUDA_ALLOC_ERROR", 0));
const auto HostRegisterError =
    static_cast<CUresult>(envSize("OMPTARGET_FAKE_CUDA_HOST_REGISTER_ERROR", 0));
const bool NoErrorNames = envSize("OMPTARGET_FAKE_CUDA_NO_ERROR_NAMES", 0) != 0;
const size_t Capacity = envSize("OMPTARGET_FAKE_CUDA_CAPACITY", size_t(1) << 34);
const bool PoolsSupported = envSize("OMPTARGET_FAKE_CUDA_MEMORY_POOLS", 1) != 0;
// Every kernel's local memory per thread (CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES).
const size_t KernelLocalBytes = envSize("OMPTARGET_FAKE_CUDA_KERNEL_LOCAL_BYTES", 0);
const size_t LaunchLog = envSize("OMPTARGET_FAKE_CUDA_LAUNCH_LOG", 0);
const auto SetFlagsError = static_cast<CUresult>(envSize("OMPTARGET_FAKE_CUDA_SET_FLAGS_ERROR", 0));

// A device's primary context (Mutex held).
struct PrimaryContext {
  FakeContext Context;
  unsigned Flags = 0;
  unsigned FlagsAtCreation = 0;
  int Retains = 0;
  unsigned SetFlagsCalls = 0;
};
std::map<int, PrimaryContext> Primaries;  // by device, made on first use
PrimaryContext &primary(int Device) {
  auto [It, New] = Primaries.try_emplace(Device);
  if (New) {
    It->second.Context.Device = Device;
    It->second.Flags = static_cast<unsigned>(envSize("OMPTARGET_FAKE_CUDA_PRIMARY_CTX_FLAGS", 0));
    It->second.FlagsAtCreation = It->second.Flags;
    if (envSize("OMPTARGET_FAKE_CUDA_PRIMARY_CTX_ACTIVE", 0) != 0) It->second.Retains = 1;
  }
  return It->second;
}
void printContextStats() {
  std::lock_guard Lock(Mutex);
  for (const auto &[Device, P] : Primaries)
    std::fprintf(stderr,
                 "fake cuda device %d: primary context created with flags 0x%x, flags 0x%x at "
                 "exit, %u cuDevicePrimaryCtxSetFlags call(s)\n",
                 Device, P.FlagsAtCreation, P.Flags, P.SetFlagsCalls);
}
const bool ContextStats = [] {
  if (envSize("OMPTARGET_FAKE_CUDA_CTX_STATS", 0) == 0) return false;
  std::atexit(printContextStats);
  return true;
}();
const bool NoPeerAccess = envSize("OMPTARGET_FAKE_CUDA_NO_PEER_ACCESS", 0) != 0;

// Device memory (Mutex held): every live block by address, and how much of
// the capacity is taken (live cuMemAlloc blocks plus what pools hold).
struct FakePool;
struct DeviceBlock {
  size_t Size;
  FakePool *Pool;  // null: cuMemAlloc
};
std::map<uintptr_t, DeviceBlock> DeviceBlocks;
size_t CapacityUsed = 0;

struct FakePool {
  int Device;
  std::multimap<size_t, void *> Kept;  // freed blocks by size
  size_t Held = 0;                     // bytes taken from the capacity
  size_t InUse = 0;
  cuuint64_t ReleaseThreshold = 0;
  int Reuse[3] = {1, 1, 1};  // follow events, opportunistic, internal dependencies
  bool Destroyed = false;
  unsigned long long Allocations = 0, Reused = 0, Grown = 0, Trims = 0;
};
std::vector<std::unique_ptr<FakePool>> Pools;  // never freed: the handles stay valid

// Gives kept blocks of P back until it holds at most Keep bytes (Mutex held).
void releaseKept(FakePool &P, size_t Keep) {
  while (P.Held > Keep && !P.Kept.empty()) {
    auto Largest = std::prev(P.Kept.end());
    P.Held -= Largest->first;
    CapacityUsed -= Largest->first;
    std::free(Largest->second);
    P.Kept.erase(Largest);
  }
}
// The pool behind a handle, unless destroyed (Mutex held).
[[maybe_unused]] FakePool *livePool(CUmemoryPool Pool) {
  for (auto &P : Pools)
    if (reinterpret_cast<CUmemoryPool>(P.get()) == Pool) return P->Destroyed ? nullptr : P.get();
  return nullptr;
}
// A stream, event or context synchronize: pools above their threshold
// release (Mutex not held).
void releaseAboveThresholds() {
  std::lock_guard Lock(Mutex);
  for (auto &P : Pools)
    if (P->Held > P->ReleaseThreshold) releaseKept(*P, static_cast<size_t>(P->ReleaseThreshold));
}
void printPoolStats() {
  for (size_t I = 0; I < Pools.size(); ++I) {
    const FakePool &P = *Pools[I];
    std::fprintf(stderr,
                 "fake cuda pool %zu (device %d): %llu allocations, %llu reused, %llu grown, "
                 "%llu trims, %zu bytes held\n",
                 I, P.Device, P.Allocations, P.Reused, P.Grown, P.Trims, P.Held);
  }
}
const bool PoolStats = [] {
  if (envSize("OMPTARGET_FAKE_CUDA_POOL_STATS", 0) == 0) return false;
  std::atexit(printPoolStats);
  return true;
}();

// Leak accounting: streams and events live (tokens not destroyed).
std::atomic<long long> LiveStreams{0}, LiveEvents{0};
struct Resources {
  long long DeviceAllocations = 0, DeviceBytes = 0, PinnedHost = 0, HostRegistrations = 0,
            Streams = 0, Events = 0, Modules = 0, Pools = 0, ContextRetains = 0;
};
// What is live now (Mutex not held). Pool memory counts while handed out,
// not while a pool keeps it; retains made by the fake itself
// (OMPTARGET_FAKE_CUDA_PRIMARY_CTX_ACTIVE) do not count.
Resources liveResources() {
  std::lock_guard Lock(Mutex);
  Resources R;
  for (const auto &[Address, B] : DeviceBlocks) {
    ++R.DeviceAllocations;
    R.DeviceBytes += static_cast<long long>(B.Size);
  }
  for (const auto &[Address, P] : PinnedBlocks) ++(P.Registered ? R.HostRegistrations : R.PinnedHost);
  R.Streams = LiveStreams.load();
  R.Events = LiveEvents.load();
  R.Modules = static_cast<long long>(Modules.size());
  for (const auto &P : Pools) R.Pools += P->Destroyed ? 0 : 1;
  bool PreActive = envSize("OMPTARGET_FAKE_CUDA_PRIMARY_CTX_ACTIVE", 0) != 0;
  for (const auto &[Device, P] : Primaries) R.ContextRetains += P.Retains - (PreActive ? 1 : 0);
  return R;
}
// "3 device allocation(s) (3072 bytes), 1 stream(s), ..." of the non-zero
// counts of R (Sign: "+" for growths), or "nothing".
std::string describe(const Resources &R, const char *Sign) {
  std::string Text;
  auto Add = [&](long long N, const char *What) {
    if (N == 0) return;
    char Line[128];
    std::snprintf(Line, sizeof Line, "%s%s%lld %s", Text.empty() ? "" : ", ", Sign, N, What);
    Text += Line;
  };
  Add(R.DeviceAllocations, "device allocation(s)");
  Add(R.DeviceBytes, "device byte(s)");
  Add(R.PinnedHost, "pinned host allocation(s)");
  Add(R.HostRegistrations, "host registration(s)");
  Add(R.Streams, "stream(s)");
  Add(R.Events, "event(s)");
  Add(R.Modules, "module(s)");
  Add(R.Pools, "memory pool(s)");
  Add(R.ContextRetains, "primary context retain(s)");
  return Text.empty() ? "nothing" : Text;
}
bool Marked = false;
Resources AtMark;
void printLeakCheck() {
  Resources Now = liveResources();
  std::fprintf(stderr, "fake cuda resources at exit: %s\n", describe(Now, "").c_str());
  if (!Marked) return;
  std::fprintf(stderr, "fake cuda resources at the mark: %s\n", describe(AtMark, "").c_str());
  Resources Grown;
  auto Diff = [](long long N, long long Then) { return N > Then ? N - Then : 0; };
  Grown.DeviceAllocations = Diff(Now.DeviceAllocations, AtMark.DeviceAllocations);
  Grown.DeviceBytes = Diff(Now.DeviceBytes, AtMark.DeviceBytes);
  Grown.PinnedHost = Diff(Now.PinnedHost, AtMark.PinnedHost);
  Grown.HostRegistrations = Diff(Now.HostRegistrations, AtMark.HostRegistrations);
  Grown.Streams = Diff(Now.Streams, AtMark.Streams);
  Grown.Events = Diff(Now.Events, AtMark.Events);
  Grown.Modules = Diff(Now.Modules, AtMark.Modules);
  Grown.Pools = Diff(Now.Pools, AtMark.Pools);
  Grown.ContextRetains = Diff(Now.ContextRetains, AtMark.ContextRetains);
  std::string Text = describe(Grown, "+");
  if (Text == "nothing")
    std::fprintf(stderr, "fake cuda leak check: nothing leaked since the mark\n");
  else
    std::fprintf(stderr, "fake cuda leak check: LEAKED since the mark: %s\n", Text.c_str());
}
const bool LeakCheck = [] {
  if (envSize("OMPTARGET_FAKE_CUDA_LEAK_CHECK", 0) == 0) return false;
  std::atexit(printLeakCheck);
  return true;
}();

struct ErrorText {
  CUresult Code;
  const char *Name;
  const char *Text;
};
// The real driver's names and strings for the codes the fake can return.
constexpr ErrorText kErrors[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {CUDA_ERROR_DEINITIALIZED, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_ILLEGAL_INSTRUCTION, "CUDA_ERROR_ILLEGAL_INSTRUCTION", "an illegal instruction was encountered"},
    {CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
     "part or all of the requested memory range is already mapped"},
    {CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",
     "pointer does not correspond to a registered memory region"},
    {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED",
     "peer access is not supported between these two devices"},
    {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};
const ErrorText *errorText(CUresult R) {
  for (const ErrorText &E : kErrors)
    if (E.Code == R) return &E;
  return nullptr;
}

// OMPTARGET_FAKE_CUDA_FAIL: one rule per <function>:<N>[:<CUresult>].
struct FailRule {
  std::string Function;
  unsigned long long At;
  CUresult Code;
  bool FromMark;  // +N: counted from omptarget_fake_cuda_mark()
};
constexpr const char *kFailable[] = {
    "cuMemAlloc",        "cuMemAllocFromPoolAsync", "cuMemFree",          "cuMemFreeAsync",
    "cuMemAllocHost",    "cuMemHostRegister",       "cuMemcpyHtoD",       "cuMemcpyDtoH",
    "cuMemcpyHtoDAsync", "cuMemcpyDtoHAsync",       "cuMemcpyDtoDAsync",  "cuMemcpyPeerAsync",
    "cuLaunchKernel",    "cuEventCreate",           "cuEventRecord",      "cuStreamWaitEvent",
    "cuEventSynchronize", "cuStreamCreate",         "cuStreamSynchronize", "cuCtxSynchronize",
    "cuModuleLoadDataEx", "cuModuleGetFunction",    "cuModuleGetGlobal",  "cuCtxEnablePeerAccess",
    "cuDevicePrimaryCtxRetain", "cuMemPoolCreate", "cuEventElapsedTime"};
constexpr size_t kNumFailable = sizeof(kFailable) / sizeof(kFailable[0]);
// Calls so far of each failable function (indexes of kFailable).
std::atomic<unsigned long long> FailableCalls[kNumFailable];
std::vector<FailRule> parseFailRules() {
  std::vector<FailRule> Rules;
  const char *V = std::getenv("OMPTARGET_FAKE_CUDA_FAIL");
  if (!V) return Rules;
  std::string Spec(V);
  size_t Pos = 0;
  while (Pos <= Spec.size()) {
    size_t Comma = Spec.find(',', Pos);
    std::string Item = Spec.substr(Pos, Comma == std::string::npos ? std::string::npos : Comma - Pos);
    Pos = Comma == std::string::npos ? Spec.size() + 1 : Comma + 1;
    if (Item.empty()) continue;
    size_t C1 = Item.find(':');
    size_t C2 = C1 == std::string::npos ? std::string::npos : Item.find(':', C1 + 1);
    FailRule R{Item.substr(0, C1), 0, CUDA_ERROR_UNKNOWN, false};
    bool Known = false;
    for (const char *F : kFailable) Known = Known || R.Function == F;
    if (C1 != std::string::npos) {
      std::string N = Item.substr(C1 + 1, C2 == std::string::npos ? std::string::npos : C2 - C1 - 1);
      R.FromMark = !N.empty() && N[0] == '+';
      R.At = std::strtoull(N.c_str() + (R.FromMark ? 1 : 0), nullptr, 0);
    }
    if (C2 != std::string::npos)
      R.Code = static_cast<CUresult>(std::strtol(Item.substr(C2 + 1).c_str(), nullptr, 0));
    if (!Known || R.At == 0) {
      std::fprintf(stderr,
                   "fake cuda: OMPTARGET_FAKE_CUDA_FAIL: '%s' is not <function>:<N>[:<CUresult>] "
                   "with a function the fake can fail (fake_libcuda.cpp lists them) and N >= 1\n",
                   Item.c_str());
      std::_Exit(2);
    }
    Rules.push_back(R);
  }
  return Rules;
}
const std::vector<FailRule> FailRules = parseFailRules();
// Each failable function's calls at omptarget_fake_cuda_mark(), published
// by MarkTaken (+N rules wait for it).
unsigned long long CallsAtMark[kNumFailable];
std::atomic<bool> MarkTaken{false};
// Counts a call of Function (one of kFailable) and returns the CUresult it
// must fail with, or CUDA_SUCCESS.
CUresult injected(const char *Function) {
  if (FailRules.empty()) return CUDA_SUCCESS;
  size_t I = 0;
  while (I < kNumFailable && std::strcmp(kFailable[I], Function) != 0) ++I;
  if (I == kNumFailable) return CUDA_SUCCESS;
  unsigned long long Call = FailableCalls[I].fetch_add(1) + 1;
  bool Marked = MarkTaken.load(std::memory_order_acquire);
  for (const FailRule &R : FailRules) {
    if (R.Function != Function) continue;
    if (R.FromMark ? Marked && Call - CallsAtMark[I] == R.At : Call == R.At) return R.Code;
  }
  return CUDA_SUCCESS;
}
#define FAKE_CUDA_INJECT(Function)                        \
  if (CUresult Injected = injected(Function); Injected) \
  return Injected

// OMPTARGET_FAKE_CUDA_PENDING_QUERIES (see the top): per stream, the
// device-to-host copies not landed yet and the queries left before it
// completes. Guarded by PendingMutex (a leaf: never held with Mutex).
struct HeldCopy {
  void *Dst;
  std::vector<unsigned char> Bytes;
};
struct StreamWork {
  std::vector<HeldCopy> Held;
  size_t QueriesLeft = 0;
};
const size_t PendingQueries = envSize("OMPTARGET_FAKE_CUDA_PENDING_QUERIES", 0);
std::mutex PendingMutex;
std::map<CUstream, StreamWork> PendingWork;
std::atomic<unsigned long long> NotReadyAnswers{0};
const bool PrintsNotReady = [] {
  if (PendingQueries == 0) return false;
  std::atexit([] {
    std::fprintf(stderr, "fake-cuda: %llu stream queries answered not ready\n",
                 NotReadyAnswers.load());
  });
  return true;
}();
// Work issued on S (PendingMutex held): S is busy for PendingQueries queries.
StreamWork &busyStream(CUstream S) {
  StreamWork &W = PendingWork[S];
  if (W.Held.empty() && W.QueriesLeft == 0) W.QueriesLeft = PendingQueries;
  return W;
}
void landHeldCopies(StreamWork &W) {
  for (HeldCopy &C : W.Held) std::memcpy(C.Dst, C.Bytes.data(), C.Bytes.size());
  W.Held.clear();
  W.QueriesLeft = 0;
}
// S (every stream when null) completes: its held copies land.
void completeStreams(CUstream S, bool All) {
  if (PendingQueries == 0) return;
  std::lock_guard Lock(PendingMutex);
  if (All) {
    for (auto &[Stream, W] : PendingWork) landHeldCopies(W);
  } else if (auto It = PendingWork.find(S); It != PendingWork.end()) {
    landHeldCopies(It->second);
  }
}

// Stream operations fail once a kernel trapped (the error is sticky).
CUresult streamStatus() {
  return Faulted.load(std::memory_order_acquire) ? CUDA_ERROR_ILLEGAL_INSTRUCTION : CUDA_SUCCESS;
}

int numDevices() {
  const char *V = std::getenv("OMPTARGET_FAKE_CUDA_DEVICES");
  return V ? std::atoi(V) : 1;
}

// Reads the symbol table of an ELF64 cubin into the module.
bool parseCubin(const void *Image, FakeModule &M) {
  const auto *Base = static_cast<const unsigned char *>(Image);
  const auto *Header = static_cast<const Elf64_Ehdr *>(Image);
  if (std::memcmp(Header->e_ident, ELFMAG, SELFMAG) != 0 || Header->e_machine != EM_CUDA) return false;
  const auto *Sections = reinterpret_cast<const Elf64_Shdr *>(Base + Header->e_shoff);
  for (unsigned I = 0; I < Header->e_shnum; ++I) {
    if (Sections[I].sh_type != SHT_SYMTAB) continue;
    const auto *Symbols = reinterpret_cast<const Elf64_Sym *>(Base + Sections[I].sh_offset);
    const char *Names = reinterpret_cast<const char *>(Base + Sections[Sections[I].sh_link].sh_offset);
    size_t Count = Sections[I].sh_size / sizeof(Elf64_Sym);
    for (size_t S = 0; S < Count; ++S) {
      const Elf64_Sym &Sym = Symbols[S];
      std::string Name = Names + Sym.st_name;
      if (ELF64_ST_TYPE(Sym.st_info) == STT_FUNC) {
        M.Functions[Name] = std::make_unique<FakeFunction>(FakeFunction{Name});
      } else if (ELF64_ST_TYPE(Sym.st_info) == STT_OBJECT && Sym.st_shndx < Header->e_shnum) {
        const Elf64_Shdr &Home = Sections[Sym.st_shndx];
        std::vector<unsigned char> Bytes(Sym.st_size, 0);
        if (Home.sh_type != SHT_NOBITS && Sym.st_value + Sym.st_size <= Home.sh_size)
          std::memcpy(Bytes.data(), Base + Home.sh_offset + Sym.st_value, Sym.st_size);
        M.Globals[Name] = std::move(Bytes);
      }
    }
  }
  return true;
}

CUdeviceptr toDev(void *P) { return reinterpret_cast<CUdeviceptr>(P); }
void *fromDev(CUdeviceptr P) { return reinterpret_cast<void *>(P); }

}  // namespace

extern "C" {

CUresult cuInit(unsigned int) { return CUDA_SUCCESS; }
CUresult cuDriverGetVersion(int *V) {
  *V = 13000;
  return CUDA_SUCCESS;
}
CUresult cuGetErrorName(CUresult R, const char **Name) {
  if (NoErrorNames) return CUDA_ERROR_DEINITIALIZED;
  const ErrorText *E = errorText(R);
  *Name = E ? E->Name : nullptr;
  return E ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
CUresult cuGetErrorString(CUresult R, const char **Text) {
  if (NoErrorNames) return CUDA_ERROR_DEINITIALIZED;
  const ErrorText *E = errorText(R);
  *Text = E ? E->Text : nullptr;
  return E ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
CUresult cuDeviceGetCount(int *N) {
  *N = numDevices();
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *D, int Ordinal) {
  if (Ordinal < 0 || Ordinal >= numDevices()) return CUDA_ERROR_INVALID_DEVICE;
  *D = Ordinal;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char *Name, int Len, CUdevice) {
  std::strncpy(Name, "Fake CUDA device", static_cast<size_t>(Len));
  return CUDA_SUCCESS;
}
// A fixed UUID per ordinal: bytes 0..14 are 0xf0 + i, byte 15 the ordinal.
CUresult cuDeviceGetUuid(CUuuid *Uuid, CUdevice D) {
  if (D < 0 || D >= numDevices()) return CUDA_ERROR_INVALID_DEVICE;
  for (int I = 0; I < 15; ++I) Uuid->bytes[I] = static_cast<char>(0xf0 + I);
  Uuid->bytes[15] = static_cast<char>(D);
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *V, CUdevice_attribute A, CUdevice) {
  switch (A) {
#ifndef OMPTARGET_FAKE_CUDA_NO_POOLS
    case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED: *V = PoolsSupported ? 1 : 0; break;
#endif
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *V = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *V = 0; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *V = 1024; break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *V = 32; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *V = 132; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *V = 0x7fffffff; break;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: *V = 1980000; break;         // kHz, as an H200
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: *V = 3201000; break;  // kHz
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: *V = 2048; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *V = 232448; break;
    default: *V = 0; break;
  }
  return CUDA_SUCCESS;
}
CUresult cuDeviceTotalMem(size_t *Bytes, CUdevice) {
  *Bytes = Capacity;
  return CUDA_SUCCESS;
}
CUresult cuDeviceCanAccessPeer(int *Can, CUdevice, CUdevice) {
  *Can = NoPeerAccess ? 0 : 1;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *Ctx, CUdevice D) {
  if (D < 0 || D >= numDevices()) return CUDA_ERROR_INVALID_DEVICE;
  FAKE_CUDA_INJECT("cuDevicePrimaryCtxRetain");
  std::lock_guard Lock(Mutex);
  PrimaryContext &P = primary(D);
  if (P.Retains++ == 0) P.FlagsAtCreation = P.Flags;
  *Ctx = reinterpret_cast<CUcontext>(&P.Context);
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease(CUdevice D) {
  if (D < 0 || D >= numDevices()) return CUDA_ERROR_INVALID_DEVICE;
  std::lock_guard Lock(Mutex);
  PrimaryContext &P = primary(D);
  if (P.Retains == 0) return CUDA_ERROR_INVALID_CONTEXT;
  --P.Retains;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxGetState(CUdevice D, unsigned int *Flags, int *Active) {
  if (D < 0 || D >= numDevices()) return CUDA_ERROR_INVALID_DEVICE;
  if (!Flags || !Active) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard Lock(Mutex);
  PrimaryContext &P = primary(D);
  *Flags = P.Flags;
  *Active = P.Retains > 0 ? 1 : 0;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxSetFlags(CUdevice D, unsigned int Flags) {
  if (D < 0 || D >= numDevices()) return CUDA_ERROR_INVALID_DEVICE;
  if (SetFlagsError != CUDA_SUCCESS) return SetFlagsError;
  std::lock_guard Lock(Mutex);
  PrimaryContext &P = primary(D);
  ++P.SetFlagsCalls;
  P.Flags = Flags;
  return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext Ctx) {
  Current = Ctx;
  return CUDA_SUCCESS;
}
CUresult cuCtxEnablePeerAccess(CUcontext, unsigned int) {
  FAKE_CUDA_INJECT("cuCtxEnablePeerAccess");
  return CUDA_SUCCESS;
}
// Context limits: kept, not enforced (kernels do not run here).
static size_t Limits[8] = {1024, 0, 8u << 20};
CUresult cuCtxSetLimit(CUlimit Limit, size_t Value) {
  if (static_cast<unsigned>(Limit) >= 8) return CUDA_ERROR_INVALID_VALUE;
  if (Limit == CU_LIMIT_STACK_SIZE && Value > (1u << 20)) return CUDA_ERROR_INVALID_VALUE;
  Limits[Limit] = Value;
  return CUDA_SUCCESS;
}
CUresult cuCtxGetLimit(size_t *Value, CUlimit Limit) {
  if (static_cast<unsigned>(Limit) >= 8) return CUDA_ERROR_INVALID_VALUE;
  *Value = Limits[Limit];
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadDataEx(CUmodule *Module, const void *Image, unsigned int, CUjit_option *, void **) {
  FAKE_CUDA_INJECT("cuModuleLoadDataEx");
  auto M = std::make_unique<FakeModule>();
  if (!parseCubin(Image, *M)) return CUDA_ERROR_INVALID_IMAGE;
  std::lock_guard Lock(Mutex);
  *Module = reinterpret_cast<CUmodule>(M.get());
  Modules.insert(std::move(M));
  return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule Module) {
  std::lock_guard Lock(Mutex);
  for (auto It = Modules.begin(); It != Modules.end(); ++It)
    if (reinterpret_cast<CUmodule>(It->get()) == Module) {
      Modules.erase(It);
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_HANDLE;
}
CUresult cuModuleGetFunction(CUfunction *F, CUmodule Module, const char *Name) {
  FAKE_CUDA_INJECT("cuModuleGetFunction");
  auto &M = *reinterpret_cast<FakeModule *>(Module);
  auto It = M.Functions.find(Name);
  if (It == M.Functions.end()) return CUDA_ERROR_NOT_FOUND;
  *F = reinterpret_cast<CUfunction>(It->second.get());
  return CUDA_SUCCESS;
}
CUresult cuModuleGetGlobal(CUdeviceptr *Ptr, size_t *Size, CUmodule Module, const char *Name) {
  FAKE_CUDA_INJECT("cuModuleGetGlobal");
  auto &M = *reinterpret_cast<FakeModule *>(Module);
  auto It = M.Globals.find(Name);
  if (It == M.Globals.end()) return CUDA_ERROR_NOT_FOUND;
  if (Ptr) *Ptr = toDev(It->second.data());
  if (Size) *Size = It->second.size();
  return CUDA_SUCCESS;
}
CUresult cuFuncGetAttribute(int *V, CUfunction_attribute A, CUfunction) {
  *V = A == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? 1024
       : A == CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES  ? static_cast<int>(KernelLocalBytes)
                                                  : 0;
  return CUDA_SUCCESS;
}
CUresult cuFuncSetAttribute(CUfunction, CUfunction_attribute, int) { return CUDA_SUCCESS; }
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *Blocks, CUfunction, int Threads, size_t) {
  *Blocks = Threads > 0 ? 2048 / Threads : 0;
  return CUDA_SUCCESS;
}

CUresult cuMemGetInfo(size_t *Free, size_t *Total) {
  std::lock_guard Lock(Mutex);
  *Free = Capacity - CapacityUsed;
  *Total = Capacity;
  return CUDA_SUCCESS;
}
CUresult cuMemAlloc(CUdeviceptr *Ptr, size_t Size) {
  FAKE_CUDA_INJECT("cuMemAlloc");
  if (AllocError != CUDA_SUCCESS) return AllocError;
  if (Size > MemoryLimit) return CUDA_ERROR_OUT_OF_MEMORY;
  std::lock_guard Lock(Mutex);
  if (Size > Capacity - CapacityUsed) return CUDA_ERROR_OUT_OF_MEMORY;
  void *P = std::aligned_alloc(256, (Size + 255) & ~size_t(255));
  if (!P) return CUDA_ERROR_OUT_OF_MEMORY;
  DeviceBlocks[reinterpret_cast<uintptr_t>(P)] = {Size, nullptr};
  CapacityUsed += Size;
  *Ptr = toDev(P);
  return CUDA_SUCCESS;
}
// Pool memory may be freed here too (the real driver allows it, without
// waiting for anything): back into its pool.
static CUresult freeBlock(CUdeviceptr Ptr);
CUresult cuMemFree(CUdeviceptr Ptr) {
  FAKE_CUDA_INJECT("cuMemFree");
  return freeBlock(Ptr);
}
static CUresult freeBlock(CUdeviceptr Ptr) {
  std::lock_guard Lock(Mutex);
  auto It = DeviceBlocks.find(static_cast<uintptr_t>(Ptr));
  if (It == DeviceBlocks.end()) return CUDA_ERROR_INVALID_VALUE;
  DeviceBlock B = It->second;
  DeviceBlocks.erase(It);
  if (B.Pool) {
    B.Pool->InUse -= B.Size;
    if (!B.Pool->Destroyed) {
      B.Pool->Kept.emplace(B.Size, fromDev(Ptr));
      return CUDA_SUCCESS;
    }
    B.Pool->Held -= B.Size;  // a destroyed pool's last blocks go back
  }
  CapacityUsed -= B.Size;
  std::free(fromDev(Ptr));
  return CUDA_SUCCESS;
}
CUresult cuMemAllocHost(void **Ptr, size_t Size) {
  FAKE_CUDA_INJECT("cuMemAllocHost");
  void *P = std::aligned_alloc(256, (Size + 255) & ~size_t(255));
  if (!P) return CUDA_ERROR_OUT_OF_MEMORY;
  std::lock_guard Lock(Mutex);
  PinnedBlocks[reinterpret_cast<uintptr_t>(P)] = {Size == 0 ? 1 : Size, false};
  *Ptr = P;
  return CUDA_SUCCESS;
}
CUresult cuMemFreeHost(void *Ptr) {
  {
    std::lock_guard Lock(Mutex);
    auto It = PinnedBlocks.find(reinterpret_cast<uintptr_t>(Ptr));
    if (It == PinnedBlocks.end() || It->second.Registered) return CUDA_ERROR_INVALID_VALUE;
    PinnedBlocks.erase(It);
  }
  std::free(Ptr);
  return CUDA_SUCCESS;
}
// As the real driver: a range that overlaps pinned memory is refused.
CUresult cuMemHostRegister(void *P, size_t Size, unsigned int) {
  if (HostRegisterError != CUDA_SUCCESS) return HostRegisterError;
  FAKE_CUDA_INJECT("cuMemHostRegister");
  if (!P || Size == 0) return CUDA_ERROR_INVALID_VALUE;
  auto B = reinterpret_cast<uintptr_t>(P);
  std::lock_guard Lock(Mutex);
  auto It = PinnedBlocks.lower_bound(B);
  if ((It != PinnedBlocks.end() && It->first < B + Size) || pinnedAt(B) != PinnedBlocks.end())
    return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  PinnedBlocks[B] = {Size, true};
  return CUDA_SUCCESS;
}
CUresult cuMemHostUnregister(void *P) {
  std::lock_guard Lock(Mutex);
  auto It = PinnedBlocks.find(reinterpret_cast<uintptr_t>(P));
  if (It == PinnedBlocks.end() || !It->second.Registered) return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
  PinnedBlocks.erase(It);
  return CUDA_SUCCESS;
}
CUresult cuMemAllocManaged(CUdeviceptr *Ptr, size_t Size, unsigned int) { return cuMemAlloc(Ptr, Size); }
// Pinned host memory: its type, range and device address (the host address,
// as with unified addressing); anything else is pageable (INVALID_VALUE).
CUresult cuPointerGetAttribute(void *Data, CUpointer_attribute A, CUdeviceptr Ptr) {
  std::lock_guard Lock(Mutex);
  auto It = pinnedAt(static_cast<uintptr_t>(Ptr));
  if (It == PinnedBlocks.end()) return CUDA_ERROR_INVALID_VALUE;  // pageable
  switch (A) {
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: *static_cast<unsigned *>(Data) = CU_MEMORYTYPE_HOST; break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *static_cast<CUdeviceptr *>(Data) = It->first; break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: *static_cast<size_t *>(Data) = It->second.Size; break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: *static_cast<CUdeviceptr *>(Data) = Ptr; break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoD(CUdeviceptr Dst, const void *Src, size_t N) {
  FAKE_CUDA_INJECT("cuMemcpyHtoD");
  std::memcpy(fromDev(Dst), Src, N);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH(void *Dst, CUdeviceptr Src, size_t N) {
  FAKE_CUDA_INJECT("cuMemcpyDtoH");
  std::memcpy(Dst, fromDev(Src), N);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoDAsync(CUdeviceptr Dst, const void *Src, size_t N, CUstream) {
  if (CUresult R = streamStatus()) return R;
  FAKE_CUDA_INJECT("cuMemcpyHtoDAsync");
  std::memcpy(fromDev(Dst), Src, N);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoHAsync(void *Dst, CUdeviceptr Src, size_t N, CUstream S) {
  if (CUresult R = streamStatus()) return R;
  FAKE_CUDA_INJECT("cuMemcpyDtoHAsync");
  if (PendingQueries != 0 && S) {
    const auto *From = static_cast<const unsigned char *>(fromDev(Src));
    std::lock_guard Lock(PendingMutex);
    busyStream(S).Held.push_back({Dst, std::vector<unsigned char>(From, From + N)});
    return CUDA_SUCCESS;
  }
  std::memcpy(Dst, fromDev(Src), N);
  return CUDA_SUCCESS;
}
static void copyOnDevice(CUdeviceptr Dst, CUdeviceptr Src, size_t N) {
  std::memmove(fromDev(Dst), fromDev(Src), N);
}
CUresult cuMemcpyDtoDAsync(CUdeviceptr Dst, CUdeviceptr Src, size_t N, CUstream) {
  if (CUresult R = streamStatus()) return R;
  FAKE_CUDA_INJECT("cuMemcpyDtoDAsync");
  copyOnDevice(Dst, Src, N);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyPeerAsync(CUdeviceptr Dst, CUcontext, CUdeviceptr Src, CUcontext, size_t N, CUstream) {
  if (CUresult R = streamStatus()) return R;
  FAKE_CUDA_INJECT("cuMemcpyPeerAsync");
  copyOnDevice(Dst, Src, N);
  return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream *S, unsigned int) {
  FAKE_CUDA_INJECT("cuStreamCreate");
  *S = reinterpret_cast<CUstream>(new Token);  // NOLINT: a C handle, freed by cuStreamDestroy
  ++LiveStreams;
  return CUDA_SUCCESS;
}
CUresult cuStreamDestroy(CUstream S) {
  // The real driver finishes a destroyed stream's work.
  if (PendingQueries != 0) {
    std::lock_guard Lock(PendingMutex);
    if (auto It = PendingWork.find(S); It != PendingWork.end()) {
      landHeldCopies(It->second);
      PendingWork.erase(It);
    }
  }
  delete reinterpret_cast<Token *>(S);  // NOLINT: see cuStreamCreate
  --LiveStreams;
  return CUDA_SUCCESS;
}
CUresult cuStreamSynchronize(CUstream S) {
  FAKE_CUDA_INJECT("cuStreamSynchronize");
  completeStreams(S, /*All=*/!S);
  releaseAboveThresholds();
  return streamStatus();
}
CUresult cuStreamQuery(CUstream S) {
  if (PendingQueries != 0 && S) {
    std::lock_guard Lock(PendingMutex);
    if (auto It = PendingWork.find(S); It != PendingWork.end()) {
      if (It->second.QueriesLeft > 0) {
        --It->second.QueriesLeft;
        ++NotReadyAnswers;
        return CUDA_ERROR_NOT_READY;
      }
      landHeldCopies(It->second);
    }
  }
  return streamStatus();
}
CUresult cuCtxSynchronize() {
  FAKE_CUDA_INJECT("cuCtxSynchronize");
  completeStreams(nullptr, /*All=*/true);
  releaseAboveThresholds();
  return streamStatus();
}
CUresult cuStreamWaitEvent(CUstream, CUevent, unsigned int) {
  if (CUresult R = streamStatus()) return R;
  FAKE_CUDA_INJECT("cuStreamWaitEvent");
  return CUDA_SUCCESS;
}
// OMPTARGET_FAKE_CUDA_LAUNCH_LOG: one line per launch on stderr.
static void logLaunch(const FakeFunction &F, unsigned GX, unsigned GY, unsigned GZ, unsigned BX,
               unsigned BY, unsigned BZ, unsigned Shared, void **Params) {
  uint64_t Arg0 = 0;
  if (Params && Params[0]) std::memcpy(&Arg0, Params[0], sizeof(Arg0));
  std::fprintf(stderr, "fake-cuda: launch %s grid %ux%ux%u block %ux%ux%u shared %u arg0 %#llx",
               F.Name.c_str(), GX, GY, GZ, BX, BY, BZ, Shared,
               static_cast<unsigned long long>(Arg0));
  if (LaunchLog > 1 && Arg0 != 0 && Arg0 != ~uint64_t{0}) {
    struct {
      uint32_t Cnt, IterCnt;
      uint64_t Buffer;
    } Env;
    std::memcpy(&Env, reinterpret_cast<const void *>(Arg0), sizeof(Env));
    std::fprintf(stderr, " env {%u, %u, arg0%+lld}", Env.Cnt, Env.IterCnt,
                 static_cast<long long>(Env.Buffer - Arg0));
  }
  std::fputc('\n', stderr);
}
CUresult cuLaunchKernel(CUfunction F, unsigned GX, unsigned GY, unsigned GZ, unsigned BX,
                        unsigned BY, unsigned BZ, unsigned Shared, CUstream Stream, void **Params,
                        void **) {
  if (!F) return CUDA_ERROR_INVALID_HANDLE;
  if (CUresult R = streamStatus()) return R;
  FAKE_CUDA_INJECT("cuLaunchKernel");
  if (PendingQueries != 0 && Stream) {
    std::lock_guard Lock(PendingMutex);
    busyStream(Stream);
  }
  if (LaunchLog > 0) logLaunch(*reinterpret_cast<FakeFunction *>(F), GX, GY, GZ, BX, BY, BZ,
                               Shared, Params);
  // A real driver refuses a kernel whose stack exceeds a thread's 512 KiB.
  if (KernelLocalBytes > 512 * 1024) return CUDA_ERROR_INVALID_VALUE;
  // The launch itself succeeds, like a real one; the fault shows later.
  if (Launches.fetch_add(1) + 1 == TrapLaunch) Faulted.store(true, std::memory_order_release);
  return CUDA_SUCCESS;
}
// Events keep their flags and the time of their last record (streams run
// their work at once, so a record completes when it is made).
struct FakeEvent {
  unsigned Flags = 0;
  std::atomic<int64_t> RecordedNs{-1};
};
CUresult cuEventCreate(CUevent *E, unsigned int Flags) {
  FAKE_CUDA_INJECT("cuEventCreate");
  auto *Ev = new FakeEvent;  // NOLINT: a C handle, freed by cuEventDestroy
  Ev->Flags = Flags;
  *E = reinterpret_cast<CUevent>(Ev);
  ++LiveEvents;
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy(CUevent E) {
  delete reinterpret_cast<FakeEvent *>(E);  // NOLINT: see cuEventCreate
  --LiveEvents;
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent E, CUstream) {
  if (CUresult R = streamStatus()) return R;
  FAKE_CUDA_INJECT("cuEventRecord");
  if (E)
    reinterpret_cast<FakeEvent *>(E)->RecordedNs.store(
        std::chrono::duration_cast<std::chrono::nanoseconds>(
            std::chrono::steady_clock::now().time_since_epoch())
            .count());
  return CUDA_SUCCESS;
}
// The v1 symbol, which every driver exports and the plugin loads (cuda.h
// names the declaration cuEventElapsedTime_v2).
#undef cuEventElapsedTime
CUresult cuEventElapsedTime(float *Ms, CUevent Start, CUevent End) {
  FAKE_CUDA_INJECT("cuEventElapsedTime");
  auto *A = reinterpret_cast<FakeEvent *>(Start), *B = reinterpret_cast<FakeEvent *>(End);
  if (!Ms || !A || !B) return CUDA_ERROR_INVALID_HANDLE;
  if ((A->Flags | B->Flags) & CU_EVENT_DISABLE_TIMING) return CUDA_ERROR_INVALID_HANDLE;
  int64_t TA = A->RecordedNs.load(), TB = B->RecordedNs.load();
  if (TA < 0 || TB < 0) return CUDA_ERROR_INVALID_HANDLE;
  *Ms = static_cast<float>(static_cast<double>(TB - TA) / 1e6);
  return CUDA_SUCCESS;
}
CUresult cuEventSynchronize(CUevent) {
  FAKE_CUDA_INJECT("cuEventSynchronize");
  completeStreams(nullptr, /*All=*/true);
  releaseAboveThresholds();
  return streamStatus();
}

// Leak accounting (see the top): what is live now becomes the reference of
// the exit report.
// The +N rules of OMPTARGET_FAKE_CUDA_FAIL count from here too.
void omptarget_fake_cuda_mark() {
  Resources Now = liveResources();
  std::lock_guard Lock(Mutex);
  AtMark = Now;
  Marked = true;
  for (size_t I = 0; I < kNumFailable; ++I) CallsAtMark[I] = FailableCalls[I].load();
  MarkTaken.store(true, std::memory_order_release);
}

#ifndef OMPTARGET_FAKE_CUDA_NO_POOLS
// ---- The stream-ordered allocator ----
CUresult cuMemPoolCreate(CUmemoryPool *Pool, const CUmemPoolProps *Props) {
  if (!Pool || !Props || Props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
      Props->location.type != CU_MEM_LOCATION_TYPE_DEVICE || Props->location.id < 0 ||
      Props->location.id >= numDevices())
    return CUDA_ERROR_INVALID_VALUE;
  if (!PoolsSupported) return CUDA_ERROR_NOT_SUPPORTED;
  FAKE_CUDA_INJECT("cuMemPoolCreate");
  std::lock_guard Lock(Mutex);
  Pools.push_back(std::make_unique<FakePool>());
  Pools.back()->Device = Props->location.id;
  *Pool = reinterpret_cast<CUmemoryPool>(Pools.back().get());
  return CUDA_SUCCESS;
}
// Kept blocks go back at once; blocks still in use when they are freed.
CUresult cuMemPoolDestroy(CUmemoryPool Pool) {
  std::lock_guard Lock(Mutex);
  FakePool *P = livePool(Pool);
  if (!P) return CUDA_ERROR_INVALID_VALUE;
  releaseKept(*P, 0);
  P->Destroyed = true;
  return CUDA_SUCCESS;
}
CUresult cuMemPoolSetAttribute(CUmemoryPool Pool, CUmemPool_attribute Attr, void *Value) {
  std::lock_guard Lock(Mutex);
  FakePool *P = livePool(Pool);
  if (!P || !Value) return CUDA_ERROR_INVALID_VALUE;
  switch (Attr) {
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
      P->ReleaseThreshold = *static_cast<cuuint64_t *>(Value);
      break;
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
      P->Reuse[Attr - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES] = *static_cast<int *>(Value);
      break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
CUresult cuMemPoolGetAttribute(CUmemoryPool Pool, CUmemPool_attribute Attr, void *Value) {
  std::lock_guard Lock(Mutex);
  FakePool *P = livePool(Pool);
  if (!P || !Value) return CUDA_ERROR_INVALID_VALUE;
  switch (Attr) {
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: *static_cast<cuuint64_t *>(Value) = P->ReleaseThreshold; break;
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
      *static_cast<int *>(Value) = P->Reuse[Attr - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES];
      break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT: *static_cast<cuuint64_t *>(Value) = P->Held; break;
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT: *static_cast<cuuint64_t *>(Value) = P->InUse; break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
CUresult cuMemPoolTrimTo(CUmemoryPool Pool, size_t Keep) {
  std::lock_guard Lock(Mutex);
  FakePool *P = livePool(Pool);
  if (!P) return CUDA_ERROR_INVALID_VALUE;
  ++P->Trims;
  releaseKept(*P, Keep);
  return CUDA_SUCCESS;
}
CUresult cuMemPoolSetAccess(CUmemoryPool Pool, const CUmemAccessDesc *Map, size_t Count) {
  std::lock_guard Lock(Mutex);
  if (!livePool(Pool) || (Count && !Map)) return CUDA_ERROR_INVALID_VALUE;
  for (size_t I = 0; I < Count; ++I)
    if (Map[I].location.type != CU_MEM_LOCATION_TYPE_DEVICE || Map[I].location.id < 0 ||
        Map[I].location.id >= numDevices())
      return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}
CUresult cuMemAllocFromPoolAsync(CUdeviceptr *Ptr, size_t Size, CUmemoryPool Pool, CUstream) {
  if (CUresult R = streamStatus()) return R;
  if (AllocError != CUDA_SUCCESS) return AllocError;
  FAKE_CUDA_INJECT("cuMemAllocFromPoolAsync");
  if (!Ptr || Size == 0) return CUDA_ERROR_INVALID_VALUE;
  if (Size > MemoryLimit) return CUDA_ERROR_OUT_OF_MEMORY;
  std::lock_guard Lock(Mutex);
  FakePool *P = livePool(Pool);
  if (!P) return CUDA_ERROR_INVALID_VALUE;
  ++P->Allocations;
  void *Block = nullptr;
  size_t BlockSize = Size;
  if (auto It = P->Kept.lower_bound(Size); It != P->Kept.end()) {
    BlockSize = It->first;
    Block = It->second;
    P->Kept.erase(It);
    ++P->Reused;
  } else {
    if (Size > Capacity - CapacityUsed) return CUDA_ERROR_OUT_OF_MEMORY;
    Block = std::aligned_alloc(256, (Size + 255) & ~size_t(255));
    if (!Block) return CUDA_ERROR_OUT_OF_MEMORY;
    CapacityUsed += Size;
    P->Held += Size;
    ++P->Grown;
  }
  P->InUse += BlockSize;
  DeviceBlocks[reinterpret_cast<uintptr_t>(Block)] = {BlockSize, P};
  *Ptr = toDev(Block);
  return CUDA_SUCCESS;
}
// Only pool memory (the plugin must not hand cuMemAlloc blocks here).
CUresult cuMemFreeAsync(CUdeviceptr Ptr, CUstream) {
  if (CUresult R = streamStatus()) return R;
  FAKE_CUDA_INJECT("cuMemFreeAsync");
  {
    std::lock_guard Lock(Mutex);
    auto It = DeviceBlocks.find(static_cast<uintptr_t>(Ptr));
    if (It == DeviceBlocks.end() || !It->second.Pool) return CUDA_ERROR_INVALID_VALUE;
  }
  return freeBlock(Ptr);
}
#endif  // OMPTARGET_FAKE_CUDA_NO_POOLS

}  // extern "C"

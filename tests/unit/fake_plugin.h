// An in-process fake plugin for the core's unit tests, and a GoogleTest
// fixture that starts a runtime with it.
//
// "Device memory" is host memory from malloc, one buffer per allocation,
// tracked so that tests can read device contents and check that every
// allocation was freed. Fresh allocations are filled with kFillByte so that
// bytes never copied are recognizable.
//
// The fake takes the personality of one kind of real plugin (Personality):
// LLVM 14's synchronous plugins, asynchronous plugins with or without
// events, a device whose operations complete when issued (the host device's
// immediate mode), or one whose queues persist (our CUDA plugin, the host
// device's asynchronous mode). Queued work runs at the queue's synchronize.
// It logs every operation twice, in issue order and in execution order, with
// the queue it went to, so that tests can check what was ordered before what.
//
// Fault injection: failX(N) makes the Nth call of X from now on (1-based)
// return OFFLOAD_FAIL (allocation returns null). Every entry counts its calls.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include "async_info.h"
#include "data_constructs.h"
#include "plugin.h"
#include "runtime.h"

namespace fake {

constexpr uint64_t kImageMagic = 0x46414b45494d4721ULL;
constexpr unsigned char kFillByte = 0xA5;
constexpr int kNumKernels = 4;

// Which entries the fake exports and how its queues behave. Events model a
// GPU's: record marks a point in a queue, wait makes a queue's later work
// wait for the point last recorded (the wait op blocks the thread running
// that queue until the point has run), sync blocks.
enum class Personality {
  // Synchronous entries only, as LLVM 14's plugins: every operation is done
  // when it returns; no queues, no events, no completes_synchronously.
  Sync,
  // The asynchronous entries and synchronize too: work waits in the queue
  // until synchronize, which gives the queue back. No events.
  Async,
  // Async and the event entries (create/record/wait/sync/destroy).
  AsyncEvents,
  // Asynchronous entries and events, but every operation is done when it is
  // issued, on one shared queue, and completes_synchronously says so (the
  // host device in its immediate mode).
  CompletesSync,
  // AsyncEvents, and queues_persist: queues go back to a pool at
  // synchronize and stay valid; an event recorded on a pooled queue (its
  // work all done) is reached at once; records from any thread.
  PersistentQueues,
};
constexpr Personality kAllPersonalities[] = {Personality::Sync, Personality::Async,
                                             Personality::AsyncEvents, Personality::CompletesSync,
                                             Personality::PersistentQueues};
// "Sync", "AsyncEvents", ... (test names; the plugin is "fake-<lower case>").
const char *name(Personality P);
// The personality has queues whose work waits until synchronize.
constexpr bool defersWork(Personality P) {
  return P == Personality::Async || P == Personality::AsyncEvents ||
         P == Personality::PersistentQueues;
}
constexpr bool hasEvents(Personality P) {
  return P == Personality::AsyncEvents || P == Personality::CompletesSync ||
         P == Personality::PersistentQueues;
}

struct Config {
  int32_t NumDevices = 1;
  Personality Kind = Personality::Async;
  unsigned DelayUs = 0;  // sleep in every copy and launch
  // With a personality that has asynchronous entries: a direct table too
  // (direct_device), whose functions count their calls (Counters::Direct)
  // and then do what the entries do.
  bool Direct = false;
  // With Direct: direct_device answers OFFLOAD_FAIL.
  bool DirectRefused = false;
  // With a personality that has asynchronous entries: data_alloc_async and
  // data_delete_async too (the direct table has them whenever it exists).
  // An allocation on a queue becomes usable when the queue reaches it, a
  // release on a queue frees the memory when the queue reaches it; work
  // that touches memory before its allocation was reached counts as a stale
  // access, as does work that runs after the memory was freed.
  bool QueueOrderedAllocation = false;
  // With asynchronous entries: query_async answers "still running" this
  // many times for a queue with work before it runs the work (as
  // synchronize); 0: it runs it at the first query.
  unsigned QueryNotReady = 0;
};

struct Counters {
  uint64_t Alloc = 0, Delete = 0,
           AllocAsync = 0, DeleteAsync = 0,  // of Alloc and Delete: those given a queue
           Submit = 0, Retrieve = 0, Launch = 0, Synchronize = 0,
           InitDevice = 0, LoadBinary = 0, AsyncCalls = 0, AcceptDeferredRetrieves = 0,
           QueueSyncs = 0,  // synchronize calls on a queue that had work
      Direct = 0,           // calls through the direct table
      Query = 0;            // query_async calls
};

struct LaunchRecord {
  int32_t DeviceId;
  int Kernel;
  std::vector<void *> Args;  // Args[i] + Offsets[i], as a kernel receives them
  bool Teams;
  int32_t NumTeams;
  int32_t ThreadLimit;
};

// Runs (at execution time of the launch) with the kernel's arguments.
using KernelFn = std::function<void(const std::vector<void *> &Args)>;

// Host copy of the one declare-target global every test binary registers.
extern int GlobalArray[4];

// The fake's global state; reset() by the fixture before each test.
void reset(const Config &C);
std::unique_ptr<omptarget::core::Plugin> makePlugin();

void failAlloc(uint64_t N);
void failSubmit(uint64_t N);
// The Nth synchronize of a queue with work fails and its work never runs.
void failSync(uint64_t N);
void failRetrieve(uint64_t N);
void failLaunch(uint64_t N);
// The Nth release (data_delete or data_delete_async) is refused: it fails and
// the memory stays allocated.
void failDelete(uint64_t N);

Counters counters();
size_t liveAllocations();  // device buffers not freed (image globals excluded)
size_t liveQueues();
bool isDeviceBuffer(const void *P);  // start of a live allocation or of an image global
std::vector<LaunchRecord> launches();
void setKernel(int K, KernelFn Fn);
// Host region id of kernel K (what clang passes to __tgt_target).
void *region(int K);

// The operation log. Queue 0 is "no queue" (a synchronous entry); other
// queues are numbered from 1 as the fake creates them (a pooled queue keeps
// its number; the shared queue of CompletesSync is kSharedQueue).
enum class OpKind { Submit, Retrieve, Launch, Record, Wait, Delete, Alloc };
constexpr uint64_t kSharedQueue = ~uint64_t(0);
struct OpRecord {
  OpKind Kind;
  uint64_t Queue;
  const void *Device;  // Submit/Retrieve/Delete: the device address; Launch: first argument
  const void *Event;   // Record/Wait
  int Kernel;          // Launch
};
// In issue order (when the plugin call was made).
std::vector<OpRecord> issued();
// In execution order: copies once their data is there, a kernel when it
// starts, a record when its point is reached, a wait when it is satisfied,
// a delete when the memory is freed.
std::vector<OpRecord> executed();

// Events and queues. Counts survive until the next reset().
struct EventCounters {
  uint64_t Create = 0, Record = 0, Wait = 0, Sync = 0, Destroy = 0;
  uint64_t QueuesTaken =
      0;  // queues taken by a __tgt_async_info (first op on it; not the shared one)
  uint64_t WaitTimeouts = 0;  // waits whose point never ran (10 s): a missing record/sync
  // Queued copies (then skipped) and kernels that ran on device memory freed
  // (or freed and allocated again) after they were issued.
  uint64_t StaleAccesses = 0;
  // Operations on a queue given back by synchronize, with a personality
  // whose queues do not persist.
  uint64_t PooledQueueUses = 0;
};
EventCounters eventCounters();
size_t liveEvents();
// Live events when reset() last ran (TearDown resets after Runtime::stop).
size_t liveEventsAtLastReset();
void failCreateEvent(uint64_t N);
void failRecordEvent(uint64_t N);
void failWaitEvent(uint64_t N);

// Test data of the mapping tests: kPatternInts ints whose values say which
// pattern (Seed) and which element they are, so a misplaced or stale copy
// shows as a wrong value.
inline constexpr int kPatternInts = 4096;
inline constexpr int64_t kPatternBytes = kPatternInts * sizeof(int);
inline std::vector<int> pattern(int Seed) {
  std::vector<int> V(kPatternInts);
  for (int I = 0; I < kPatternInts; ++I) V[I] = Seed * 100000 + I;
  return V;
}

// Owns the argument arrays of one construct (what clang passes): (pointer,
// size, map type) per argument, base and begin the same.
struct ConstructArgs {
  std::vector<void *> Bases, Begins;
  std::vector<int64_t> Sizes, Types;
  omptarget::core::MapArgs M;
  ConstructArgs(std::initializer_list<std::tuple<void *, int64_t, int64_t>> L) {
    for (auto &[P, Size, Type] : L) {
      Bases.push_back(P);
      Begins.push_back(P);
      Sizes.push_back(Size);
      Types.push_back(Type);
    }
    M.Num = static_cast<int32_t>(Bases.size());
    M.Bases = Bases.data();
    M.Begins = Begins.data();
    M.Sizes = Sizes.data();
    M.Types = Types.data();
  }
};

// A registered binary with kNumKernels kernels and the global GlobalArray.
class Binary {
 public:
  Binary();
  __tgt_bin_desc *desc() { return &Desc_; }

 private:
  std::vector<__tgt_offload_entry> Entries_;
  __tgt_device_image Image_{};
  __tgt_bin_desc Desc_{};
};

}  // namespace fake

// Starts a runtime with the fake plugin and one registered binary; device 0
// is ready. TearDown checks that no device memory and no queue leaked.
class RuntimeTest : public ::testing::Test {
 protected:
  virtual fake::Config config() { return {}; }
  void SetUp() override;
  void TearDown() override;

  struct Arg {
    void *Base;
    void *Begin;
    int64_t Size;
    int64_t Type;
    void *Mapper = nullptr;
  };
  static Arg map(void *P, int64_t Size, int64_t Type) { return {P, P, Size, Type}; }

  // One construct each: the phase, then the construct's synchronization.
  omptarget::Status begin(std::vector<Arg> Args);
  omptarget::Status end(std::vector<Arg> Args);
  omptarget::Status update(std::vector<Arg> Args);
  omptarget::Status target(int Kernel, std::vector<Arg> Args, bool Teams = false,
                           int32_t NumTeams = 0, int32_t ThreadLimit = 0);
  // A region on Async, left unsynchronized when it queued everything (a
  // deferrable region: deferred_constructs.h).
  omptarget::Status targetDeferrable(int Kernel, std::vector<Arg> Args,
                                     omptarget::core::AsyncInfo &Async);

  struct EntryInfo {
    bool Mapped = false;
    uint64_t Dyn = 0, Hold = 0;
    void *Tgt = nullptr;  // device address of the looked-up host address
    uintptr_t HstBegin = 0, HstEnd = 0;
  };
  EntryInfo entry(const void *Hst, int64_t Size = 1);
  size_t tableSize();  // entries, not counting declare-target globals

  omptarget::core::Device *D = nullptr;
  fake::Binary Bin;
  bool CheckLeaks = true;
};

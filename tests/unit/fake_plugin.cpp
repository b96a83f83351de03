#include "fake_plugin.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <set>
#include <thread>

#include "map_ops.h"
#include "target_launch.h"

using namespace omptarget;
using namespace omptarget::core;

namespace fake {

int GlobalArray[4] = {11, 22, 33, 44};

namespace {

constexpr int32_t OK = omptarget::abi::kOffloadSuccess;
constexpr int32_t FAIL = omptarget::abi::kOffloadFail;

struct ImageMagic {
  uint64_t Magic = kImageMagic;
};
ImageMagic TheImage;
char HostRegions[kNumKernels];    // host region ids
char DeviceKernels[kNumKernels];  // device entry addresses

// A queued operation; it logs `Rec` as executed when its effect happens.
using QueuedOp = std::function<void(const OpRecord &Rec)>;

struct Queue {
  uint64_t Id = 0;
  // Ops and Idle: a persistent queue takes event records from any thread.
  std::mutex Mu;
  std::vector<std::function<void()>> Ops;
  bool Idle = false;  // in the pool: all its work has run
  unsigned NotReadyAnswers = 0;  // query_async answers since its work was queued
};

struct State {
  std::mutex Mu;
  Config Cfg;
  Counters Count;
  uint64_t FailAllocAt = 0, FailSubmitAt = 0, FailRetrieveAt = 0, FailLaunchAt = 0;
  uint64_t FailSyncAt = 0;    // Nth synchronize of a real queue: its ops never run
  uint64_t FailDeleteAt = 0;  // Nth delete (either entry): refused, the memory stays live
  uint64_t Deletes = 0;
  std::map<void *, size_t> Live;
  // Allocated on a queue that has not reached the allocation yet, and
  // released on a queue that has not reached the release yet.
  std::set<void *> NotYetAllocated, BeingReleased;
  std::vector<void *> ImageBuffers;
  std::deque<std::vector<__tgt_offload_entry>> Tables;
  std::deque<__tgt_target_table> TableHeads;
  std::vector<LaunchRecord> Launches;
  KernelFn Kernels[kNumKernels];
  size_t LiveQueues = 0;
  // Every queue made since the last reset; the free ones are the pool.
  std::vector<std::unique_ptr<Queue>> Queues;
  std::vector<Queue *> FreeQueues;
  std::vector<OpRecord> Issued, Executed;
};
State S;
// The one queue of CompletesSync (never synchronized, never given back).
Queue SharedQueue;

// Events, queue-taking and stale-copy accounting (guarded by S.Mu).
struct FakeEvent {
  uint64_t Recorded = 0, Completed = 0;
};
struct EventState {
  EventCounters Count;
  uint64_t FailCreateAt = 0, FailRecordAt = 0, FailWaitAt = 0;
  uint64_t CreateCalls = 0, RecordCalls = 0, WaitCalls = 0;
  size_t Live = 0, LiveAtLastReset = 0;
  std::map<void *, uint64_t> Serial;  // live allocation -> its serial number
  uint64_t NextSerial = 1;
  std::condition_variable Completed;  // with S.Mu
};
EventState ES;

// Which allocation [P, P+Size) lies in: its serial number (every allocation
// gets a new one, so memory freed and allocated again at the same address is
// a different allocation), kGlobalSerial for an image global, 0 for none.
// Requires S.Mu.
constexpr uint64_t kGlobalSerial = ~uint64_t(0);

uint64_t allocationOf(const void *P, int64_t Size) {
  auto *B = static_cast<const char *>(P);
  auto It = ES.Serial.upper_bound(const_cast<void *>(P));
  if (It != ES.Serial.begin()) {
    --It;
    auto *Start = static_cast<const char *>(It->first);
    auto Found = S.Live.find(It->first);
    if (Found != S.Live.end() && B >= Start &&
        B + std::max<int64_t>(Size, 1) <= Start + std::max<size_t>(Found->second, 1))
      return It->second;
  }
  for (const auto &Table : S.Tables)
    for (const __tgt_offload_entry &G : Table) {
      auto *Start = static_cast<const char *>(G.addr);
      if (G.size && B >= Start && B + Size <= Start + G.size) return kGlobalSerial;
    }
  return 0;
}

// Whether P lies in memory whose allocation its queue has not reached yet
// (never valid to touch). Requires S.Mu.
bool notYetAllocated(const void *P) {
  if (S.NotYetAllocated.empty()) return false;
  auto It = S.NotYetAllocated.upper_bound(const_cast<void *>(P));
  if (It == S.NotYetAllocated.begin()) return false;
  --It;
  auto Found = S.Live.find(*It);
  return Found != S.Live.end() &&
         static_cast<const char *>(P) <
             static_cast<const char *>(*It) + std::max<size_t>(Found->second, 1);
}

void delay() {
  unsigned Us;
  {
    std::lock_guard<std::mutex> L(S.Mu);
    Us = S.Cfg.DelayUs;
  }
  if (Us) std::this_thread::sleep_for(std::chrono::microseconds(Us));
}

// Counts a call and says whether it is the one chosen to fail.
bool countAndFail(uint64_t &Count, uint64_t FailAt) {
  ++Count;
  return FailAt != 0 && Count == FailAt;
}

void logExecuted(const OpRecord &Rec) {
  std::lock_guard<std::mutex> L(S.Mu);
  S.Executed.push_back(Rec);
}

// A queue from the pool, or a new one. Requires S.Mu.
Queue *takeQueueLocked() {
  Queue *Q;
  if (!S.FreeQueues.empty()) {
    Q = S.FreeQueues.back();
    S.FreeQueues.pop_back();
  } else {
    S.Queues.push_back(std::make_unique<Queue>());
    Q = S.Queues.back().get();
    Q->Id = S.Queues.size();
  }
  {
    std::lock_guard<std::mutex> QL(Q->Mu);
    Q->Idle = false;
  }
  ++S.LiveQueues;
  ++ES.Count.QueuesTaken;
  return Q;
}

// Issues `Op` (logged as `Rec`): runs it now without a queue (a synchronous
// entry) or on a device that completes synchronously, else queues it on
// `Async` (taking a queue on first use). An op on a pooled queue (an event
// record on an issuer's queue that has synchronized) runs at once: all the
// queue's work is done; only persistent queues may be used so.
void enqueue(__tgt_async_info *Async, OpRecord Rec, QueuedOp Op) {
  Queue *Q = nullptr;
  {
    std::lock_guard<std::mutex> L(S.Mu);
    if (!Async) {
      Rec.Queue = 0;
    } else if (S.Cfg.Kind == Personality::CompletesSync) {
      Async->Queue = &SharedQueue;
      Rec.Queue = kSharedQueue;
    } else {
      if (!Async->Queue) Async->Queue = takeQueueLocked();
      Q = static_cast<Queue *>(Async->Queue);
      Rec.Queue = Q->Id;
    }
    S.Issued.push_back(Rec);
  }
  if (Q) {
    std::unique_lock<std::mutex> QL(Q->Mu);
    if (!Q->Idle) {
      Q->Ops.push_back([Op = std::move(Op), Rec] { Op(Rec); });
      return;
    }
    QL.unlock();
    std::lock_guard<std::mutex> L(S.Mu);
    if (S.Cfg.Kind != Personality::PersistentQueues) ++ES.Count.PooledQueueUses;
  }
  Op(Rec);
}

// `Dev` is the device-side end of the copy: if its memory was freed before
// the queued copy ran, the copy is counted as stale and skipped.
QueuedOp copyOp(void *Dst, const void *Src, int64_t Size, const void *Dev) {
  uint64_t Alloc;
  {
    std::lock_guard<std::mutex> L(S.Mu);
    Alloc = allocationOf(Dev, Size);
  }
  return [=](const OpRecord &Rec) {
    delay();
    {
      std::lock_guard<std::mutex> L(S.Mu);
      if ((Alloc && allocationOf(Dev, Size) != Alloc) || notYetAllocated(Dev)) {
        ++ES.Count.StaleAccesses;
        return;
      }
    }
    std::memcpy(Dst, Src, static_cast<size_t>(Size));
    logExecuted(Rec);
  };
}

int32_t isValidBinary(__tgt_device_image *Image) {
  return Image && Image->ImageStart &&
         static_cast<ImageMagic *>(Image->ImageStart)->Magic == kImageMagic;
}
int32_t numberOfDevices() {
  std::lock_guard<std::mutex> L(S.Mu);
  return S.Cfg.NumDevices;
}
int32_t initDevice(int32_t) {
  std::lock_guard<std::mutex> L(S.Mu);
  ++S.Count.InitDevice;
  return OK;
}

// The async fake queues retrieves until synchronize anyway; it only counts.
int32_t acceptDeferredRetrieves(int32_t) {
  std::lock_guard<std::mutex> L(S.Mu);
  ++S.Count.AcceptDeferredRetrieves;
  return OK;
}

__tgt_target_table *loadBinary(int32_t, __tgt_device_image *Image) {
  std::lock_guard<std::mutex> L(S.Mu);
  ++S.Count.LoadBinary;
  std::vector<__tgt_offload_entry> Entries(Image->EntriesBegin, Image->EntriesEnd);
  for (__tgt_offload_entry &E : Entries) {
    if (E.size == 0) {
      auto K = static_cast<char *>(E.addr) - HostRegions;
      if (K < 0 || K >= kNumKernels) return nullptr;
      E.addr = &DeviceKernels[K];
    } else {
      // The image's initial value of the global.
      void *Buf = std::malloc(E.size);
      std::memcpy(Buf, E.addr, E.size);
      S.ImageBuffers.push_back(Buf);
      E.addr = Buf;
    }
  }
  S.Tables.push_back(std::move(Entries));
  auto &V = S.Tables.back();
  S.TableHeads.push_back({V.data(), V.data() + V.size()});
  return &S.TableHeads.back();
}

void *dataAlloc(int32_t, int64_t Size, void *, int32_t) {
  std::lock_guard<std::mutex> L(S.Mu);
  if (countAndFail(S.Count.Alloc, S.FailAllocAt)) return nullptr;
  void *P = std::malloc(static_cast<size_t>(Size > 0 ? Size : 1));
  std::memset(P, kFillByte, static_cast<size_t>(Size > 0 ? Size : 1));
  S.Live[P] = static_cast<size_t>(Size);
  ES.Serial[P] = ES.NextSerial++;
  return P;
}
// Frees P (live); requires S.Mu.
void freeLocked(void *P) {
  S.Live.erase(P);
  ES.Serial.erase(P);
  S.NotYetAllocated.erase(P);
  S.BeingReleased.erase(P);
  std::free(P);
}

int32_t dataDelete(int32_t, void *P) {
  std::lock_guard<std::mutex> L(S.Mu);
  ++S.Count.Delete;
  if (countAndFail(S.Deletes, S.FailDeleteAt)) return FAIL;
  auto It = S.Live.find(P);
  // A double free, a foreign pointer, or memory a queue is releasing.
  if (It == S.Live.end() || S.BeingReleased.count(P)) return FAIL;
  OpRecord Rec{OpKind::Delete, 0, P, nullptr, -1};
  S.Issued.push_back(Rec);
  S.Executed.push_back(Rec);
  freeLocked(P);
  return OK;
}

int32_t dataAllocAsync(int32_t Id, int64_t Size, void *H, int32_t K, void **Out,
                       __tgt_async_info *Async) {
  if (!Async || !Out) return FAIL;
  void *P = dataAlloc(Id, Size, H, K);
  *Out = P;
  if (!P) return FAIL;
  {
    std::lock_guard<std::mutex> L(S.Mu);
    ++S.Count.AllocAsync;
    if (S.Cfg.Kind != Personality::CompletesSync) S.NotYetAllocated.insert(P);
  }
  enqueue(Async, {OpKind::Alloc, 0, P, nullptr, -1}, [P](const OpRecord &Rec) {
    {
      std::lock_guard<std::mutex> L(S.Mu);
      S.NotYetAllocated.erase(P);
    }
    logExecuted(Rec);
  });
  return OK;
}

int32_t dataDeleteAsync(int32_t, void *P, __tgt_async_info *Async) {
  if (!Async) return FAIL;
  {
    std::lock_guard<std::mutex> L(S.Mu);
    ++S.Count.Delete;
    ++S.Count.DeleteAsync;
    if (countAndFail(S.Deletes, S.FailDeleteAt)) return FAIL;
    if (!S.Live.count(P) || S.BeingReleased.count(P)) return FAIL;
    S.BeingReleased.insert(P);
  }
  enqueue(Async, {OpKind::Delete, 0, P, nullptr, -1}, [P](const OpRecord &Rec) {
    {
      std::lock_guard<std::mutex> L(S.Mu);
      freeLocked(P);
    }
    logExecuted(Rec);
  });
  return OK;
}

int32_t submitAsync(int32_t, void *Tgt, void *Hst, int64_t Size, __tgt_async_info *Async) {
  {
    std::lock_guard<std::mutex> L(S.Mu);
    if (Async) ++S.Count.AsyncCalls;
    if (countAndFail(S.Count.Submit, S.FailSubmitAt)) return FAIL;
  }
  enqueue(Async, {OpKind::Submit, 0, Tgt, nullptr, -1}, copyOp(Tgt, Hst, Size, Tgt));
  return OK;
}
int32_t submit(int32_t Id, void *Tgt, void *Hst, int64_t Size) {
  return submitAsync(Id, Tgt, Hst, Size, nullptr);
}
int32_t retrieveAsync(int32_t, void *Hst, void *Tgt, int64_t Size, __tgt_async_info *Async) {
  {
    std::lock_guard<std::mutex> L(S.Mu);
    if (Async) ++S.Count.AsyncCalls;
    if (countAndFail(S.Count.Retrieve, S.FailRetrieveAt)) return FAIL;
  }
  enqueue(Async, {OpKind::Retrieve, 0, Tgt, nullptr, -1}, copyOp(Hst, Tgt, Size, Tgt));
  return OK;
}
int32_t retrieve(int32_t Id, void *Hst, void *Tgt, int64_t Size) {
  return retrieveAsync(Id, Hst, Tgt, Size, nullptr);
}

int32_t launch(int32_t Id, void *Entry, void **Args, ptrdiff_t *Offsets, int32_t N, bool Teams,
               int32_t NumTeams, int32_t ThreadLimit, __tgt_async_info *Async) {
  auto K = static_cast<char *>(Entry) - DeviceKernels;
  if (K < 0 || K >= kNumKernels) return FAIL;
  LaunchRecord R{Id, static_cast<int>(K), {}, Teams, NumTeams, ThreadLimit};
  for (int32_t I = 0; I < N; ++I) R.Args.push_back(static_cast<char *>(Args[I]) + Offsets[I]);
  KernelFn Fn;
  {
    std::lock_guard<std::mutex> L(S.Mu);
    if (Async) ++S.Count.AsyncCalls;
    if (countAndFail(S.Count.Launch, S.FailLaunchAt)) return FAIL;
    S.Launches.push_back(R);
    Fn = S.Kernels[K];
  }
  // The allocations the arguments point into when the kernel is launched:
  // when it runs, they must still be the same (not freed, nor reallocated).
  std::vector<uint64_t> Allocs;
  {
    std::lock_guard<std::mutex> L(S.Mu);
    for (void *A : R.Args) Allocs.push_back(allocationOf(A, 1));
  }
  OpRecord Issued{OpKind::Launch, 0, R.Args.empty() ? nullptr : R.Args[0], nullptr,
                  static_cast<int>(K)};
  enqueue(Async, Issued, [Fn, Args = R.Args, Allocs](const OpRecord &Rec) {
    auto Check = [&] {
      std::lock_guard<std::mutex> L(S.Mu);
      for (size_t I = 0; I < Args.size(); ++I) {
        if ((Allocs[I] && allocationOf(Args[I], 1) != Allocs[I]) || notYetAllocated(Args[I]))
          return false;
      }
      return true;
    };
    bool Ok = Check();
    logExecuted(Rec);
    delay();
    if (Fn) Fn(Args);
    if (!(Ok && Check())) {
      std::lock_guard<std::mutex> L(S.Mu);
      ++ES.Count.StaleAccesses;
    }
  });
  return OK;
}
int32_t runRegion(int32_t Id, void *E, void **A, ptrdiff_t *O, int32_t N) {
  return launch(Id, E, A, O, N, false, 0, 0, nullptr);
}
int32_t runTeamRegion(int32_t Id, void *E, void **A, ptrdiff_t *O, int32_t N, int32_t T, int32_t L,
                      uint64_t) {
  return launch(Id, E, A, O, N, true, T, L, nullptr);
}
int32_t runRegionAsync(int32_t Id, void *E, void **A, ptrdiff_t *O, int32_t N,
                       __tgt_async_info *Q) {
  return launch(Id, E, A, O, N, false, 0, 0, Q);
}
int32_t runTeamRegionAsync(int32_t Id, void *E, void **A, ptrdiff_t *O, int32_t N, int32_t T,
                           int32_t L, uint64_t, __tgt_async_info *Q) {
  return launch(Id, E, A, O, N, true, T, L, Q);
}

// The direct table: the device handle is the device id + 1.
int32_t directId(void *Device) {
  return static_cast<int32_t>(reinterpret_cast<intptr_t>(Device) - 1);
}
void countDirect() {
  std::lock_guard<std::mutex> L(S.Mu);
  ++S.Count.Direct;
}
int32_t directDevice(int32_t Id, uint32_t Version, __tgt_direct_device *T) {
  bool Refused;
  {
    std::lock_guard<std::mutex> L(S.Mu);
    Refused = S.Cfg.DirectRefused;
  }
  if (Refused || Version != OMPTARGET_DIRECT_DEVICE_VERSION) return FAIL;
  T->Device = reinterpret_cast<void *>(static_cast<intptr_t>(Id) + 1);
  T->data_alloc = [](void *D, int64_t Size, void *H, int32_t K, __tgt_async_info *Q) -> void * {
    countDirect();
    if (!Q) return dataAlloc(directId(D), Size, H, K);
    void *P = nullptr;
    return dataAllocAsync(directId(D), Size, H, K, &P, Q) == OK ? P : nullptr;
  };
  T->data_delete = [](void *D, void *P, __tgt_async_info *Q) {
    countDirect();
    return Q ? dataDeleteAsync(directId(D), P, Q) : dataDelete(directId(D), P);
  };
  T->data_submit_async = [](void *D, void *Tgt, void *Hst, int64_t Size, __tgt_async_info *Q) {
    countDirect();
    return submitAsync(directId(D), Tgt, Hst, Size, Q);
  };
  T->data_retrieve_async = [](void *D, void *Hst, void *Tgt, int64_t Size, __tgt_async_info *Q) {
    countDirect();
    return retrieveAsync(directId(D), Hst, Tgt, Size, Q);
  };
  T->launch_async = [](void *D, void *E, void **A, ptrdiff_t *O, int32_t N,
                       const __tgt_kernel_launch *L, __tgt_async_info *Q) {
    countDirect();
    const bool Teams = L->IsTeamRegion != 0;
    return launch(directId(D), E, A, O, N, Teams, Teams ? static_cast<int32_t>(L->NumTeams[0]) : 0,
                  Teams ? static_cast<int32_t>(L->ThreadLimit[0]) : 0, Q);
  };
  return OK;
}

int32_t synchronize(int32_t, __tgt_async_info *Async);

// query_async (Config::QueryNotReady): a queue with work answers "still
// running" that many times, then runs its work as synchronize does.
int32_t queryAsync(int32_t Id, __tgt_async_info *Async) {
  unsigned NotReady;
  {
    std::lock_guard<std::mutex> L(S.Mu);
    ++S.Count.Query;
    NotReady = S.Cfg.QueryNotReady;
  }
  if (Async && Async->Queue && Async->Queue != &SharedQueue) {
    auto *Q = static_cast<Queue *>(Async->Queue);
    std::lock_guard<std::mutex> QL(Q->Mu);
    if (!Q->Ops.empty() && Q->NotReadyAnswers < NotReady) {
      ++Q->NotReadyAnswers;
      return OK;
    }
    Q->NotReadyAnswers = 0;
  }
  return synchronize(Id, Async);
}

int32_t synchronize(int32_t, __tgt_async_info *Async) {
  {
    std::lock_guard<std::mutex> L(S.Mu);
    ++S.Count.Synchronize;
  }
  if (!Async || !Async->Queue) return OK;
  if (Async->Queue == &SharedQueue) {  // its work was done when issued
    Async->Queue = nullptr;
    return OK;
  }
  auto *Q = static_cast<Queue *>(Async->Queue);
  bool Fail;
  {
    std::lock_guard<std::mutex> L(S.Mu);
    Fail = countAndFail(S.Count.QueueSyncs, S.FailSyncAt);
  }
  // Until the queue is empty: records from other threads may arrive meanwhile.
  for (;;) {
    std::vector<std::function<void()>> Ops;
    {
      std::lock_guard<std::mutex> QL(Q->Mu);
      if (Q->Ops.empty()) {
        Q->Idle = true;
        break;
      }
      Ops.swap(Q->Ops);
    }
    if (!Fail)
      for (auto &Op : Ops) Op();
  }
  Async->Queue = nullptr;  // the queue goes back to the pool
  std::lock_guard<std::mutex> L(S.Mu);
  --S.LiveQueues;
  S.FreeQueues.push_back(Q);
  return Fail ? FAIL : OK;
}

int32_t createEvent(int32_t, void **Event) {
  std::lock_guard<std::mutex> L(S.Mu);
  if (countAndFail(ES.CreateCalls, ES.FailCreateAt)) return FAIL;
  ++ES.Count.Create;
  ++ES.Live;
  *Event = new FakeEvent;
  return OK;
}
int32_t recordEvent(int32_t, void *Event, __tgt_async_info *Async) {
  auto *E = static_cast<FakeEvent *>(Event);
  uint64_t Point;
  {
    std::lock_guard<std::mutex> L(S.Mu);
    if (countAndFail(ES.RecordCalls, ES.FailRecordAt)) return FAIL;
    ++ES.Count.Record;
    Point = ++E->Recorded;
  }
  enqueue(Async, {OpKind::Record, 0, nullptr, E, -1}, [E, Point](const OpRecord &Rec) {
    std::lock_guard<std::mutex> L(S.Mu);
    E->Completed = std::max(E->Completed, Point);
    S.Executed.push_back(Rec);
    ES.Completed.notify_all();
  });
  return OK;
}
// Blocks until `Point` of E has run (false after 10 s); requires S.Mu.
bool waitForPoint(std::unique_lock<std::mutex> &L, FakeEvent *E, uint64_t Point) {
  if (ES.Completed.wait_for(L, std::chrono::seconds(10), [&] { return E->Completed >= Point; }))
    return true;
  ++ES.Count.WaitTimeouts;
  return false;
}
int32_t waitEvent(int32_t, void *Event, __tgt_async_info *Async) {
  auto *E = static_cast<FakeEvent *>(Event);
  uint64_t Point;
  {
    std::lock_guard<std::mutex> L(S.Mu);
    if (countAndFail(ES.WaitCalls, ES.FailWaitAt)) return FAIL;
    ++ES.Count.Wait;
    Point = E->Recorded;
  }
  enqueue(Async, {OpKind::Wait, 0, nullptr, E, -1}, [E, Point](const OpRecord &Rec) {
    std::unique_lock<std::mutex> L(S.Mu);
    if (waitForPoint(L, E, Point)) S.Executed.push_back(Rec);
  });
  return OK;
}
int32_t syncEvent(int32_t, void *Event) {
  auto *E = static_cast<FakeEvent *>(Event);
  std::unique_lock<std::mutex> L(S.Mu);
  ++ES.Count.Sync;
  return waitForPoint(L, E, E->Recorded) ? OK : FAIL;
}
int32_t destroyEvent(int32_t, void *Event) {
  std::lock_guard<std::mutex> L(S.Mu);
  ++ES.Count.Destroy;
  --ES.Live;
  delete static_cast<FakeEvent *>(Event);
  return OK;
}

}  // namespace

void reset(const Config &C) {
  std::lock_guard<std::mutex> L(S.Mu);
  ES.LiveAtLastReset = ES.Live;  // (leaked events are not freed: their memory is the leak)
  ES.Live = 0;
  ES.Count = {};
  ES.FailCreateAt = ES.FailRecordAt = ES.FailWaitAt = 0;
  ES.CreateCalls = ES.RecordCalls = ES.WaitCalls = 0;
  ES.Serial.clear();
  for (auto &[P, Size] : S.Live) std::free(P);
  for (void *P : S.ImageBuffers) std::free(P);
  S.Live.clear();
  S.NotYetAllocated.clear();
  S.BeingReleased.clear();
  S.ImageBuffers.clear();
  S.Tables.clear();
  S.TableHeads.clear();
  S.Launches.clear();
  for (auto &K : S.Kernels) K = nullptr;
  S.Cfg = C;
  S.Count = {};
  S.FailAllocAt = S.FailSubmitAt = S.FailRetrieveAt = S.FailLaunchAt = S.FailSyncAt = 0;
  S.FailDeleteAt = S.Deletes = 0;
  S.LiveQueues = 0;
  S.FreeQueues.clear();
  S.Queues.clear();
  S.Issued.clear();
  S.Executed.clear();
}

std::unique_ptr<Plugin> makePlugin() {
  PluginFunctions F;
  F.is_valid_binary = isValidBinary;
  F.number_of_devices = numberOfDevices;
  F.init_device = initDevice;
  F.load_binary = loadBinary;
  F.data_alloc = dataAlloc;
  F.data_submit = submit;
  F.data_retrieve = retrieve;
  F.data_delete = dataDelete;
  F.run_target_region = runRegion;
  F.run_target_team_region = runTeamRegion;
  Personality Kind;
  bool Direct;
  {
    std::lock_guard<std::mutex> L(S.Mu);
    Kind = S.Cfg.Kind;
    Direct = S.Cfg.Direct;
  }
  bool Async = Kind != Personality::Sync;
  if (Async && Direct) F.direct_device = directDevice;
  if (hasEvents(Kind)) {
    F.create_event = createEvent;
    F.record_event = recordEvent;
    F.wait_event = waitEvent;
    F.sync_event = syncEvent;
    F.destroy_event = destroyEvent;
  }
  if (Async) {
    F.data_submit_async = submitAsync;
    F.data_retrieve_async = retrieveAsync;
    F.run_target_region_async = runRegionAsync;
    F.run_target_team_region_async = runTeamRegionAsync;
    F.synchronize = synchronize;
    F.query_async = queryAsync;
    F.accept_deferred_retrieves = acceptDeferredRetrieves;
    bool Ordered;
    {
      std::lock_guard<std::mutex> L(S.Mu);
      Ordered = S.Cfg.QueueOrderedAllocation;
    }
    if (Ordered) {
      F.data_alloc_async = dataAllocAsync;
      F.data_delete_async = dataDeleteAsync;
    }
  }
  if (Kind == Personality::CompletesSync)
    F.completes_synchronously = [](int32_t) -> int32_t { return 1; };
  if (Kind == Personality::PersistentQueues)
    F.queues_persist = [](int32_t) -> int32_t { return 1; };
  std::string Name = std::string("fake-") + name(Kind);
  for (char &C : Name) C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return Plugin::fromFunctions(Name, F);
}

const char *name(Personality P) {
  switch (P) {
    case Personality::Sync: return "Sync";
    case Personality::Async: return "Async";
    case Personality::AsyncEvents: return "AsyncEvents";
    case Personality::CompletesSync: return "CompletesSync";
    case Personality::PersistentQueues: return "PersistentQueues";
  }
  return "?";
}

std::vector<OpRecord> issued() {
  std::lock_guard<std::mutex> L(S.Mu);
  return S.Issued;
}
std::vector<OpRecord> executed() {
  std::lock_guard<std::mutex> L(S.Mu);
  return S.Executed;
}

EventCounters eventCounters() {
  std::lock_guard<std::mutex> L(S.Mu);
  return ES.Count;
}
size_t liveEvents() {
  std::lock_guard<std::mutex> L(S.Mu);
  return ES.Live;
}
size_t liveEventsAtLastReset() {
  std::lock_guard<std::mutex> L(S.Mu);
  return ES.LiveAtLastReset;
}
void failCreateEvent(uint64_t N) {
  std::lock_guard<std::mutex> L(S.Mu);
  ES.FailCreateAt = N ? ES.CreateCalls + N : 0;
}
void failRecordEvent(uint64_t N) {
  std::lock_guard<std::mutex> L(S.Mu);
  ES.FailRecordAt = N ? ES.RecordCalls + N : 0;
}
void failWaitEvent(uint64_t N) {
  std::lock_guard<std::mutex> L(S.Mu);
  ES.FailWaitAt = N ? ES.WaitCalls + N : 0;
}

void failAlloc(uint64_t N) {
  std::lock_guard<std::mutex> L(S.Mu);
  S.FailAllocAt = N ? S.Count.Alloc + N : 0;
}
void failSubmit(uint64_t N) {
  std::lock_guard<std::mutex> L(S.Mu);
  S.FailSubmitAt = N ? S.Count.Submit + N : 0;
}
void failSync(uint64_t N) {
  std::lock_guard<std::mutex> L(S.Mu);
  S.FailSyncAt = N ? S.Count.QueueSyncs + N : 0;
}
void failDelete(uint64_t N) {
  std::lock_guard<std::mutex> L(S.Mu);
  S.FailDeleteAt = N ? S.Deletes + N : 0;
}
void failRetrieve(uint64_t N) {
  std::lock_guard<std::mutex> L(S.Mu);
  S.FailRetrieveAt = N ? S.Count.Retrieve + N : 0;
}
void failLaunch(uint64_t N) {
  std::lock_guard<std::mutex> L(S.Mu);
  S.FailLaunchAt = N ? S.Count.Launch + N : 0;
}

Counters counters() {
  std::lock_guard<std::mutex> L(S.Mu);
  return S.Count;
}
size_t liveAllocations() {
  std::lock_guard<std::mutex> L(S.Mu);
  return S.Live.size();
}
size_t liveQueues() {
  std::lock_guard<std::mutex> L(S.Mu);
  return S.LiveQueues;
}
bool isDeviceBuffer(const void *P) {
  std::lock_guard<std::mutex> L(S.Mu);
  if (S.Live.count(const_cast<void *>(P))) return true;
  for (void *B : S.ImageBuffers)
    if (B == P) return true;
  return false;
}
std::vector<LaunchRecord> launches() {
  std::lock_guard<std::mutex> L(S.Mu);
  return S.Launches;
}
void setKernel(int K, KernelFn Fn) {
  std::lock_guard<std::mutex> L(S.Mu);
  S.Kernels[K] = std::move(Fn);
}
void *region(int K) { return &HostRegions[K]; }

Binary::Binary() {
  static const char *Names[] = {"kernel0", "kernel1", "kernel2", "kernel3"};
  static_assert(kNumKernels == 4);
  for (int K = 0; K < kNumKernels; ++K)
    Entries_.push_back({region(K), const_cast<char *>(Names[K]), 0, 0, 0});
  Entries_.push_back({GlobalArray, const_cast<char *>("GlobalArray"), sizeof(GlobalArray), 0, 0});
  Image_ = {&TheImage, &TheImage + 1, Entries_.data(), Entries_.data() + Entries_.size()};
  Desc_ = {1, &Image_, Entries_.data(), Entries_.data() + Entries_.size()};
}

}  // namespace fake

// ---------------------------------------------------------------------------

void RuntimeTest::SetUp() {
  fake::reset(config());
  Runtime::start();
  Runtime::get().devices().addPlugin(fake::makePlugin());
  Runtime::get().registerLib(Bin.desc());
  auto Dev = Runtime::get().readyDevice(0, "test");
  ASSERT_TRUE(static_cast<bool>(Dev)) << Dev.error().message();
  D = *Dev;
}

void RuntimeTest::TearDown() {
  if (CheckLeaks) {
    EXPECT_EQ(fake::liveAllocations(), 0u) << "device memory leaked";
  }
  EXPECT_EQ(fake::liveQueues(), 0u) << "a queue was never synchronized";
  EXPECT_EQ(fake::eventCounters().PooledQueueUses, 0u)
      << "the core used a queue after giving it back, though queues do not persist";
  Runtime::stop();
  fake::reset(fake::Config());
}

#define OMPT_BUILD_ARGS(Args)                 \
  std::vector<void *> Bases, Begins, Mappers; \
  std::vector<int64_t> Sizes, Types;          \
  bool AnyMapper = false;                     \
  for (const Arg &X : Args) {                 \
    Bases.push_back(X.Base);                  \
    Begins.push_back(X.Begin);                \
    Sizes.push_back(X.Size);                  \
    Types.push_back(X.Type);                  \
    Mappers.push_back(X.Mapper);              \
    AnyMapper |= X.Mapper != nullptr;         \
  }                                           \
  MapArgs A;                                  \
  A.Num = static_cast<int32_t>(Args.size());  \
  A.Bases = Bases.data();                     \
  A.Begins = Begins.data();                   \
  A.Sizes = Sizes.data();                     \
  A.Types = Types.data();                     \
  A.Mappers = AnyMapper ? Mappers.data() : nullptr;

Status RuntimeTest::begin(std::vector<Arg> Args) {
  OMPT_BUILD_ARGS(Args)
  return runDataConstruct(*D, DataConstruct::Begin, A);
}
Status RuntimeTest::end(std::vector<Arg> Args) {
  OMPT_BUILD_ARGS(Args)
  return runDataConstruct(*D, DataConstruct::End, A);
}
Status RuntimeTest::update(std::vector<Arg> Args) {
  OMPT_BUILD_ARGS(Args)
  return runDataConstruct(*D, DataConstruct::Update, A);
}
Status RuntimeTest::target(int Kernel, std::vector<Arg> Args, bool Teams, int32_t NumTeams,
                           int32_t ThreadLimit) {
  OMPT_BUILD_ARGS(Args)
  LaunchParams L;
  L.HostRegion = fake::region(Kernel);
  L.Kernel = clang14Launch(Teams, NumTeams, ThreadLimit, 0);
  return runTargetRegion(nullptr, *D, A, L);
}

Status RuntimeTest::targetDeferrable(int Kernel, std::vector<Arg> Args, AsyncInfo &Async) {
  OMPT_BUILD_ARGS(Args)
  LaunchParams L;
  L.HostRegion = fake::region(Kernel);
  return runTargetRegion(nullptr, *D, A, L, &Async);
}

RuntimeTest::EntryInfo RuntimeTest::entry(const void *Hst, int64_t Size) {
  EntryInfo I;
  ScopedLock L(D->mappings().Mutex);
  LookupResult R = D->mappings().lookup(reinterpret_cast<uintptr_t>(Hst), Size);
  if (!R.IsContained) return I;
  I.Mapped = true;
  I.Dyn = R.Entry->DynRef;
  I.Hold = R.Entry->HoldRef;
  I.HstBegin = R.Entry->HstBegin;
  I.HstEnd = R.Entry->HstEnd;
  I.Tgt = reinterpret_cast<void *>(R.Entry->TgtBegin +
                                   (reinterpret_cast<uintptr_t>(Hst) - R.Entry->HstBegin));
  return I;
}

size_t RuntimeTest::tableSize() {
  ScopedLock L(D->mappings().Mutex);
  size_t N = 0;
  D->mappings().forEach([&](const MapEntry &E) { N += E.DynRef != kInfiniteRef; });
  return N;
}

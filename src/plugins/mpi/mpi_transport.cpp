// MpiTransport: the Transport of mpi_transport.h on Open MPI (or any MPI
// with MPI_THREAD_MULTIPLE). Built into libomptarget.mpi_transport.so and
// into the device server; the only file of the plugin that calls MPI.
//
// Locks: CounterMutex_ (a std::mutex) guards NextTag_ and NextRequestId_;
// a PostedState's Mutex_ guards its MPI requests (MPI forbids two threads
// on one request): the waiting thread holds it, the progress thread only
// tries it. Neither lock is held while taking the other. Everything else
// is written once by the constructor, before the object is shared. Waiting polls MPI_Test, spinning
// for a round trip (or for the bytes' time), then yielding the core between polls, then sleeping
// once the wait is long (Backoff below, with its measurement).
#include "mpi_transport.h"

#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

#include "mpi_protocol.h"
#include "progress_engine.h"

namespace omptarget::mpi {

namespace {

std::string mpiErrorText(int Code) {
  char Text[MPI_MAX_ERROR_STRING];
  int Length = 0;
  if (MPI_Error_string(Code, Text, &Length) != MPI_SUCCESS)
    return formatString("MPI error %d", Code);
  return std::string(Text, static_cast<size_t>(Length));
}

const char *threadLevelName(int Level) {
  switch (Level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return "an unknown thread level";
  }
}

class Deadline {
 public:
  explicit Deadline(int TimeoutMs)
      : Forever_(TimeoutMs < 0),
        At_(std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max(TimeoutMs, 0))) {}
  bool passed() const { return !Forever_ && std::chrono::steady_clock::now() >= At_; }

 private:
  bool Forever_;
  std::chrono::steady_clock::time_point At_;
};

// Between two polls of one wait: nothing for its first kSpinWindow (a
// reply within a round trip is taken at once), then until kYieldWindow a
// sched_yield (the core goes to any other runnable thread, the peer's rank
// among them, and the poll comes back within microseconds), then sleeps of
// kIdleSleep, so that a server idle between requests, or a long wait, does
// not keep a core. Measured with bench/mpi/run_mpi_bench.sh on a 2-core VM: sleeping
// 20 us after 200 polls (the first version) made an empty remote region
// 513 us (a 20 us nanosleep takes about 100 us there: timer slack and
// wake-up) and copies of 1 MiB and more 0.6-0.9 GB/s, because Open MPI
// moves a large message in 32 KiB pieces, each waiting for the receiver to
// poll again. The spin: a sched_yield is a system call of 1.2-1.3 us on
// that VM (idle, 10^6 calls), so yielding from the first poll made an empty region 9.8 us
// (a reply often arrived during the call); spinning 5 / 20 / 100 us first
// made it 7.0 / 5.7 / 5.8-7.0, and spinning only 5.75 (MPI_BENCH_REGIONS=
// 20000, bench/mpi/mpi_offload_bench.c, docs/benchmarks.md). A wait for
// bulk bytes spins as long as they take at 10 GB/s (one 8 MiB chunk: 0.8
// ms), since every 32 KiB piece needs a poll: 1 MiB copies went from
// 15.4-16.9 to 19.8-21.2 GB/s (0.70-0.74 -> 0.88-0.93 of MPI's; 7
// alternating runs). Only where the node has a CPU for each of its ranks
// (Open MPI's own waits also yield when it is oversubscribed): there a
// long spin can keep the peer it waits for off a CPU. With three ranks on
// two CPUs (the benchmark's copies between two servers) the figures were
// too noisy to tell (2.4-11.8 GB/s, either way).
class Backoff {
 public:
  static constexpr auto kSpinWindow = std::chrono::microseconds(20);
  static constexpr uint64_t kSpinBytesPerUs = 10000;  // 10 GB/s
  static constexpr auto kYieldWindow = std::chrono::milliseconds(50);
  static constexpr auto kIdleSleep = std::chrono::microseconds(50);

  // Bytes: what the wait moves; the spin lasts as long as moving them at
  // kSpinBytesPerUs would, and at least kSpinWindow. The transport passes
  // 0 (kSpinWindow only) where its node has fewer CPUs than ranks.
  explicit Backoff(size_t Bytes = 0)
      : Spin_(std::max<std::chrono::microseconds>(kSpinWindow, std::chrono::microseconds(
                                                                   Bytes / kSpinBytesPerUs))) {}

  void pause() {
    const auto Waited = std::chrono::steady_clock::now() - Start_;
    if (Waited < Spin_) return;
    if (Waited < kYieldWindow) {
      sched_yield();
      return;
    }
    std::this_thread::sleep_for(kIdleSleep);
  }

 private:
  const std::chrono::microseconds Spin_;
  const std::chrono::steady_clock::time_point Start_ = std::chrono::steady_clock::now();
};

class MpiTransport final : public Transport {
 public:
  MpiTransport(MPI_Comm Comm, bool OwnsMpi, int Rank, int Size, std::string Host, uint32_t TagUb,
               bool CorePerRank, std::unique_ptr<ProgressEngine> Engine)
      : Engine_(std::move(Engine)),
        Comm_(Comm),
        OwnsMpi_(OwnsMpi),
        Rank_(Rank),
        Size_(Size),
        Host_(std::move(Host)),
        TagUb_(TagUb),
        CorePerRank_(CorePerRank) {}

  int rank() const override { return Rank_; }
  int size() const override { return Size_; }
  const std::string &hostName() const override { return Host_; }

  uint32_t newTag() override {
    std::lock_guard<std::mutex> Lock(CounterMutex_);
    if (NextTag_ > TagUb_ || NextTag_ < kFirstReplyTag) NextTag_ = kFirstReplyTag;
    return NextTag_++;
  }
  uint64_t newRequestId() override {
    std::lock_guard<std::mutex> Lock(CounterMutex_);
    return NextRequestId_++;
  }

  Status send(int Rank, int Tag, std::span<const std::byte> Bytes, int TimeoutMs,
              Failure *F) override {
    if (Closed_.load(std::memory_order_acquire)) return closedError();
    if (Bytes.size() > static_cast<size_t>(INT32_MAX))
      return makeError("a message of %zu bytes is larger than one MPI message", Bytes.size());
    MPI_Request R;
    int Rc =
        MPI_Isend(Bytes.data(), static_cast<int>(Bytes.size()), MPI_BYTE, Rank, Tag, Comm_, &R);
    if (Rc != MPI_SUCCESS) return makeError("MPI_Isend: %s", mpiErrorText(Rc).c_str());
    return wait(R, nullptr, TimeoutMs, F, /*IsSend=*/true, Bytes.size());
  }

  Expected<Received> receive(int Rank, int Tag, size_t MaxBytes, int TimeoutMs,
                             Failure *F) override {
    if (Closed_.load(std::memory_order_acquire)) return closedError();
    const int Source = Rank < 0 ? MPI_ANY_SOURCE : Rank;
    Deadline D(TimeoutMs);
    Backoff B;
    MPI_Message Message;
    MPI_Status St;
    for (;;) {
      int Found = 0;
      int Rc = MPI_Improbe(Source, Tag, Comm_, &Found, &Message, &St);
      if (Rc != MPI_SUCCESS) return makeError("MPI_Improbe: %s", mpiErrorText(Rc).c_str());
      if (Found) break;
      if (D.passed()) {
        if (F) F->TimedOut = true;
        return makeError("no message within %d ms", TimeoutMs);
      }
      B.pause();
    }
    int Count = 0;
    MPI_Get_count(&St, MPI_BYTE, &Count);
    Received Out;
    Out.Source = St.MPI_SOURCE;
    const bool TooLong = Count < 0 || static_cast<size_t>(Count) > MaxBytes;
    // A message too long is still taken (into nothing: MPI truncates it),
    // so that it does not stay queued.
    Out.Bytes.resize(TooLong ? 0 : static_cast<size_t>(Count));
    MPI_Request R;
    int Rc =
        MPI_Imrecv(Out.Bytes.data(), static_cast<int>(Out.Bytes.size()), MPI_BYTE, &Message, &R);
    if (Rc != MPI_SUCCESS) return makeError("MPI_Imrecv: %s", mpiErrorText(Rc).c_str());
    Status S = wait(R, nullptr, TimeoutMs, F, false, Out.Bytes.size());
    if (TooLong)
      return makeError("a message of %d bytes from rank %d, longer than the %zu expected", Count,
                       Out.Source, MaxBytes);
    if (!S) return S.takeError();
    return Out;
  }

  bool hasMessage(int Rank, int Tag) override {
    if (Closed_.load(std::memory_order_acquire)) return false;
    int Found = 0;
    return MPI_Iprobe(Rank, Tag, Comm_, &Found, MPI_STATUS_IGNORE) == MPI_SUCCESS && Found;
  }
  Expected<std::unique_ptr<PostedTransfer>> postSendData(int Rank, int Tag,
                                                         std::span<const std::byte> Bytes,
                                                         bool Background) override;
  Expected<std::unique_ptr<PostedTransfer>> postReceiveData(int Rank, int Tag,
                                                            std::span<std::byte> Into,
                                                            bool Background) override;

  void close(bool Finalize) override {
    Closed_.store(true, std::memory_order_release);
    Engine_->stop();
    int Finalized = 0;
    MPI_Finalized(&Finalized);
    if (Finalized) return;
    MPI_Comm_free(&Comm_);
    if (OwnsMpi_ && Finalize) MPI_Finalize();
  }

 private:
  // A call after close(): MPI may be finalized, and MPI aborts the process
  // on any call after MPI_Finalize (a global destructor that offloads
  // after the plugin's exit handler ran). A call already inside MPI when
  // close() runs is not stopped: close() runs at exit only.
  static Error closedError() {
    return makeError("the MPI connection was closed at program exit; nothing was sent");
  }

  // Cancel false: a wait past its deadline leaves R as it is (F->TimedOut
  // set), for the caller to wait again.
  Status wait(MPI_Request &R, MPI_Status *St, int TimeoutMs, Failure *F, bool IsSend, size_t Bytes,
              bool Cancel = true) {
    Deadline D(TimeoutMs);
    Backoff B(CorePerRank_ ? Bytes : 0);
    for (;;) {
      int Done = 0;
      MPI_Status Local;
      int Rc = MPI_Test(&R, &Done, St ? St : &Local);
      if (Rc != MPI_SUCCESS) return makeError("MPI_Test: %s", mpiErrorText(Rc).c_str());
      if (Done) return {};
      if (D.passed() && !Cancel) {
        if (F) F->TimedOut = true;
        return makeError("no answer within %d ms", TimeoutMs);
      }
      if (D.passed()) {
        // A receive that matched nothing is cancelled for good; a send may
        // not be cancellable, and is left to complete (its buffer is the
        // caller's, which a timed-out peer is never sent to again).
        MPI_Cancel(&R);
        if (IsSend)
          MPI_Request_free(&R);
        else
          MPI_Wait(&R, MPI_STATUS_IGNORE);
        if (F) F->TimedOut = true;
        return makeError("no answer within %d ms", TimeoutMs);
      }
      B.pause();
    }
  }

  friend class PostedState;
  Expected<std::unique_ptr<PostedTransfer>> postData(int Rank, int Tag, std::byte *Data,
                                                     size_t Bytes, bool IsSend, bool Background);

  const std::unique_ptr<ProgressEngine> Engine_;  // stopped by close()
  MPI_Comm Comm_;
  std::atomic<bool> Closed_{false};
  const bool OwnsMpi_;
  const int Rank_;
  const int Size_;
  const std::string Host_;
  const uint32_t TagUb_;
  const bool CorePerRank_;  // this node has a CPU for each of its ranks
  std::mutex CounterMutex_;
  uint32_t NextTag_ = kFirstReplyTag;  // guarded by CounterMutex_
  uint64_t NextRequestId_ = 1;         // guarded by CounterMutex_
};

// The requests of one posted transfer: one per chunk, completed in order
// (MPI matches one sender's messages on a tag in the order they were
// sent), at most kChunksInFlight posted at a time: the next is posted as
// one completes, by whichever thread tests them. Measured on the 2-core
// VM (bench/mpi/run_mpi_bench.sh, 4 alternating runs against the
// transport that posted one chunk after another): all 32 chunks of a
// 256 MiB copy posted at once made it 10-14% slower (best 13.2-13.4
// against 15.0-15.6 GB/s), while copies between two servers of 16 MiB
// (2 chunks, both at once) went from 9.5-11.9 to 13.4-14.8 GB/s. Mutex_
// is held by whoever tests or cancels them, so that no two threads use one
// request at once (MPI forbids it): the waiting thread (wait, cancel) or
// the progress thread (tryProgress, which only tries).
class PostedState final : public Progressable {
 public:
  static constexpr size_t kChunksInFlight = 2;

  PostedState(MpiTransport &T, bool IsSend) : T_(T), IsSend_(IsSend) {}

  Status post(int Rank, int Tag, std::byte *Data, size_t Bytes) {
    std::lock_guard<std::mutex> Lock(Mutex_);
    Rank_ = Rank;
    Tag_ = Tag;
    Data_ = Data;
    Total_ = Bytes;
    for (size_t Off = 0; Off < Bytes; Off += kMaxChunkBytes)
      Chunks_.push_back(std::min<size_t>(kMaxChunkBytes, Bytes - Off));
    Requests_.assign(Chunks_.size(), MPI_REQUEST_NULL);
    Counts_.assign(Chunks_.size(), -1);
    return postMore();
  }

  bool done() {
    std::unique_lock<std::mutex> Lock(Mutex_, std::try_to_lock);
    if (!Lock.owns_lock() || T_.Closed_.load(std::memory_order_acquire)) return false;
    return testLocked();
  }

  bool tryProgress() override {
    // A thread waits for it (or dropped it): that thread moves it from now
    // on, and polling beside it only takes a CPU from the ranks (with a
    // waiter spinning, 256 MiB copies on 2 cores went from 13-15 to 9
    // GB/s).
    if (Waited_.load(std::memory_order_acquire)) return true;
    std::unique_lock<std::mutex> Lock(Mutex_, std::try_to_lock);
    if (!Lock.owns_lock()) return false;
    if (T_.Closed_.load(std::memory_order_acquire)) return true;
    // An error or a short chunk is left for wait(), which reports it.
    return testLocked() || Failed_;
  }

  Status wait(int TimeoutMs, Failure *F, bool Cancel) {
    Waited_.store(true, std::memory_order_release);
    std::lock_guard<std::mutex> Lock(Mutex_);
    if (T_.Closed_.load(std::memory_order_acquire)) return MpiTransport::closedError();
    for (;;) {
      // A short chunk (a sender that failed sends an empty one and stops):
      // nothing more comes, so the rest is cancelled, not waited for.
      if (Status S = shortChunk(); !S) {
        cancelLocked();
        return S;
      }
      if (Status S = postMore(); !S) return S;
      // A post that failed earlier (in the progress thread's pass).
      if (!PostError_.empty()) return makeError("%s", PostError_.c_str());
      if (Next_ == Requests_.size()) return {};
      const size_t Off = Next_ * size_t{kMaxChunkBytes};
      MPI_Status St;
      if (Status S = T_.wait(Requests_[Next_], &St, TimeoutMs, F, IsSend_, Chunks_[Next_], Cancel);
          !S) {
        if (!Cancel && F && F->TimedOut) return S;  // still posted, to be waited for again
        ++Next_;                                    // wait() cancelled and completed (or freed) it
        cancelLocked();
        return makeError("chunk at byte %zu of %zu: %s", Off, Total_, S.error().message().c_str());
      }
      record(St);
    }
  }

  // What did not move is cancelled (never after close(): MPI may be
  // finalized). A send may not be cancellable: it is freed and left to
  // complete (its buffer is the caller's, which a timed-out peer is never
  // sent to again).
  void cancel() {
    Waited_.store(true, std::memory_order_release);
    std::lock_guard<std::mutex> Lock(Mutex_);
    cancelLocked();
  }

 private:
  void cancelLocked() {
    Stopped_ = true;  // nothing more is posted
    if (T_.Closed_.load(std::memory_order_acquire)) return;
    for (; Next_ < Posted_; ++Next_) {
      MPI_Cancel(&Requests_[Next_]);
      if (IsSend_)
        MPI_Request_free(&Requests_[Next_]);
      else
        MPI_Wait(&Requests_[Next_], MPI_STATUS_IGNORE);
    }
    Next_ = Requests_.size();
  }
  // Posts chunks until kChunksInFlight are in flight or all are posted.
  Status postMore() {
    while (!Stopped_ && Posted_ < Requests_.size() && Posted_ < Next_ + kChunksInFlight) {
      const size_t Off = Posted_ * size_t{kMaxChunkBytes};
      const int N = static_cast<int>(Chunks_[Posted_]);
      MPI_Request &R = Requests_[Posted_];
      int Rc = IsSend_ ? MPI_Isend(Data_ + Off, N, MPI_BYTE, Rank_, Tag_, T_.Comm_, &R)
                       : MPI_Irecv(Data_ + Off, N, MPI_BYTE, Rank_, Tag_, T_.Comm_, &R);
      if (Rc != MPI_SUCCESS) {
        cancelLocked();
        PostError_ = formatString("chunk at byte %zu of %zu: %s: %s", Off, Total_,
                                  IsSend_ ? "MPI_Isend" : "MPI_Irecv", mpiErrorText(Rc).c_str());
        return makeError("%s", PostError_.c_str());
      }
      ++Posted_;
    }
    return {};
  }
  // Tests the requests in order; true once all completed. An MPI error
  // or a short chunk stops it (Failed_), for wait() to report.
  bool testLocked() {
    while (!Failed_ && Next_ < Requests_.size()) {
      int Done = 0;
      MPI_Status St;
      if (MPI_Test(&Requests_[Next_], &Done, &St) != MPI_SUCCESS) {
        Failed_ = true;
        break;
      }
      if (!Done) return false;
      record(St);
      if (!shortChunk() || !postMore()) Failed_ = true;
    }
    return !Failed_;
  }

  // The first chunk received short, among those completed.
  Status shortChunk() const {
    if (IsSend_) return {};
    for (size_t I = 0; I < Next_; ++I)
      if (Counts_[I] < 0 || static_cast<size_t>(Counts_[I]) != Chunks_[I])
        return makeError("chunk at byte %zu of %zu: %d bytes arrived, %zu expected",
                         I * size_t{kMaxChunkBytes}, Total_, Counts_[I], Chunks_[I]);
    return {};
  }
  void record(MPI_Status &St) {
    int Count = 0;
    if (!IsSend_) MPI_Get_count(&St, MPI_BYTE, &Count);
    Counts_[Next_++] = Count;
  }

  MpiTransport &T_;
  const bool IsSend_;
  std::mutex Mutex_;
  std::vector<MPI_Request> Requests_;  // guarded by Mutex_
  std::vector<size_t> Chunks_;         // guarded by Mutex_
  std::vector<int> Counts_;            // guarded by Mutex_: bytes received per chunk
  size_t Next_ = 0;                    // guarded by Mutex_: the first request not completed
  size_t Posted_ = 0;                  // guarded by Mutex_: requests posted so far
  bool Stopped_ = false;               // guarded by Mutex_: cancelled, post nothing more
  std::string PostError_;              // guarded by Mutex_: a post that failed
  int Rank_ = 0, Tag_ = 0;             // set by post()
  std::byte *Data_ = nullptr;
  bool Failed_ = false;              // guarded by Mutex_: testLocked met an error
  std::atomic<bool> Waited_{false};  // a thread waits for it or dropped it
  size_t Total_ = 0;
};

// The caller's handle: waits, or cancels when dropped unwaited.
class MpiPostedTransfer final : public PostedTransfer {
 public:
  explicit MpiPostedTransfer(std::shared_ptr<PostedState> S) : S_(std::move(S)) {}
  ~MpiPostedTransfer() override { S_->cancel(); }
  Status wait(int TimeoutMs, Failure *F) override { return S_->wait(TimeoutMs, F, true); }
  Status waitSome(int TimeoutMs, Failure &F) override { return S_->wait(TimeoutMs, &F, false); }
  bool done() override { return S_->done(); }

 private:
  std::shared_ptr<PostedState> S_;
};

Expected<std::unique_ptr<PostedTransfer>> MpiTransport::postData(int Rank, int Tag, std::byte *Data,
                                                                 size_t Bytes, bool IsSend,
                                                                 bool Background) {
  if (Closed_.load(std::memory_order_acquire)) return closedError();
  auto S = std::make_shared<PostedState>(*this, IsSend);
  if (Status P = S->post(Rank, Tag, Data, Bytes); !P) return P.takeError();
  if (Background) Engine_->add(S);
  return std::unique_ptr<PostedTransfer>(std::make_unique<MpiPostedTransfer>(std::move(S)));
}

Expected<std::unique_ptr<PostedTransfer>> MpiTransport::postSendData(
    int Rank, int Tag, std::span<const std::byte> Bytes, bool Background) {
  // MPI_Isend does not write its buffer.
  return postData(Rank, Tag, const_cast<std::byte *>(Bytes.data()), Bytes.size(), true, Background);
}

Expected<std::unique_ptr<PostedTransfer>> MpiTransport::postReceiveData(int Rank, int Tag,
                                                                        std::span<std::byte> Into,
                                                                        bool Background) {
  return postData(Rank, Tag, Into.data(), Into.size(), false, Background);
}

void setWhy(char *Why, size_t WhyBytes, const std::string &Text) {
  if (!Why || WhyBytes == 0) return;
  const size_t N = std::min(Text.size(), WhyBytes - 1);
  std::memcpy(Why, Text.data(), N);
  Why[N] = '\0';
}

Expected<std::unique_ptr<Transport>> open() {
  // Its thread starts before MPI_Init (progress_engine.h).
  auto Engine = std::make_unique<ProgressEngine>();
  int Initialized = 0;
  MPI_Initialized(&Initialized);
  int Provided = MPI_THREAD_SINGLE;
  bool Owns = false;
  if (Initialized) {
    MPI_Query_thread(&Provided);
    if (Provided < MPI_THREAD_MULTIPLE)
      return makeError(
          "MPI was initialised before the MPI plugin with %s; remote devices need "
          "MPI_THREAD_MULTIPLE",
          threadLevelName(Provided));
  } else {
    int Rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &Provided);
    if (Rc != MPI_SUCCESS) return makeError("MPI_Init_thread: %s", mpiErrorText(Rc).c_str());
    Owns = true;
  }
  // Collective: every rank (the program and each server) dups once, at
  // start-up, before it checks anything that the others might not share.
  MPI_Comm Comm;
  int Rc = MPI_Comm_dup(MPI_COMM_WORLD, &Comm);
  if (Rc != MPI_SUCCESS) return makeError("MPI_Comm_dup: %s", mpiErrorText(Rc).c_str());
  MPI_Comm_set_errhandler(Comm, MPI_ERRORS_RETURN);
  // Collective too: the ranks on this node, against its CPUs (Backoff).
  int NodeRanks = 1;
  MPI_Comm Node;
  if (MPI_Comm_split_type(Comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &Node) == MPI_SUCCESS) {
    MPI_Comm_size(Node, &NodeRanks);
    MPI_Comm_free(&Node);
  }
  const long Cpus = sysconf(_SC_NPROCESSORS_ONLN);
  const bool CorePerRank = Cpus > 0 && NodeRanks <= Cpus;
  Engine->setYield(CorePerRank);
  if (Provided < MPI_THREAD_MULTIPLE) {
    MPI_Comm_free(&Comm);
    return makeError("the MPI library provides %s; remote devices need MPI_THREAD_MULTIPLE",
                     threadLevelName(Provided));
  }
  int Rank = 0, Size = 0;
  MPI_Comm_rank(Comm, &Rank);
  MPI_Comm_size(Comm, &Size);
  char Host[MPI_MAX_PROCESSOR_NAME] = {};
  int HostLength = 0;
  MPI_Get_processor_name(Host, &HostLength);
  void *UbAttr = nullptr;
  int HasUb = 0;
  MPI_Comm_get_attr(Comm, MPI_TAG_UB, &UbAttr, &HasUb);
  uint32_t TagUb = 32767;  // the least MPI guarantees
  if (HasUb && UbAttr)
    TagUb = static_cast<uint32_t>(
        std::min<int>(*static_cast<int *>(UbAttr), static_cast<int>(kMaxTag)));
  return std::unique_ptr<Transport>(
      std::make_unique<MpiTransport>(Comm, Owns, Rank, Size,
                                     std::string(Host, static_cast<size_t>(HostLength)), TagUb,
                                     CorePerRank, std::move(Engine)));
}

}  // namespace

}  // namespace omptarget::mpi

extern "C" __attribute__((visibility("default"))) omptarget::mpi::Transport *
omptarget_mpi_open_transport(char *Why, size_t WhyBytes) {
  omptarget::Expected<std::unique_ptr<omptarget::mpi::Transport>> T = omptarget::mpi::open();
  if (!T) {
    omptarget::mpi::setWhy(Why, WhyBytes, T.error().message());
    return nullptr;
  }
  return T->release();
}

// The order of the operations that guard a map entry's data, on every
// personality of the fake plugin, read from the fake's operation logs:
//  - a copy into a new entry still in flight when a second construct, on
//    another queue, maps the same range: the second construct must not copy
//    again, and its kernel must start only after the copy is complete
//    (events: the issuer's record, then the reuser's wait, before the
//    kernel; persistent queues: nothing recorded until the reuser needs it,
//    then the record on the issuer's queue after the copy; no events: the
//    copy finished before the reuser finds the entry);
//  - the copy back at the last reference, made by whichever construct drops
//    it: after the kernel that wrote the data, before the memory is freed.
// Written against the mapping entry points (dataBegin, the data constructs,
// target regions), not against how the core keeps an entry's event.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "fake_plugin.h"
#include "map_ops.h"

using namespace omptarget;
using namespace omptarget::core;
using namespace omptarget::abi;
using fake::OpKind;
using fake::OpRecord;
using fake::Personality;

namespace {

constexpr int64_t TO = kMapTo, FROM = kMapFrom, PARAM = kMapTargetParam;
constexpr int kInts = 1024;
constexpr int64_t kBytes = kInts * sizeof(int);

uint64_t checksum(const int *P, int N) {
  uint64_t S = 0;
  for (int I = 0; I < N; ++I) S = S * 1000003u + static_cast<uint32_t>(P[I]);
  return S;
}

// Position of the first record in Log that matches, from From on.
template <typename Pred>
std::optional<size_t> find(const std::vector<OpRecord> &Log, Pred P, size_t From = 0) {
  for (size_t I = From; I < Log.size(); ++I)
    if (P(Log[I])) return I;
  return std::nullopt;
}
auto is(OpKind K, const void *Device) {
  return [=](const OpRecord &R) { return R.Kind == K && R.Device == Device; };
}
auto isLaunch(int Kernel) {
  return [=](const OpRecord &R) { return R.Kind == OpKind::Launch && R.Kernel == Kernel; };
}
auto isEvent(OpKind K) {
  return [=](const OpRecord &R) { return R.Kind == K; };
}
size_t count(const std::vector<OpRecord> &Log, OpKind K, const void *Device) {
  return static_cast<size_t>(std::count_if(Log.begin(), Log.end(), is(K, Device)));
}

// A kernel that blocks until released, so a construct can be held in the
// middle (in its launch, or in its synchronize when work is queued).
class Gate {
 public:
  void enterAndWait() {
    std::unique_lock L(Mu_);
    Entered_ = true;
    Cv_.notify_all();
    Cv_.wait(L, [&] { return Open_; });
  }
  void waitEntered() {
    std::unique_lock L(Mu_);
    Cv_.wait(L, [&] { return Entered_; });
  }
  void open() {
    std::lock_guard L(Mu_);
    Open_ = true;
    Cv_.notify_all();
  }

 private:
  std::mutex Mu_;
  std::condition_variable Cv_;
  bool Entered_ = false, Open_ = false;
};

class EntryOrderTest : public RuntimeTest, public ::testing::WithParamInterface<Personality> {
 protected:
  fake::Config config() override {
    fake::Config C;
    C.Kind = GetParam();
    return C;
  }
  void TearDown() override {
    auto E = fake::eventCounters();
    EXPECT_EQ(E.WaitTimeouts, 0u) << "a queue waited for an event point that never ran";
    EXPECT_EQ(E.StaleAccesses, 0u) << "queued work ran on freed device memory";
    RuntimeTest::TearDown();
  }
  Personality kind() const { return GetParam(); }
};

TEST_P(EntryOrderTest, ReuseWaitsForTheCopyInFlight) {
  std::vector<int> A(kInts);
  for (int I = 0; I < kInts; ++I) A[I] = 7 * I + 1;
  std::vector<void *> Bases{A.data()}, Begins{A.data()};
  std::vector<int64_t> Sizes{kBytes}, Types{TO};
  MapArgs Map;
  Map.Num = 1;
  Map.Bases = Bases.data();
  Map.Begins = Begins.data();
  Map.Sizes = Sizes.data();
  Map.Types = Types.data();

  // The first construct maps A and issues its copy; it is not synchronized
  // yet, so where work is queued the copy has not run.
  AsyncInfo First(*D);
  ASSERT_TRUE(dataBegin(*D, Map, First));
  void *Tgt = entry(A.data(), kBytes).Tgt;
  ASSERT_NE(Tgt, nullptr);
  std::vector<OpRecord> Issued = fake::issued();
  auto Copy = find(Issued, is(OpKind::Submit, Tgt));
  ASSERT_TRUE(Copy);
  const uint64_t IssuerQueue = Issued[*Copy].Queue;
  bool CopyDone = find(fake::executed(), is(OpKind::Submit, Tgt)).has_value();
  EXPECT_EQ(CopyDone, !fake::defersWork(kind()) || kind() == Personality::Async)
      << "without events a queued copy is finished before the entry can be found";
  auto IssuerRecord = find(Issued, isEvent(OpKind::Record));
  if (kind() == Personality::AsyncEvents) {
    ASSERT_TRUE(IssuerRecord) << "the entry's event is recorded after its copy";
    EXPECT_GT(*IssuerRecord, *Copy);
    EXPECT_EQ(Issued[*IssuerRecord].Queue, IssuerQueue);
  } else {
    EXPECT_FALSE(IssuerRecord) << (kind() == Personality::PersistentQueues
                                       ? "persistent queues record only when a reuser needs it"
                                       : "an event recorded where none is needed");
  }

  // A target region on another thread (another queue) maps A again.
  uint64_t Seen = 0;
  fake::setKernel(0, [&](const std::vector<void *> &Args) {
    Seen = checksum(static_cast<const int *>(Args[0]), kInts);
  });
  std::atomic<bool> RegionDone{false};
  bool RegionOk = false;
  std::thread Region([&] {
    RegionOk = static_cast<bool>(target(0, {map(A.data(), kBytes, TO | PARAM)}));
    RegionDone = true;
  });
  // Wait until the region has issued its launch (it then blocks in its
  // synchronize where it waits for the copy), or has finished.
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!RegionDone && !find(fake::issued(), isLaunch(0)) &&
         std::chrono::steady_clock::now() < Deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  bool DoneBeforeCopy = RegionDone.load();
  ASSERT_TRUE(First.synchronize());
  Region.join();
  ASSERT_TRUE(RegionOk);
  if (kind() == Personality::AsyncEvents || kind() == Personality::PersistentQueues) {
    EXPECT_FALSE(DoneBeforeCopy) << "the region finished before the copy it depends on ran";
  }

  // Every personality: one copy, complete before the kernel started.
  Issued = fake::issued();
  std::vector<OpRecord> Executed = fake::executed();
  EXPECT_EQ(count(Issued, OpKind::Submit, Tgt), 1u) << "the reuser copied again";
  auto CopyRan = find(Executed, is(OpKind::Submit, Tgt));
  auto KernelRan = find(Executed, isLaunch(0));
  ASSERT_TRUE(CopyRan);
  ASSERT_TRUE(KernelRan);
  EXPECT_LT(*CopyRan, *KernelRan) << "the kernel started before the copy into its entry was done";
  EXPECT_EQ(Seen, checksum(A.data(), kInts)) << "the kernel saw an incomplete copy";

  auto Launch = find(Issued, isLaunch(0));
  ASSERT_TRUE(Launch);
  const uint64_t ReuserQueue = Issued[*Launch].Queue;
  auto Wait = find(Issued, isEvent(OpKind::Wait));
  switch (kind()) {
    case Personality::Sync:
      EXPECT_EQ(IssuerQueue, 0u);
      EXPECT_EQ(ReuserQueue, 0u);
      [[fallthrough]];
    case Personality::Async:
    case Personality::CompletesSync:
      EXPECT_FALSE(find(Issued, isEvent(OpKind::Record))) << "no event is needed";
      EXPECT_FALSE(Wait);
      break;
    case Personality::AsyncEvents:
    case Personality::PersistentQueues: {
      ASSERT_NE(IssuerQueue, ReuserQueue) << "the two constructs shared a queue";
      ASSERT_TRUE(Wait) << "the reuser's queue does not wait for the copy in flight";
      EXPECT_EQ(Issued[*Wait].Queue, ReuserQueue);
      EXPECT_LT(*Wait, *Launch) << "the wait was issued after the kernel it must hold back";
      auto Record = find(Issued, isEvent(OpKind::Record));
      ASSERT_TRUE(Record);
      EXPECT_EQ(Issued[*Record].Queue, IssuerQueue) << "the event was recorded on the wrong queue";
      EXPECT_GT(*Record, *Copy) << "the event was recorded before the copy it marks";
      EXPECT_LT(*Record, *Wait);
      EXPECT_EQ(std::count_if(Issued.begin(), Issued.end(), isEvent(OpKind::Record)), 1);
      // Executed: the copy, the record's point, the wait, then the kernel.
      auto RecordRan = find(Executed, isEvent(OpKind::Record));
      auto WaitRan = find(Executed, isEvent(OpKind::Wait));
      ASSERT_TRUE(RecordRan);
      ASSERT_TRUE(WaitRan);
      EXPECT_LT(*CopyRan, *RecordRan);
      EXPECT_LT(*RecordRan, *WaitRan);
      EXPECT_LT(*WaitRan, *KernelRan);
      break;
    }
  }
  ASSERT_TRUE(end({map(A.data(), kBytes, kMapDelete)}));
  EXPECT_EQ(tableSize(), 0u);
}

// Enter data holds A; a region maps it too and its kernel writes it; exit
// data drops the first reference while the region is held (in its launch or
// its synchronize). The region's drop is then the last: A comes back from
// the device after the kernel ran, once, before the memory is freed.
TEST_P(EntryOrderTest, CopyBackAtTheLastReference) {
  std::vector<int> A(kInts, 1);
  ASSERT_TRUE(begin({map(A.data(), kBytes, TO)}));
  void *Tgt = entry(A.data(), kBytes).Tgt;
  Gate G;
  fake::setKernel(1, [&](const std::vector<void *> &Args) {
    G.enterAndWait();
    auto *P = static_cast<int *>(Args[0]);
    for (int I = 0; I < kInts; ++I) P[I] = -I;
  });
  bool RegionOk = false;
  std::thread Region(
      [&] { RegionOk = static_cast<bool>(target(1, {map(A.data(), kBytes, TO | FROM | PARAM)})); });
  G.waitEntered();
  EXPECT_EQ(entry(A.data(), kBytes).Dyn, 2u);
  ASSERT_TRUE(end({map(A.data(), kBytes, FROM)}));
  EXPECT_TRUE(entry(A.data(), kBytes).Mapped) << "the entry went while the region held it";
  EXPECT_EQ(A[5], 1) << "copied back though the region still holds a reference";
  G.open();
  Region.join();
  ASSERT_TRUE(RegionOk);
  EXPECT_FALSE(entry(A.data(), kBytes).Mapped);
  for (int I = 0; I < kInts; I += 97) ASSERT_EQ(A[I], -I) << "the kernel's data did not come back";

  std::vector<OpRecord> Executed = fake::executed();
  auto KernelRan = find(Executed, isLaunch(1));
  auto Back = find(Executed, is(OpKind::Retrieve, Tgt));
  auto Freed = find(Executed, is(OpKind::Delete, Tgt));
  ASSERT_TRUE(KernelRan);
  ASSERT_TRUE(Back);
  ASSERT_TRUE(Freed);
  EXPECT_LT(*KernelRan, *Back) << "copied back before the kernel ran";
  EXPECT_LT(*Back, *Freed) << "the memory was freed before its data came back";
  EXPECT_EQ(count(Executed, OpKind::Retrieve, Tgt), 1u);
  EXPECT_EQ(count(Executed, OpKind::Delete, Tgt), 1u);
}

INSTANTIATE_TEST_SUITE_P(Plugin, EntryOrderTest, ::testing::ValuesIn(fake::kAllPersonalities),
                         [](const auto &Info) { return fake::name(Info.param); });

}  // namespace

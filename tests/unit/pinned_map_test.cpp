// Unit tests of plugin-common's PinnedMap (pinned_map.h: the reference-
// counted map of locked host ranges of one device) on a fake HostPinner that
// records every pin and unpin, and can be told to fail or to report a range
// as pinned already by someone else (External, possibly a larger range).
// The map never touches the memory it is given: the ranges are offsets into
// one buffer, and the "device addresses" the fake hands out lie far from it,
// so that a returned address shows which entry and offset it came from.
// Runs under TSan and ASan+UBSan in CI too (the concurrency test is sized
// for well under a second there).
#include "pinned_map.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace omptarget;
using namespace omptarget::plugin;

namespace {

// Where the fake says the device reaches host address B.
constexpr uintptr_t kDeviceOffset = uintptr_t(1) << 44;
void *deviceOf(uintptr_t B) { return reinterpret_cast<void *>(B + kDeviceOffset); }
// Where the device reaches memory that someone else pinned: Off into it.
constexpr uintptr_t kForeignDevice = uintptr_t(1) << 45;
void *foreignAt(size_t Off) { return reinterpret_cast<void *>(kForeignDevice + Off); }

// pin()/unpin() record what they were asked. The map promises one call at a
// time (its change lock): Active counts the calls in progress, and the
// vectors are plain, so that an overlap shows in every build (MaxActive) and
// under TSan.
struct FakePinner final : HostPinner {
  struct Call {
    uintptr_t Begin;
    size_t Size;
  };
  std::vector<Call> Pins;
  std::vector<PinnedRange> Unpins;
  std::optional<std::string> FailPin;  // the next pins fail with this message
  bool FailUnpin = false;
  // Memory pinned by someone else: pins inside it report it (External).
  std::optional<PinnedRange> Foreign;
  std::atomic<int> Active{0};
  std::atomic<int> MaxActive{0};

  struct InCall {
    FakePinner &F;
    explicit InCall(FakePinner &F) : F(F) {
      int Now = F.Active.fetch_add(1) + 1;
      int Max = F.MaxActive.load();
      while (Now > Max && !F.MaxActive.compare_exchange_weak(Max, Now)) {
      }
    }
    ~InCall() { F.Active.fetch_sub(1); }
  };

  Expected<PinnedRange> pin(void *P, size_t Size) override {
    InCall In(*this);
    const uintptr_t B = reinterpret_cast<uintptr_t>(P);
    Pins.push_back({B, Size});
    if (FailPin) return Error(*FailPin);
    if (Foreign && Foreign->Begin <= B && B + Size <= Foreign->Begin + Foreign->Size)
      return *Foreign;
    return PinnedRange{B, Size, deviceOf(B), false};
  }
  Status unpin(const PinnedRange &R) override {
    InCall In(*this);
    Unpins.push_back(R);
    if (FailUnpin) return Error(formatString("fake unpin failure at %p", (void *)R.Begin));
    return {};
  }
};

class PinnedMapTest : public ::testing::Test {
 protected:
  static constexpr int32_t kDevice = 3;
  std::vector<char> Memory = std::vector<char>(size_t(1) << 20);
  FakePinner Pinner;
  PinnedMap Map{kDevice, Pinner};

  char *at(size_t Off) { return Memory.data() + Off; }
  uintptr_t addr(size_t Off) { return reinterpret_cast<uintptr_t>(at(Off)); }
  // The text PinnedMap gives a range in its messages.
  std::string range(size_t Off, size_t Size) {
    return formatString("[%p, %p) (%zu bytes)", (void *)at(Off), (void *)at(Off + Size), Size);
  }
  void *lockOk(size_t Off, size_t Size) {
    Expected<void *> P = Map.lock(at(Off), Size);
    EXPECT_TRUE(P) << (P ? "" : P.error().message());
    return P ? *P : nullptr;
  }
  // One entry of the snapshot, by its begin offset (fails the test if absent).
  PinnedMap::EntryInfo entryAt(size_t Off) {
    for (const auto &E : Map.snapshot())
      if (E.Range.Begin == addr(Off)) return E;
    ADD_FAILURE() << "no entry at offset " << Off;
    return {};
  }
  // Compact text of the whole map, to compare before and after a refusal.
  std::string mapText() {
    std::string S;
    for (const auto &E : Map.snapshot())
      S += formatString("%zx+%zu:%p:%d:%llu:%d ", size_t(E.Range.Begin - addr(0)), E.Range.Size,
                        E.Range.DevicePtr, int(E.Range.External), (unsigned long long)E.Locks,
                        int(E.FromAllocation));
    return S;
  }
};

TEST_F(PinnedMapTest, EmptyMapContainsNothing) {
  EXPECT_FALSE(Map.mayContain());
  EXPECT_FALSE(Map.contains(at(0), 1));
  PinnedMap::Segment S = Map.segmentAt(at(0), 4096);
  EXPECT_EQ(S.Size, 4096u);
  EXPECT_FALSE(S.Locked);
  EXPECT_TRUE(Map.snapshot().empty());
  EXPECT_EQ(Map.unpinAll(), 0u);
}

TEST_F(PinnedMapTest, LockOfANewRangePinsItOnce) {
  EXPECT_EQ(lockOk(4096, 1000), deviceOf(addr(4096)));
  ASSERT_EQ(Pinner.Pins.size(), 1u);
  EXPECT_EQ(Pinner.Pins[0].Begin, addr(4096));
  EXPECT_EQ(Pinner.Pins[0].Size, 1000u);
  EXPECT_TRUE(Map.mayContain());
  auto Snap = Map.snapshot();
  ASSERT_EQ(Snap.size(), 1u);
  EXPECT_EQ(Snap[0].Range.Begin, addr(4096));
  EXPECT_EQ(Snap[0].Range.Size, 1000u);
  EXPECT_EQ(Snap[0].Range.DevicePtr, deviceOf(addr(4096)));
  EXPECT_FALSE(Snap[0].Range.External);
  EXPECT_FALSE(Snap[0].FromAllocation);
  EXPECT_EQ(Snap[0].Locks, 1u);
  EXPECT_TRUE(Pinner.Unpins.empty());
}

TEST_F(PinnedMapTest, LockInsideALockedRangeIsAReferenceAtTheOffset) {
  lockOk(4096, 1000);
  // Inside, at its start, the whole range, and ending at its end.
  EXPECT_EQ(lockOk(4096 + 100, 50), deviceOf(addr(4096 + 100)));
  EXPECT_EQ(lockOk(4096, 1), deviceOf(addr(4096)));
  EXPECT_EQ(lockOk(4096, 1000), deviceOf(addr(4096)));
  EXPECT_EQ(lockOk(4096 + 999, 1), deviceOf(addr(4096 + 999)));
  EXPECT_EQ(Pinner.Pins.size(), 1u);  // no new pin
  auto Snap = Map.snapshot();
  ASSERT_EQ(Snap.size(), 1u);
  EXPECT_EQ(Snap[0].Range.Size, 1000u);  // the entry is not split or grown
  EXPECT_EQ(Snap[0].Locks, 5u);
}

TEST_F(PinnedMapTest, UnpinsExactlyOnceAtTheLastUnlockThroughAnInteriorPointer) {
  lockOk(8192, 4096);
  lockOk(8192 + 1000, 10);  // nested
  // Any pointer into the entry unlocks it, whatever range it was locked as.
  ASSERT_TRUE(Map.unlock(at(8192 + 4095)));
  EXPECT_TRUE(Pinner.Unpins.empty());
  EXPECT_EQ(entryAt(8192).Locks, 1u);
  ASSERT_TRUE(Map.unlock(at(8192 + 2000)));
  ASSERT_EQ(Pinner.Unpins.size(), 1u);
  EXPECT_EQ(Pinner.Unpins[0].Begin, addr(8192));
  EXPECT_EQ(Pinner.Unpins[0].Size, 4096u);
  EXPECT_EQ(Pinner.Unpins[0].DevicePtr, deviceOf(addr(8192)));
  EXPECT_FALSE(Map.mayContain());
  EXPECT_TRUE(Map.snapshot().empty());
  // A third unlock: an error, and no second unpin.
  Status S = Map.unlock(at(8192));
  ASSERT_FALSE(S);
  EXPECT_EQ(Pinner.Unpins.size(), 1u);
  // Locked again: a new pin.
  lockOk(8192, 4096);
  EXPECT_EQ(Pinner.Pins.size(), 2u);
}

TEST_F(PinnedMapTest, OverlapThatExtendsPastAnEntryIsRefusedAndChangesNothing) {
  lockOk(4096, 1000);
  lockOk(4096, 10);  // two references
  const std::string Before = mapText();
  // Past its end, before its start, and around it.
  for (auto [Off, Size] :
       {std::pair<size_t, size_t>{4096 + 500, 1000}, {4000, 200}, {4000, 2000}, {4096 + 999, 2}}) {
    Expected<void *> P = Map.lock(at(Off), Size);
    ASSERT_FALSE(P) << "lock of " << range(Off, Size) << " was accepted";
    const std::string &M = P.error().message();
    EXPECT_NE(M.find("device 3"), std::string::npos) << M;
    EXPECT_NE(M.find("cannot lock host range " + range(Off, Size)), std::string::npos) << M;
    EXPECT_NE(M.find("overlaps the locked range " + range(4096, 1000)), std::string::npos) << M;
    EXPECT_NE(M.find("never extended"), std::string::npos) << M;
    EXPECT_EQ(mapText(), Before);
    EXPECT_EQ(Pinner.Pins.size(), 1u);
  }
  // Adjacent ranges do not overlap: they are entries of their own.
  EXPECT_EQ(lockOk(4096 + 1000, 100), deviceOf(addr(4096 + 1000)));
  EXPECT_EQ(lockOk(4096 - 100, 100), deviceOf(addr(4096 - 100)));
  EXPECT_EQ(Pinner.Pins.size(), 3u);
  EXPECT_EQ(Map.snapshot().size(), 3u);
}

TEST_F(PinnedMapTest, RangeOverlappingTwoEntriesNamesBoth) {
  lockOk(4096, 100);
  lockOk(4096 + 200, 100);
  const std::string Before = mapText();
  Expected<void *> P = Map.lock(at(4096 + 50), 200);
  ASSERT_FALSE(P);
  const std::string &M = P.error().message();
  EXPECT_NE(M.find(range(4096 + 50, 200)), std::string::npos) << M;
  EXPECT_NE(M.find("overlaps the locked range " + range(4096, 100)), std::string::npos) << M;
  EXPECT_NE(M.find("and the locked range " + range(4096 + 200, 100)), std::string::npos) << M;
  // Around both, starting in the gap before them.
  P = Map.lock(at(4000), 1000);
  ASSERT_FALSE(P);
  EXPECT_NE(P.error().message().find(range(4096, 100)), std::string::npos);
  EXPECT_NE(P.error().message().find(range(4096 + 200, 100)), std::string::npos);
  EXPECT_EQ(mapText(), Before);
  EXPECT_EQ(Pinner.Pins.size(), 2u);
  // The gap between them is free.
  EXPECT_EQ(lockOk(4096 + 100, 100), deviceOf(addr(4096 + 100)));
}

TEST_F(PinnedMapTest, UnlockOfMemoryThatIsNotLockedIsAnErrorThatChangesNothing) {
  bool NotLocked = false;
  Status S = Map.unlock(at(100), &NotLocked);
  ASSERT_FALSE(S);
  EXPECT_TRUE(NotLocked);  // in no entry at all
  EXPECT_NE(S.error().message().find(formatString(
                "data_unlock: device 3: host pointer %p is not in memory locked on this device",
                (void *)at(100))),
            std::string::npos)
      << S.error().message();
  lockOk(4096, 1000);
  const std::string Before = mapText();
  // Just before, just past the end (an end is not inside), far away.
  for (size_t Off : {size_t(4095), size_t(4096 + 1000), size_t(100000)}) {
    Status U = Map.unlock(at(Off), &NotLocked);
    EXPECT_FALSE(U) << "unlock at offset " << Off << " was accepted";
    EXPECT_TRUE(NotLocked);
    EXPECT_NE(U.error().message().find("nothing was unlocked"), std::string::npos);
  }
  EXPECT_EQ(mapText(), Before);
  EXPECT_TRUE(Pinner.Unpins.empty());
  EXPECT_TRUE(Map.unlock(at(4096 + 999), &NotLocked));
  EXPECT_FALSE(NotLocked);
}

TEST_F(PinnedMapTest, MemoryPinnedBySomeoneElseIsUsedAndNeverUnpinned) {
  // The program pinned [64 KiB, 128 KiB) itself; the device reaches it at
  // foreignAt(0).
  Pinner.Foreign = PinnedRange{addr(65536), 65536, foreignAt(0), true};
  // A lock inside it: one pin call (which finds it pinned), the device
  // address at the offset from the foreign range's start.
  Expected<void *> P = Map.lock(at(65536 + 4096), 100);
  ASSERT_TRUE(P);
  EXPECT_EQ(*P, foreignAt(4096));
  EXPECT_EQ(Pinner.Pins.size(), 1u);
  auto Snap = Map.snapshot();
  ASSERT_EQ(Snap.size(), 1u);
  EXPECT_TRUE(Snap[0].Range.External);
  EXPECT_EQ(Snap[0].Range.Begin, addr(65536));  // the whole foreign range
  EXPECT_EQ(Snap[0].Range.Size, 65536u);
  // Another lock anywhere inside it is a reference to that entry.
  P = Map.lock(at(65536 + 60000), 1000);
  ASSERT_TRUE(P);
  EXPECT_EQ(*P, foreignAt(60000));
  EXPECT_EQ(Pinner.Pins.size(), 1u);
  EXPECT_EQ(entryAt(65536).Locks, 2u);
  ASSERT_TRUE(Map.unlock(at(65536 + 4096)));
  ASSERT_TRUE(Map.unlock(at(65536 + 60000)));
  EXPECT_TRUE(Map.snapshot().empty());  // the entry leaves the map...
  EXPECT_TRUE(Pinner.Unpins.empty());   // ...but is never unpinned by us
  EXPECT_FALSE(Map.unlock(at(65536 + 4096)));
}

TEST_F(PinnedMapTest, ForeignRangeOverEntriesOfOursEntersAsTheAskedRange) {
  lockOk(65536, 100);  // ours, pinned before the program pinned around it
  Pinner.Foreign = PinnedRange{addr(65536 - 4096), 16384, foreignAt(0), true};
  Expected<void *> P = Map.lock(at(65536 + 1000), 100);
  ASSERT_TRUE(P);
  EXPECT_EQ(*P, foreignAt(4096 + 1000));
  auto Snap = Map.snapshot();
  ASSERT_EQ(Snap.size(), 2u);
  EXPECT_EQ(Snap[1].Range.Begin, addr(65536 + 1000));
  EXPECT_EQ(Snap[1].Range.Size, 100u);
  EXPECT_TRUE(Snap[1].Range.External);
  EXPECT_EQ(Snap[1].Range.DevicePtr, foreignAt(4096 + 1000));
  ASSERT_TRUE(Map.unlock(at(65536 + 1050)));
  EXPECT_TRUE(Pinner.Unpins.empty());
  ASSERT_TRUE(Map.unlock(at(65536)));
  ASSERT_EQ(Pinner.Unpins.size(), 1u);  // ours only
  EXPECT_EQ(Pinner.Unpins[0].Begin, addr(65536));
}

TEST_F(PinnedMapTest, AllocationsAreLockedMemoryThatLocksNeverUnpin) {
  Map.addAllocation(at(4096), 4096);
  EXPECT_TRUE(Map.mayContain());
  EXPECT_TRUE(Map.contains(at(4096), 4096));
  PinnedMap::EntryInfo E = entryAt(4096);
  EXPECT_TRUE(E.FromAllocation);
  EXPECT_EQ(E.Locks, 0u);
  EXPECT_EQ(E.Range.DevicePtr, at(4096));
  // Unlocking an allocation nobody locked: an error that says what it is
  // (the pointer is in an entry: not "not locked here").
  bool NotLocked = true;
  Status S = Map.unlock(at(4096 + 10), &NotLocked);
  ASSERT_FALSE(S);
  EXPECT_FALSE(NotLocked);
  EXPECT_NE(S.error().message().find("holds no lock"), std::string::npos) << S.error().message();
  EXPECT_NE(S.error().message().find("llvm_omp_target_alloc_host " + range(4096, 4096)),
            std::string::npos)
      << S.error().message();
  // Locks inside it: references, no pin, no unpin, the entry stays.
  EXPECT_EQ(lockOk(4096 + 100, 10), at(4096 + 100));
  EXPECT_EQ(lockOk(4096, 4096), at(4096));
  EXPECT_EQ(entryAt(4096).Locks, 2u);
  ASSERT_TRUE(Map.unlock(at(4096 + 100)));
  ASSERT_TRUE(Map.unlock(at(4096)));
  EXPECT_TRUE(Pinner.Pins.empty());
  EXPECT_TRUE(Pinner.Unpins.empty());
  EXPECT_EQ(entryAt(4096).Locks, 0u);
  EXPECT_FALSE(Map.unlock(at(4096)));  // no lock left to drop
  // A range that extends past it is refused like any overlap.
  EXPECT_FALSE(Map.lock(at(4096 + 4000), 200));
  // Only the allocation's own start removes it.
  Map.removeAllocation(at(4096 + 1));
  EXPECT_EQ(Map.snapshot().size(), 1u);
  Map.removeAllocation(at(4096));
  EXPECT_TRUE(Map.snapshot().empty());
  EXPECT_FALSE(Map.mayContain());
  EXPECT_TRUE(Pinner.Unpins.empty());
  Map.removeAllocation(at(4096));  // again: nothing
}

TEST_F(PinnedMapTest, RemoveAllocationLeavesLockedRangesAlone) {
  lockOk(4096, 100);
  Map.removeAllocation(at(4096));  // not an allocation: stays
  EXPECT_EQ(entryAt(4096).Locks, 1u);
  EXPECT_TRUE(Pinner.Unpins.empty());
}

TEST_F(PinnedMapTest, AllocationDropsStaleEntriesItOverlaps) {
  // Memory locked, then freed without an unlock; an allocation comes back at
  // an overlapping address: the stale entries leave the map (nothing to
  // unpin: the memory they named is gone).
  lockOk(4096, 100);
  lockOk(4096 + 200, 100);
  lockOk(65536, 100);  // elsewhere: kept
  Map.addAllocation(at(4096 + 50), 1000);
  auto Snap = Map.snapshot();
  ASSERT_EQ(Snap.size(), 2u);
  EXPECT_EQ(Snap[0].Range.Begin, addr(4096 + 50));
  EXPECT_TRUE(Snap[0].FromAllocation);
  EXPECT_EQ(Snap[1].Range.Begin, addr(65536));
  EXPECT_EQ(Snap[1].Locks, 1u);
}

TEST_F(PinnedMapTest, PinFailureLeavesTheMapEmpty) {
  Pinner.FailPin = "fake: out of pinnable memory";
  Expected<void *> P = Map.lock(at(4096), 1000);
  ASSERT_FALSE(P);
  const std::string &M = P.error().message();
  EXPECT_NE(M.find("data_lock: device 3: cannot lock host range " + range(4096, 1000)),
            std::string::npos)
      << M;
  EXPECT_NE(M.find("fake: out of pinnable memory"), std::string::npos) << M;
  EXPECT_TRUE(Map.snapshot().empty());
  EXPECT_FALSE(Map.mayContain());
  EXPECT_FALSE(Map.contains(at(4096), 1));
  EXPECT_FALSE(Map.unlock(at(4096)));
  EXPECT_TRUE(Pinner.Unpins.empty());
  // The next lock, once pinning works again, is a fresh first lock.
  Pinner.FailPin.reset();
  EXPECT_EQ(lockOk(4096, 1000), deviceOf(addr(4096)));
  EXPECT_EQ(entryAt(4096).Locks, 1u);
}

TEST_F(PinnedMapTest, SegmentsAndContainmentOverPartialOverlaps) {
  // Locked: [100, 200) and [300, 400), with an allocation at [400, 500)
  // right after the second.
  lockOk(100, 100);
  lockOk(300, 100);
  Map.addAllocation(at(400), 100);
  struct Case {
    size_t Off, Size, Want;
    bool Locked;
  };
  for (Case C :
       {Case{0, 1000, 100, false}, Case{0, 100, 100, false}, Case{0, 50, 50, false},
        Case{100, 1000, 100, true}, Case{150, 10, 10, true}, Case{150, 1000, 50, true},
        Case{199, 1, 1, true}, Case{200, 50, 50, false}, Case{200, 500, 100, false},
        Case{350, 1000, 50, true}, Case{400, 1000, 100, true}, Case{500, 1000, 1000, false}}) {
    PinnedMap::Segment S = Map.segmentAt(at(C.Off), C.Size);
    EXPECT_EQ(S.Size, C.Want) << "segmentAt(" << C.Off << ", " << C.Size << ")";
    EXPECT_EQ(S.Locked, C.Locked) << "segmentAt(" << C.Off << ", " << C.Size << ")";
  }
  // The transfer path's walk: pieces that alternate and add up.
  std::string Pieces;
  for (size_t Off = 0, Left = 1000; Left != 0;) {
    PinnedMap::Segment S = Map.segmentAt(at(Off), Left);
    ASSERT_GT(S.Size, 0u);
    ASSERT_LE(S.Size, Left);
    Pieces += formatString("%zu+%zu%c ", Off, S.Size, S.Locked ? 'L' : 'p');
    Off += S.Size, Left -= S.Size;
  }
  // Adjacent entries are separate pieces (one copy each).
  EXPECT_EQ(Pieces, "0+100p 100+100L 200+100p 300+100L 400+100L 500+500p ");
  EXPECT_TRUE(Map.contains(at(100), 100));
  EXPECT_TRUE(Map.contains(at(150), 1));
  EXPECT_TRUE(Map.contains(at(199), 1));
  EXPECT_TRUE(Map.contains(at(450), 50));
  EXPECT_FALSE(Map.contains(at(99), 2));     // starts before
  EXPECT_FALSE(Map.contains(at(199), 2));    // ends after
  EXPECT_FALSE(Map.contains(at(200), 1));    // the end is outside
  EXPECT_FALSE(Map.contains(at(150), 200));  // over a gap into the next
  EXPECT_FALSE(Map.contains(at(350), 100));  // over two adjacent entries
  EXPECT_FALSE(Map.contains(at(250), 1));
  EXPECT_FALSE(Map.contains(at(600), 1));
}

TEST_F(PinnedMapTest, UnpinAllAtTeardownUnpinsOnlyOurs) {
  lockOk(4096, 100);
  lockOk(4096, 10);  // two references: still one unpin
  lockOk(8192, 100);
  Pinner.Foreign = PinnedRange{addr(65536), 4096, foreignAt(0), true};
  lockOk(65536 + 10, 10);             // someone else's
  Map.addAllocation(at(131072), 64);  // an allocation, not locked
  Map.addAllocation(at(200000), 64);
  lockOk(200000, 8);  // an allocation, locked
  Status Failure;
  // Still locked: ours twice, the foreign one, the locked allocation.
  EXPECT_EQ(Map.unpinAll(&Failure), 4u);
  EXPECT_TRUE(Failure);
  ASSERT_EQ(Pinner.Unpins.size(), 2u);
  EXPECT_EQ(Pinner.Unpins[0].Begin, addr(4096));
  EXPECT_EQ(Pinner.Unpins[1].Begin, addr(8192));
  EXPECT_TRUE(Map.snapshot().empty());
  EXPECT_FALSE(Map.mayContain());
  EXPECT_EQ(Map.unpinAll(&Failure), 0u);
  EXPECT_EQ(Pinner.Unpins.size(), 2u);
}

TEST_F(PinnedMapTest, UnpinAllReportsTheFirstFailureAndUnpinsTheRest) {
  lockOk(4096, 100);
  lockOk(8192, 100);
  lockOk(16384, 100);
  Pinner.FailUnpin = true;
  Status Failure;
  EXPECT_EQ(Map.unpinAll(&Failure), 3u);
  EXPECT_EQ(Pinner.Unpins.size(), 3u);  // a failure does not stop the others
  ASSERT_FALSE(Failure);
  EXPECT_EQ(Failure.error().message(), formatString("fake unpin failure at %p", (void *)at(4096)));
  EXPECT_TRUE(Map.snapshot().empty());
  // Without a place for the failure.
  lockOk(4096, 100);
  EXPECT_EQ(Map.unpinAll(), 1u);
}

TEST_F(PinnedMapTest, UnpinFailureAtTheLastUnlockIsReportedAndTheEntryIsGone) {
  lockOk(4096, 100);
  Pinner.FailUnpin = true;
  Status S = Map.unlock(at(4096));
  ASSERT_FALSE(S);
  EXPECT_NE(S.error().message().find("cannot unpin host range " + range(4096, 100)),
            std::string::npos)
      << S.error().message();
  EXPECT_TRUE(Map.snapshot().empty());
  EXPECT_EQ(Pinner.Unpins.size(), 1u);
}

TEST_F(PinnedMapTest, RangeThatWrapsAroundTheAddressSpaceIsRefused) {
  Expected<void *> P = Map.lock(at(4096), SIZE_MAX - 100);
  ASSERT_FALSE(P);
  EXPECT_NE(P.error().message().find("wraps around"), std::string::npos);
  EXPECT_TRUE(Pinner.Pins.empty());
}

// Threads that lock and unlock their own ranges (nested), threads that lock
// and unlock one shared range (its first lock pins, its last unpins, over and
// over), and readers that ask contains/segmentAt/snapshot meanwhile. The
// pinner sees one call at a time; every pin is matched by one unpin; the map
// ends empty; a reader never sees a piece of size 0 or a locked piece where
// nothing is ever locked. The readers never pause: with a lock that let
// readers overtake waiting writers, the lockers would wait milliseconds per
// call here (seconds for the test under TSan).
TEST_F(PinnedMapTest, ConcurrentLocksUnlocksAndLookups) {
  constexpr int kLockers = 4, kSharers = 2, kReaders = 2, kIters = 300;
  constexpr size_t kStride = 16384, kSize = 4096;
  constexpr size_t kShared = 200000, kNever = 500000;  // kNever: no one locks there
  std::atomic<int> Errors{0}, Running{kLockers + kSharers};
  std::vector<std::thread> Threads;
  for (int T = 0; T < kLockers; ++T)
    Threads.emplace_back([&, T] {
      const size_t Base = size_t(T) * kStride;
      for (int I = 0; I < kIters; ++I) {
        Expected<void *> Outer = Map.lock(at(Base), kSize);
        Expected<void *> Inner = Map.lock(at(Base + 100 + I % 1000), 50);
        if (!Outer || *Outer != deviceOf(addr(Base))) ++Errors;
        if (!Inner || *Inner != deviceOf(addr(Base + 100 + I % 1000))) ++Errors;
        if (!Map.contains(at(Base), kSize)) ++Errors;
        if (!Map.unlock(at(Base + 100 + I % 1000))) ++Errors;
        if (!Map.unlock(at(Base + kSize - 1))) ++Errors;
      }
      --Running;
    });
  for (int T = 0; T < kSharers; ++T)
    Threads.emplace_back([&] {
      for (int I = 0; I < kIters; ++I) {
        Expected<void *> P = Map.lock(at(kShared + 8), 8);
        if (!P || *P != deviceOf(addr(kShared + 8))) ++Errors;
        if (!Map.unlock(at(kShared + 8))) ++Errors;
      }
      --Running;
    });
  for (int T = 0; T < kReaders; ++T)
    Threads.emplace_back([&] {
      while (Running.load() != 0) {
        for (size_t Off = 0; Off < size_t(kLockers) * kStride;) {
          PinnedMap::Segment S = Map.segmentAt(at(Off), kLockers * kStride - Off);
          if (S.Size == 0) {
            ++Errors;
            break;
          }
          Off += S.Size;
        }
        PinnedMap::Segment Never = Map.segmentAt(at(kNever), 4096);
        if (Never.Locked || Never.Size != 4096) ++Errors;
        if (Map.contains(at(kNever), 1)) ++Errors;
        (void)Map.contains(at(kShared), 64);
        (void)Map.mayContain();
        for (const auto &E : Map.snapshot())
          if (E.Range.Size == 0 || E.Locks == 0) ++Errors;
      }
    });
  for (auto &T : Threads) T.join();
  EXPECT_EQ(Errors.load(), 0);
  EXPECT_EQ(Pinner.MaxActive.load(), 1);  // one pinner call at a time
  EXPECT_GE(Pinner.Pins.size(), size_t(kLockers));
  EXPECT_EQ(Pinner.Pins.size(), Pinner.Unpins.size());
  for (const PinnedRange &R : Pinner.Unpins) EXPECT_FALSE(R.External);
  EXPECT_TRUE(Map.snapshot().empty());
  EXPECT_FALSE(Map.mayContain());
}

}  // namespace

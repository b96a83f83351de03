// Fuzz target: the MPI device server's request handling (src/plugins/mpi/
// server/request_handler.h), which acts on messages from another process.
// The input is a flags byte (bit 0: the plugin's memory is this process's
// own, SharesMemory; bit 1: the plugin has events), then records [kind: u8][length: u16 LE][bytes]:
// an even kind is one control message handed to the handler, an odd one bulk bytes that the
// channel's next receives take (a receive with too few left fails, as a peer that stops sending
// does).
//
// The plugin behind the handler is a fake of two devices whose memory is an
// arena at a fixed address (0x500000000000, allocations from its start, 64
// bytes apart at least), so that inputs can name real device pointers, and
// whose image loader takes any image beginning with "IMG!" and hands out
// arena memory for each entry of nonzero size and, for the I-th entry of
// size 0, the kernel handle 0x500000000000 + 4 MiB - 64 + I (never memory).
//
// Asserted, besides no crash, leak or sanitizer report: the handler passes
// the plugin only what it may (data_delete a live allocation; data_submit,
// data_retrieve and data_exchange ranges inside live allocations; launches
// a kernel handle the loader gave out; records, waits on, syncs and
// destroys only events it created, and destroys every one it created by
// the time it is gone); every reply it sends decodes.
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <vector>

#include "fuzz_check.h"
#include "mpi_protocol.h"
#include "request_handler.h"

using namespace omptarget;
using namespace omptarget::mpi;

namespace {

constexpr uintptr_t kArenaBase = 0x500000000000;
constexpr size_t kArenaBytes = size_t{1} << 22;
constexpr size_t kMaxAlloc = size_t{1} << 16;
constexpr size_t kMaxEntries = 8;
// Kernel handles: the last 64 bytes of the arena, never allocated.
constexpr size_t kHeapBytes = kArenaBytes - 64;

std::byte *arena() {
  static std::byte *A = [] {
    void *P = mmap(reinterpret_cast<void *>(kArenaBase), kArenaBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    FUZZ_CHECK(P == reinterpret_cast<void *>(kArenaBase));
    return static_cast<std::byte *>(P);
  }();
  return A;
}

// The fake plugin's state, reset for each input.
struct FakeDevices {
  size_t Next = 0;                                      // bump offset into the arena
  std::map<uintptr_t, size_t> Live;                     // allocation start -> bytes
  std::deque<std::vector<__tgt_offload_entry>> Tables;  // one per load
  std::deque<__tgt_target_table> TableHeads;
  std::set<uintptr_t> Events;  // live events the plugin made
  uintptr_t NextEvent = 16;
} State;

void *arenaAlloc(size_t Size) {
  if (Size == 0 || Size > kMaxAlloc) return nullptr;
  const size_t At = (State.Next + 63) & ~size_t{63};
  if (At + Size > kHeapBytes) return nullptr;
  State.Next = At + Size;
  const uintptr_t P = kArenaBase + At;
  State.Live[P] = Size;
  return reinterpret_cast<void *>(P);
}

bool inLive(const void *Ptr, int64_t Size) {
  const auto P = reinterpret_cast<uintptr_t>(Ptr);
  auto It = State.Live.upper_bound(P);
  if (It == State.Live.begin()) return false;
  --It;
  return Size >= 0 && P >= It->first && P - It->first <= It->second &&
         static_cast<uint64_t>(Size) <= It->second - (P - It->first);
}

void *kernelHandle(size_t I) { return arena() + kHeapBytes + I; }
bool isKernel(const void *Entry) {
  const auto *E = static_cast<const std::byte *>(Entry);
  return E >= arena() + kHeapBytes && E < arena() + kHeapBytes + kMaxEntries;
}

int32_t fakeInit(int32_t) { return 0; }
int32_t fakeValid(__tgt_device_image *Image) {
  const auto *B = static_cast<const char *>(Image->ImageStart);
  const auto *E = static_cast<const char *>(Image->ImageEnd);
  return E - B >= 4 && std::memcmp(B, "IMG!", 4) == 0;
}
__tgt_target_table *fakeLoad(int32_t, __tgt_device_image *Image) {
  const size_t N = static_cast<size_t>(Image->EntriesEnd - Image->EntriesBegin);
  if (N > kMaxEntries) return nullptr;
  std::vector<__tgt_offload_entry> Table(Image->EntriesBegin, Image->EntriesEnd);
  for (size_t I = 0; I < N; ++I) {
    if (Table[I].size == 0) {
      Table[I].addr = kernelHandle(I);
    } else {
      Table[I].addr = arenaAlloc(Table[I].size);
      if (!Table[I].addr) return nullptr;
    }
  }
  State.Tables.push_back(std::move(Table));
  std::vector<__tgt_offload_entry> &T = State.Tables.back();
  State.TableHeads.push_back({T.data(), T.data() + T.size()});
  return &State.TableHeads.back();
}
void *fakeAlloc(int32_t, int64_t Size, void *, int32_t) {
  return Size < 0 ? nullptr : arenaAlloc(static_cast<size_t>(Size));
}
int32_t fakeDelete(int32_t, void *P) {
  FUZZ_CHECK(State.Live.count(reinterpret_cast<uintptr_t>(P)) == 1);
  State.Live.erase(reinterpret_cast<uintptr_t>(P));
  return 0;
}
int32_t fakeSubmit(int32_t, void *Tgt, void *Hst, int64_t Size) {
  FUZZ_CHECK(inLive(Tgt, Size));
  std::memcpy(Tgt, Hst, static_cast<size_t>(Size));
  return 0;
}
int32_t fakeRetrieve(int32_t, void *Hst, void *Tgt, int64_t Size) {
  FUZZ_CHECK(inLive(Tgt, Size));
  std::memcpy(Hst, Tgt, static_cast<size_t>(Size));
  return 0;
}
int32_t fakeExchangeable(int32_t, int32_t) { return 1; }
int32_t fakeExchange(int32_t, void *Src, int32_t, void *Dst, int64_t Size) {
  FUZZ_CHECK(inLive(Src, Size) && inLive(Dst, Size));
  std::memmove(Dst, Src, static_cast<size_t>(Size));
  return 0;
}
int32_t fakeRegion(int32_t, void *Entry, void **, ptrdiff_t *, int32_t, __tgt_async_info *) {
  FUZZ_CHECK(isKernel(Entry));
  return 0;
}
int32_t fakeTeamRegion(int32_t, void *Entry, void **, ptrdiff_t *, int32_t, int32_t, int32_t,
                       uint64_t, __tgt_async_info *) {
  FUZZ_CHECK(isKernel(Entry));
  return 0;
}
int32_t fakeLaunch(int32_t, void *Entry, void **, ptrdiff_t *, int32_t, const __tgt_kernel_launch *,
                   __tgt_async_info *) {
  FUZZ_CHECK(isKernel(Entry));
  return 0;
}
int32_t fakeSynchronize(int32_t, __tgt_async_info *AI) {
  AI->Queue = nullptr;
  return 0;
}

int32_t fakeCreateEvent(int32_t, void **E) {
  State.NextEvent += 16;
  State.Events.insert(State.NextEvent);
  *E = reinterpret_cast<void *>(State.NextEvent);
  return 0;
}
bool liveEvent(void *E) { return State.Events.count(reinterpret_cast<uintptr_t>(E)) == 1; }
int32_t fakeRecordEvent(int32_t, void *E, __tgt_async_info *AI) {
  FUZZ_CHECK(liveEvent(E) && AI);
  return 0;
}
int32_t fakeSyncEvent(int32_t, void *E) {
  FUZZ_CHECK(liveEvent(E));
  return 0;
}
int32_t fakeDestroyEvent(int32_t, void *E) {
  FUZZ_CHECK(liveEvent(E));
  State.Events.erase(reinterpret_cast<uintptr_t>(E));
  return 0;
}

ServedPlugin fakePlugin(bool SharesMemory, bool HasEvents) {
  ServedPlugin P;
  P.Name = "fake";
  P.NumDevices = 2;
  P.SharesMemory = SharesMemory;
  P.Fn.init_device = fakeInit;
  P.Fn.is_valid_binary = fakeValid;
  P.Fn.load_binary = fakeLoad;
  P.Fn.data_alloc = fakeAlloc;
  P.Fn.data_delete = fakeDelete;
  P.Fn.data_submit = fakeSubmit;
  P.Fn.data_retrieve = fakeRetrieve;
  P.Fn.is_data_exchangable = fakeExchangeable;
  P.Fn.data_exchange = fakeExchange;
  P.Fn.run_target_region_async = fakeRegion;
  P.Fn.run_target_team_region_async = fakeTeamRegion;
  P.Fn.launch_kernel_async = fakeLaunch;
  P.Fn.synchronize = fakeSynchronize;
  P.Fn.query_async = fakeSynchronize;
  if (HasEvents) {
    P.Fn.create_event = fakeCreateEvent;
    P.Fn.record_event = fakeRecordEvent;
    P.Fn.wait_event = fakeRecordEvent;
    P.Fn.sync_event = fakeSyncEvent;
    P.Fn.destroy_event = fakeDestroyEvent;
  }
  return P;
}

// Bulk bytes come from the input's odd records; replies and bulk bytes out
// are checked and dropped. Rank 2 is the one other server.
class FuzzChannel final : public Channel {
 public:
  Status reply(uint32_t, std::span<const std::byte> Message) override {
    FUZZ_CHECK(static_cast<bool>(decodeHeader(Message)));
    return {};
  }
  Status receiveData(uint32_t, std::span<std::byte> Into) override { return take(Into); }
  Status sendData(uint32_t, std::span<const std::byte>) override { return {}; }
  bool isPeerServer(int Rank) const override { return Rank == 2; }
  Status sendToPeer(int, uint32_t, std::span<const std::byte>) override { return {}; }
  Status receiveFromPeer(int, uint32_t, std::span<std::byte> Into) override { return take(Into); }

  std::deque<std::byte> Pending;

 private:
  Status take(std::span<std::byte> Into) {
    if (Pending.size() < Into.size()) {
      const size_t Had = Pending.size();
      Pending.clear();
      return makeError("the peer sent %zu bytes of the %zu expected", Had, Into.size());
    }
    std::copy_n(Pending.begin(), Into.size(), Into.begin());
    Pending.erase(Pending.begin(), Pending.begin() + static_cast<ptrdiff_t>(Into.size()));
    return {};
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 1) return 0;
  arena();
  State = FakeDevices();
  {
    RequestHandler Handler({fakePlugin(Data[0] & 1, Data[0] & 2)}, "fuzz");
    FuzzChannel C;
    size_t At = 1;
    while (At + 3 <= Size) {
      const uint8_t Kind = Data[At];
      const size_t Length = std::min<size_t>(Data[At + 1] | (Data[At + 2] << 8), Size - At - 3);
      const auto *Bytes = reinterpret_cast<const std::byte *>(Data + At + 3);
      At += 3 + Length;
      if (Kind & 1) {
        C.Pending.insert(C.Pending.end(), Bytes, Bytes + Length);
        continue;
      }
      if (Handler.handle(std::span<const std::byte>(Bytes, Length), C) ==
          RequestHandler::Next::Stop)
        break;
    }
  }
  FUZZ_CHECK(State.Events.empty());
  return 0;
}

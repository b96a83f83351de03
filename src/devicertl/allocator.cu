// OpenMP memory allocators in target regions: omp_alloc and its relatives,
// omp_init_allocator / omp_destroy_allocator, and the __kmpc_ forms of them
// that clang's host code calls (clang 14 emits those in no device code: there
// an `allocate` directive or clause with a predefined allocator becomes a
// static variable or a plain local, and a user allocator is ignored).
//
// Every allocator takes its memory from the device heap (device malloc; the
// CUDA plugin sizes the heap with LIBOMPTARGET_HEAP_SIZE), also the
// constant, high-bandwidth, low-latency, cgroup, pteam and thread ones: the
// memory is global, so it is reachable from every thread of the device
// whatever the access trait says. Blocks are 16-byte aligned, or more when
// asked (omp_aligned_alloc, an alignment trait). A heap that is exhausted
// makes the call return NULL (the predefined allocators' fallback), or what
// a user allocator's fallback trait says.
//
// A block starts just below the pointer handed out with a header: the
// address malloc returned, the allocator that served it (omp_realloc's
// default, the pool it counts against) and its size (what omp_realloc copies,
// what omp_free gives back to a pool).
//
// User allocators (omp_init_allocator) live in a device-wide table; a handle
// is kUserHandleBase + its slot. Traits the device cannot honour (an
// alignment that is not a power of two, an unknown key or value, the host's
// memory spaces) make omp_init_allocator return omp_null_allocator, as does
// a full table. Any handle that is neither predefined nor a live user
// allocator of this device (e.g. the host's handle of a uses_allocators
// allocator, which clang 14 passes into the region unchanged) is served as
// omp_default_mem_alloc.
#include "state.h"

using namespace devrtl;

using AllocatorHandle = uint64_t;  // omp_allocator_handle_t
using MemspaceHandle = uint64_t;   // omp_memspace_handle_t

// omp_alloctrait_t
struct AllocatorTrait {
  int32_t Key;
  uint64_t Value;
};

namespace {

constexpr AllocatorHandle kNullAllocator = 0, kDefaultAllocator = 1;
constexpr uint64_t kDefaultValue = ~0ull;  // omp_atv_default

// omp_alloctrait_key_t and the omp_alloctrait_value_t values they take.
enum TraitKey : int32_t {
  kSyncHint = 1,
  kAlignment,
  kAccess,
  kPoolSize,
  kFallback,
  kFbData,
  kPinned,
  kPartition
};
enum TraitValue : uint64_t {
  kFalse = 0,
  kTrue = 1,
  kContended = 3,
  kUncontended,
  kSerialized,
  kPrivate,
  kAll,
  kThread,
  kPteam,
  kCgroup,
  kDefaultMemFb,
  kNullFb,
  kAbortFb,
  kAllocatorFb,
  kEnvironment,
  kNearest,
  kBlocked,
  kInterleaved
};
// omp_memspace_handle_t: default, large_cap, const, high_bw, low_lat; then
// LLVM's target memory spaces: host, shared (host memory: not reachable from
// device code) and device.
constexpr MemspaceHandle kLastStandardMemspace = 4, kDeviceMemspace = 102;

constexpr uint32_t kMaxUserAllocators = 128;
constexpr AllocatorHandle kUserHandleBase = 0x1000;
constexpr uint32_t kSlotFree = 0, kSlotClaimed = 1, kSlotReady = 2;

struct UserAllocator {
  uint32_t State;
  uint32_t Fallback;
  uint64_t Alignment;
  uint64_t PoolSize;  // 0: no pool limit
  uint64_t PoolUsed;
  AllocatorHandle FallbackAllocator;
};
GLOBAL UserAllocator UserAllocators[kMaxUserAllocators];

struct BlockHeader {
  void *Base;
  AllocatorHandle Allocator;
  uint64_t Size;
};
constexpr uint64_t kMinAlignment = 16;

INLINE UserAllocator *userAllocator(AllocatorHandle Handle) {
  if (Handle < kUserHandleBase || Handle >= kUserHandleBase + kMaxUserAllocators) return nullptr;
  UserAllocator *A = &UserAllocators[Handle - kUserHandleBase];
  return atomicLoad(&A->State) == kSlotReady ? A : nullptr;
}

INLINE bool isPowerOfTwo(uint64_t V) { return V != 0 && (V & (V - 1)) == 0; }

INLINE BlockHeader *headerOf(void *Ptr) {
  return reinterpret_cast<BlockHeader *>(static_cast<unsigned char *>(Ptr) - sizeof(BlockHeader));
}

// A heap block of Size bytes aligned to Alignment (a power of two).
INLINE void *heapBlock(uint64_t Size, uint64_t Alignment, AllocatorHandle Owner) {
  if (Alignment < kMinAlignment) Alignment = kMinAlignment;
  uint64_t Extra = Alignment + sizeof(BlockHeader);
  if (Size > ~0ull - Extra) return nullptr;
  auto *Base = static_cast<unsigned char *>(malloc(Size + Extra));
  if (!Base) return nullptr;
  uint64_t First = reinterpret_cast<uint64_t>(Base) + sizeof(BlockHeader);
  void *Ptr = reinterpret_cast<void *>((First + Alignment - 1) & ~(Alignment - 1));
  *headerOf(Ptr) = BlockHeader{Base, Owner, Size};
  return Ptr;
}

// Size bytes from Handle, aligned to at least Alignment (a power of two);
// follows user allocators' fallbacks (a bounded number of hops: fallback
// chains may loop).
DEVICE void *allocate(uint64_t Size, uint64_t Alignment, AllocatorHandle Handle) {
  if (Size == 0) return nullptr;
  for (int Hops = 0; Hops < 8; ++Hops) {
    UserAllocator *A = userAllocator(Handle);
    if (!A) return heapBlock(Size, Alignment, kDefaultAllocator);
    bool InPool = true;
    if (A->PoolSize != 0 && atomicAdd(&A->PoolUsed, Size) + Size > A->PoolSize) {
      atomicAdd(&A->PoolUsed, 0 - Size);
      InPool = false;
    }
    if (InPool) {
      if (void *Ptr = heapBlock(Size, Alignment > A->Alignment ? Alignment : A->Alignment, Handle))
        return Ptr;
      if (A->PoolSize != 0) atomicAdd(&A->PoolUsed, 0 - Size);
    }
    switch (A->Fallback) {
      case kNullFb: return nullptr;
      case kAbortFb: __builtin_trap();
      case kAllocatorFb: Handle = A->FallbackAllocator; break;
      default:  // default_mem_fb
        Handle = kDefaultAllocator;
        break;
    }
  }
  return nullptr;
}

DEVICE void release(void *Ptr) {
  if (!Ptr) return;
  BlockHeader *H = headerOf(Ptr);
  if (UserAllocator *A = userAllocator(H->Allocator); A && A->PoolSize != 0)
    atomicAdd(&A->PoolUsed, 0 - H->Size);
  free(H->Base);
}

// Whether Value is one Key accepts (the value of pool_size and fb_data are
// any number; alignment is checked by the caller).
INLINE bool validTrait(int32_t Key, uint64_t Value) {
  if (Value == kDefaultValue) return true;
  switch (Key) {
    case kSyncHint: return Value >= kContended && Value <= kPrivate;
    case kAccess: return Value >= kAll && Value <= kCgroup;
    case kFallback: return Value >= kDefaultMemFb && Value <= kAllocatorFb;
    case kPinned:  // device memory is never paged out: both are true of it
      return Value == kFalse || Value == kTrue;
    case kPartition:  // one device memory: every partition is the same
      return Value >= kEnvironment && Value <= kInterleaved;
    case kAlignment:
    case kPoolSize:
    case kFbData: return true;
    default: return false;
  }
}

}  // namespace

ENTRY AllocatorHandle omp_init_allocator(MemspaceHandle Memspace, int NumTraits,
                                         const AllocatorTrait *Traits) {
  if (Memspace > kLastStandardMemspace && Memspace != kDeviceMemspace) return kNullAllocator;
  UserAllocator New{kSlotReady, kDefaultMemFb, 1, 0, 0, kNullAllocator};
  for (int I = 0; I < NumTraits; ++I) {
    int32_t Key = Traits[I].Key;
    uint64_t Value = Traits[I].Value;
    if (!validTrait(Key, Value)) return kNullAllocator;
    if (Value == kDefaultValue) continue;
    if (Key == kAlignment) {
      if (!isPowerOfTwo(Value)) return kNullAllocator;
      New.Alignment = Value;
    } else if (Key == kPoolSize) {
      New.PoolSize = Value;
    } else if (Key == kFallback) {
      New.Fallback = static_cast<uint32_t>(Value);
    } else if (Key == kFbData) {
      New.FallbackAllocator = Value;
    }
  }
  if (New.Fallback == kAllocatorFb && New.FallbackAllocator == kNullAllocator)
    return kNullAllocator;
  for (uint32_t Slot = 0; Slot < kMaxUserAllocators; ++Slot) {
    UserAllocator &A = UserAllocators[Slot];
    uint32_t Expected = kSlotFree;
    if (!atomicCompareExchange(&A.State, Expected, kSlotClaimed)) continue;
    A.Fallback = New.Fallback;
    A.Alignment = New.Alignment;
    A.PoolSize = New.PoolSize;
    A.PoolUsed = 0;
    A.FallbackAllocator = New.FallbackAllocator;
    atomicStore(&A.State, kSlotReady);
    return kUserHandleBase + Slot;
  }
  return kNullAllocator;
}

ENTRY void omp_destroy_allocator(AllocatorHandle Handle) {
  if (UserAllocator *A = userAllocator(Handle)) atomicStore(&A->State, kSlotFree);
}

ENTRY void *omp_alloc(size_t Size, AllocatorHandle Handle) { return allocate(Size, 1, Handle); }

ENTRY void *omp_aligned_alloc(size_t Alignment, size_t Size, AllocatorHandle Handle) {
  return isPowerOfTwo(Alignment) ? allocate(Size, Alignment, Handle) : nullptr;
}

ENTRY void *omp_aligned_calloc(size_t Alignment, size_t Count, size_t Size,
                               AllocatorHandle Handle) {
  if (!isPowerOfTwo(Alignment) || (Count != 0 && Size > ~0ull / Count)) return nullptr;
  void *Ptr = allocate(Count * Size, Alignment, Handle);
  if (Ptr) __builtin_memset(Ptr, 0, Count * Size);
  return Ptr;
}

ENTRY void *omp_calloc(size_t Count, size_t Size, AllocatorHandle Handle) {
  return omp_aligned_calloc(1, Count, Size, Handle);
}

ENTRY void omp_free(void *Ptr, AllocatorHandle) { release(Ptr); }

// A NULL pointer is allocated afresh; a size of 0 frees. Otherwise the block
// moves to one from Handle (the block's own allocator when Handle is
// omp_null_allocator); when that fails the old block stays as it was.
ENTRY void *omp_realloc(void *Ptr, size_t Size, AllocatorHandle Handle, AllocatorHandle) {
  if (!Ptr) return allocate(Size, 1, Handle);
  if (Size == 0) {
    release(Ptr);
    return nullptr;
  }
  BlockHeader *Old = headerOf(Ptr);
  void *New = allocate(Size, 1, Handle == kNullAllocator ? Old->Allocator : Handle);
  if (!New) return nullptr;
  __builtin_memcpy(New, Ptr, Old->Size < Size ? Old->Size : Size);
  release(Ptr);
  return New;
}

// libomp's entry points for the same, with the caller's thread number first.
ENTRY void *__kmpc_alloc(int32_t, size_t Size, AllocatorHandle Handle) {
  return omp_alloc(Size, Handle);
}
ENTRY void *__kmpc_aligned_alloc(int32_t, size_t Alignment, size_t Size, AllocatorHandle Handle) {
  return omp_aligned_alloc(Alignment, Size, Handle);
}
ENTRY void *__kmpc_calloc(int32_t, size_t Count, size_t Size, AllocatorHandle Handle) {
  return omp_calloc(Count, Size, Handle);
}
ENTRY void *__kmpc_realloc(int32_t, void *Ptr, size_t Size, AllocatorHandle Handle,
                           AllocatorHandle FreeHandle) {
  return omp_realloc(Ptr, Size, Handle, FreeHandle);
}
ENTRY void __kmpc_free(int32_t, void *Ptr, AllocatorHandle Handle) { omp_free(Ptr, Handle); }
ENTRY AllocatorHandle __kmpc_init_allocator(int32_t, MemspaceHandle Memspace, int NumTraits,
                                            const AllocatorTrait *Traits) {
  return omp_init_allocator(Memspace, NumTraits, Traits);
}
ENTRY void __kmpc_destroy_allocator(int32_t, AllocatorHandle Handle) {
  omp_destroy_allocator(Handle);
}

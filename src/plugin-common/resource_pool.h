// A thread-safe pool of reusable device resources (queues, events).
//
// A pool hands out opaque handles created by a device hook and takes them back
// for reuse; it never destroys a handle before deinit(), so after warm-up an
// acquire/giveBack pair costs one lock round trip each and allocates nothing
// (every handle ever created has a fixed slot in Slots_ that only flips
// between free and in use; acquire needs no lookup, giveBack one FlatIndex
// probe). When the pool is empty,
// acquire() creates one more resource (the pool's size thus tracks the peak
// number of resources in use at once).
//
// Thread safety: Mutex_ (a FutexMutex: the critical sections are a few loads
// and stores) guards Slots_, Index_, Free_ and InUse_. acquire() calls the
// create hook without Mutex_ held; init() and deinit() call the hooks while
// holding it, so the hooks must not call back into the pool. Kind_ and the
// hooks are immutable.
//
// Lifetime: the destructor does NOT destroy resources (the hooks usually call
// virtual functions of a device that may already be half destroyed); the
// owner calls deinit() while the device is still whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "error.h"
#include "flat_index.h"
#include "futex_mutex.h"
#include "scoped_lock.h"
#include "thread_annotations.h"

namespace omptarget::plugin {

template <typename HandleT>
class ResourcePool {
 public:
  using CreateFn = std::function<Expected<HandleT>()>;
  using DestroyFn = std::function<Status(HandleT)>;

  // Kind names the resource in messages ("queue", "event").
  ResourcePool(std::string Kind, CreateFn Create, DestroyFn Destroy)
      : Kind_(std::move(Kind)), Create_(std::move(Create)), Destroy_(std::move(Destroy)) {}
  ResourcePool(const ResourcePool &) = delete;
  ResourcePool &operator=(const ResourcePool &) = delete;

  // Creates InitialSize resources up front.
  Status init(size_t InitialSize) {
    ScopedLock Lock(Mutex_);
    for (size_t I = 0; I < InitialSize; ++I) {
      Expected<HandleT> H = Create_();
      if (!H)
        return makeError("cannot create initial %s %zu of %zu: %s", Kind_.c_str(), I + 1,
                         InitialSize, H.error().message().c_str());
      Free_.push_back(addSlot(*H, false));
    }
    return {};
  }

  // Takes a resource from the pool, creating one if none is free.
  Expected<HandleT> acquire() {
    {
      ScopedLock Lock(Mutex_);
      if (!Free_.empty()) {
        Slot &S = Slots_[Free_.back()];
        Free_.pop_back();
        S.InUse = true;
        ++InUse_;
        return S.H;
      }
    }
    // None free: create one outside the lock (a driver call may be slow).
    Expected<HandleT> H = Create_();
    ScopedLock Lock(Mutex_);
    if (!H)
      return makeError("cannot create a %s (%zu in use): %s", Kind_.c_str(), InUse_,
                       H.error().message().c_str());
    addSlot(*H, true);
    ++InUse_;
    return *H;
  }

  // Returns a resource; a handle this pool did not hand out (or that was
  // already returned) is an error and leaves the pool unchanged.
  Status giveBack(HandleT H) {
    {
      ScopedLock Lock(Mutex_);
      uint32_t I = Index_.find(H);
      if (I != FlatIndex<HandleT>::kNone && Slots_[I].InUse) {
        Slots_[I].InUse = false;
        --InUse_;
        Free_.push_back(I);
        return {};
      }
    }
    return makeError("%s 0x%llx was not handed out by this device (already released?)",
                     Kind_.c_str(), handleValue(H));
  }

  // Whether H is currently handed out by this pool.
  bool isInUse(HandleT H) const {
    ScopedLock Lock(Mutex_);
    uint32_t I = Index_.find(H);
    return I != FlatIndex<HandleT>::kNone && Slots_[I].InUse;
  }

  // Destroys every resource, including ones still handed out (reported in the
  // returned error after all of them were destroyed).
  Status deinit() {
    ScopedLock Lock(Mutex_);
    std::string Problems;
    if (InUse_ != 0)
      Problems = formatString("%zu %s(s) still in use at deinit; ", InUse_, Kind_.c_str());
    for (const Slot &Sl : Slots_) {
      Status S = Destroy_(Sl.H);
      if (!S) Problems += S.error().message() + "; ";
    }
    Free_.clear();
    Slots_.clear();
    Index_.clear();
    InUse_ = 0;
    if (!Problems.empty()) return Error(Problems.substr(0, Problems.size() - 2));
    return {};
  }

  size_t numCreated() const {
    ScopedLock Lock(Mutex_);
    return Slots_.size();
  }
  size_t numFree() const {
    ScopedLock Lock(Mutex_);
    return Free_.size();
  }
  size_t numInUse() const {
    ScopedLock Lock(Mutex_);
    return InUse_;
  }

 private:
  struct Slot {
    HandleT H;
    bool InUse;
  };

  // Records a new handle; returns its slot index. Mutex_ held.
  uint32_t addSlot(HandleT H, bool InUse) REQUIRES(Mutex_) {
    auto I = static_cast<uint32_t>(Slots_.size());
    Slots_.push_back(Slot{H, InUse});
    Index_.insert(H, I);
    return I;
  }

  static unsigned long long handleValue(HandleT H) {
    if constexpr (std::is_pointer_v<HandleT>)
      return reinterpret_cast<uintptr_t>(H);
    else
      return static_cast<unsigned long long>(H);
  }

  const std::string Kind_;
  const CreateFn Create_;
  const DestroyFn Destroy_;
  mutable FutexMutex Mutex_;
  std::vector<Slot> Slots_ GUARDED_BY(Mutex_);     // every handle created, in creation order
  FlatIndex<HandleT> Index_ GUARDED_BY(Mutex_);    // handle -> index in Slots_
  std::vector<uint32_t> Free_ GUARDED_BY(Mutex_);  // indices of the free slots
  size_t InUse_ GUARDED_BY(Mutex_) = 0;
};

}  // namespace omptarget::plugin

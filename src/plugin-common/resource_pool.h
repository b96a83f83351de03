// A thread-safe pool of reusable device resources (queues, events).
//
// A pool hands out opaque handles created by a device hook and takes them back
// for reuse; it never destroys a handle before deinit(), so after warm-up an
// acquire/release pair costs one mutex round trip. When the pool is empty,
// acquire() creates one more resource (the pool's size thus tracks the peak
// number of resources in use at once).
//
// Thread safety: Mutex_ guards Free_, InUse_ and Created_. The create/destroy
// hooks run while Mutex_ is held, so they must not call back into the pool.
//
// Lifetime: the destructor does NOT destroy resources (the hooks usually call
// virtual functions of a device that may already be half destroyed); the
// owner calls deinit() while the device is still whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

#include "error.h"

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
    std::lock_guard Lock(Mutex_);
    for (size_t I = 0; I < InitialSize; ++I) {
      Expected<HandleT> H = Create_();
      if (!H)
        return makeError("cannot create initial %s %zu of %zu: %s", Kind_.c_str(), I + 1,
                         InitialSize, H.error().message().c_str());
      Free_.push_back(*H);
      ++Created_;
    }
    return {};
  }

  // Takes a resource from the pool, creating one if none is free.
  Expected<HandleT> acquire() {
    std::lock_guard Lock(Mutex_);
    if (Free_.empty()) {
      Expected<HandleT> H = Create_();
      if (!H)
        return makeError("cannot create a %s (%zu in use): %s", Kind_.c_str(), InUse_.size(),
                         H.error().message().c_str());
      ++Created_;
      Free_.push_back(*H);
    }
    HandleT H = Free_.back();
    Free_.pop_back();
    InUse_.insert(H);
    return H;
  }

  // Returns a resource; a handle this pool did not hand out (or that was
  // already returned) is an error and leaves the pool unchanged.
  Status release(HandleT H) {
    std::lock_guard Lock(Mutex_);
    if (InUse_.erase(H) == 0)
      return makeError("%s 0x%llx was not handed out by this device (already released?)",
                       Kind_.c_str(), handleValue(H));
    Free_.push_back(H);
    return {};
  }

  // Whether H is currently handed out by this pool.
  bool isInUse(HandleT H) const {
    std::lock_guard Lock(Mutex_);
    return InUse_.count(H) != 0;
  }

  // Destroys every resource, including ones still handed out (reported in the
  // returned error after all of them were destroyed).
  Status deinit() {
    std::lock_guard Lock(Mutex_);
    std::string Problems;
    if (!InUse_.empty())
      Problems = formatString("%zu %s(s) still in use at deinit; ", InUse_.size(), Kind_.c_str());
    for (HandleT H : InUse_) Free_.push_back(H);
    InUse_.clear();
    for (HandleT H : Free_) {
      Status S = Destroy_(H);
      if (!S) Problems += S.error().message() + "; ";
    }
    Free_.clear();
    Created_ = 0;
    if (!Problems.empty()) return Error(Problems.substr(0, Problems.size() - 2));
    return {};
  }

  size_t numCreated() const {
    std::lock_guard Lock(Mutex_);
    return Created_;
  }
  size_t numFree() const {
    std::lock_guard Lock(Mutex_);
    return Free_.size();
  }
  size_t numInUse() const {
    std::lock_guard Lock(Mutex_);
    return InUse_.size();
  }

 private:
  static unsigned long long handleValue(HandleT H) {
    if constexpr (std::is_pointer_v<HandleT>)
      return reinterpret_cast<uintptr_t>(H);
    else
      return static_cast<unsigned long long>(H);
  }

  const std::string Kind_;
  const CreateFn Create_;
  const DestroyFn Destroy_;
  mutable std::mutex Mutex_;
  std::vector<HandleT> Free_;
  std::unordered_set<HandleT> InUse_;
  size_t Created_ = 0;
};

}  // namespace omptarget::plugin

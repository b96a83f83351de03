// One AsyncInfo per construct: every allocation, copy and launch of
// a construct goes to the plugin with the same `__tgt_async_info`, whose queue
// the plugin takes from its pool on first use; the construct synchronizes once
// at its end, and work that must wait for completion (restoring host
// pointers, freeing device memory) runs as post-synchronization actions.
//
// Not thread safe: an AsyncInfo belongs to the one thread running its construct.
#pragma once

#include <optional>

#include "device.h"
#include "error.h"
#include "inline_action.h"
#include "omptarget/abi.h"

namespace omptarget::core {

class AsyncInfo {
 public:
  explicit AsyncInfo(Device &D) : Device_(D) {}
  // A construct that returns early still synchronizes (and reports failure).
  ~AsyncInfo() {
    if (Raw_.Queue || !PostSync_.empty() || !QueueDone_.empty()) [[unlikely]]
      synchronizeAtExit();
  }
  AsyncInfo(const AsyncInfo &) = delete;
  AsyncInfo &operator=(const AsyncInfo &) = delete;

  Device &device() { return Device_; }
  // The plugin's view, passed to its entries; the core itself asks
  // hasQueue()/queue().
  __tgt_async_info *raw() { return &Raw_; }
  // Whether the construct has queued work on the device yet (the plugin took
  // a queue for it), and that queue.
  bool hasQueue() const { return Raw_.Queue != nullptr; }
  void *queue() const { return Raw_.Queue; }
  // Nothing the construct issued can still be in flight: it has queued
  // nothing yet, or its device finishes every operation before returning.
  bool nothingInFlight() const { return !Raw_.Queue || Device_.completesSynchronously(); }

  // Writes the pointer value `Value` to device address `TgtAddr` on the
  // queue; the source buffer lives until the synchronize (attached
  // pointers, lambda captures).
  Status writePointer(void *TgtAddr, void *Value);
  // Gives back device memory the construct used once its work is done: its
  // release is queued when the device orders releases on the queue, else
  // made after the synchronize.
  Status release(void *TgtPtr);

  // Runs after the queue's work is complete, in registration order.
  void afterSync(InlineAction Action) { PostSync_.push(std::move(Action)); }

  // Runs as soon as the queue's work is complete (or failed), before the
  // failure and post-sync actions: for bookkeeping on entries this construct
  // still holds, which a failure rollback may free.
  void whenQueueDone(InlineAction Action) { QueueDone_.push(std::move(Action)); }

  // Runs only if the queued work fails (before the post-sync actions): undo
  // what the construct claimed, e.g. entries whose data never arrived.
  // Dropped at once on a device whose work is done when issued: its
  // operations cannot fail later.
  void onFailure(InlineAction Action) {
    if (!Device_.completesSynchronously()) OnFailure_.push(std::move(Action));
  }
  // Data-entering constructs (enter data, target data) keep their new entries
  // after they end, so only they need onFailure rollbacks.
  void enableRollback() { Rollback_ = true; }
  bool rollbackEnabled() const { return Rollback_; }

  // Waits for the queue (if one was taken), runs the queue-done actions, the
  // failure actions if that failed, then the post-sync actions.
  Status synchronize() {
    // Inline for the common case: nothing left to run, and nothing queued
    // or a device whose work is done when issued (its queue is only
    // forgotten, as Device::synchronize would).
    if (PostSync_.empty() && OnFailure_.empty() && QueueDone_.empty() &&
        (!Raw_.Queue || Device_.completesSynchronously())) [[likely]] {
      Raw_.Queue = nullptr;
      return Status::success();
    }
    return synchronizeQueued();
  }

  // synchronize() without waiting: nullopt while the queue's work is still
  // running (the device's query_async), else what synchronize() returns, its
  // actions run.
  std::optional<Status> poll();

 private:
  Status synchronizeQueued();
  // The queue-done, failure and post-sync actions after the queue ended
  // with QueueStatus.
  Status finishActions(Status QueueStatus);
  void synchronizeAtExit();

  Device &Device_;
  __tgt_async_info Raw_;
  InlineActionList QueueDone_;
  InlineActionList PostSync_;
  InlineActionList OnFailure_;
  bool Rollback_ = false;
};

}  // namespace omptarget::core

#include "async_info.h"

#include <memory>

#include "debug.h"
#include "device.h"

namespace omptarget::core {

Status AsyncInfo::synchronizeQueued() {
  Status Result;
  if (Raw_.Queue) Result = Device_.synchronize(Raw_);
  return finishActions(std::move(Result));
}

std::optional<Status> AsyncInfo::poll() {
  Status Result;
  if (Raw_.Queue) {
    // The plugin gives the queue back (null) once its work ended, failed or not.
    Result = Device_.queryAsync(Raw_);
    if (Result && Raw_.Queue) return std::nullopt;
  }
  return finishActions(std::move(Result));
}

Status AsyncInfo::finishActions(Status QueueStatus) {
  Status Result = std::move(QueueStatus);
  if (Status Done = QueueDone_.runAll(); !Done) debug::error("%s", Done.error().message().c_str());
  if (!Result) {
    if (Status Undo = OnFailure_.runAll(); !Undo)
      debug::error("%s", Undo.error().message().c_str());
  } else if (!OnFailure_.empty()) {
    OnFailure_.clear();
  }
  // Post-sync actions run even after a failed synchronization so that device
  // memory is released; the first error is the one reported.
  Status Actions = PostSync_.runAll();
  if (!Actions && Result) Result = std::move(Actions);
  return Result;
}

Status AsyncInfo::writePointer(void *TgtAddr, void *Value) {
  auto Buffer = std::make_shared<void *>(Value);
  afterSync([Buffer] { return Status::success(); });
  return Device_.submit(TgtAddr, Buffer.get(), sizeof(void *), Raw_);
}

Status AsyncInfo::release(void *TgtPtr) {
  if (Device_.ordersAllocationOnQueue()) return Device_.freeMemory(TgtPtr, &Raw_);
  afterSync([&D = Device_, TgtPtr] { return D.freeMemory(TgtPtr); });
  return Status::success();
}

void AsyncInfo::synchronizeAtExit() {
  Status S = synchronize();
  if (!S) debug::error("%s", S.error().message().c_str());
}

}  // namespace omptarget::core

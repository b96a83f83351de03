#include "async_info.h"

#include "debug.h"
#include "device.h"

namespace omptarget::core {

Status AsyncInfo::synchronize() {
  Status Result;
  if (Raw_.Queue) Result = Device_.synchronize(Raw_);
  // Post-sync actions run even after a failed synchronization so that device
  // memory is released; the first error is the one reported.
  std::vector<std::function<Status()>> Actions;
  Actions.swap(PostSync_);
  for (auto &Action : Actions) {
    Status S = Action();
    if (!S && Result) Result = std::move(S);
  }
  return Result;
}

AsyncInfo::~AsyncInfo() {
  if (Raw_.Queue || !PostSync_.empty()) {
    Status S = synchronize();
    if (!S) debug::error("%s", S.error().message().c_str());
  }
}

}  // namespace omptarget::core

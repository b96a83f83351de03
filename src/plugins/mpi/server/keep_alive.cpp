#include "keep_alive.h"

#include <cstdio>

namespace omptarget::mpi {

KeepAlive::KeepAlive(int IntervalMs, int TimeoutMs)
    : Interval_(IntervalMs), TimeoutMs_(TimeoutMs), Thread_([this] { run(); }) {}

KeepAlive::~KeepAlive() { stop(); }

void KeepAlive::attach(Transport &T) {
  std::lock_guard<std::mutex> Lock(Mutex_);
  T_ = &T;
}

void KeepAlive::stop() {
  {
    std::lock_guard<std::mutex> Lock(Mutex_);
    Stop_ = true;
  }
  Wake_.notify_all();
  if (Thread_.joinable()) Thread_.join();
}

void KeepAlive::begin(int Rank, const Header &H) {
  std::lock_guard<std::mutex> Lock(Mutex_);
  Active_ = true;
  Rank_ = Rank;
  RequestId_ = H.RequestId;
  LastSign_ = std::chrono::steady_clock::now();
}

void KeepAlive::end() {
  std::lock_guard<std::mutex> Lock(Mutex_);
  Active_ = false;
}

void KeepAlive::run() {
  std::unique_lock<std::mutex> Lock(Mutex_);
  while (!Stop_) {
    Wake_.wait_for(Lock, Interval_);
    if (Stop_ || !Active_ || !T_) continue;
    const auto Now = std::chrono::steady_clock::now();
    if (Now - LastSign_ < Interval_) continue;
    Header H;
    H.Kind = MessageKind::StatusReply;
    H.RequestId = RequestId_;
    StatusReply Working;
    Working.Code = StatusReply::kWorking;
    if (Status S = T_->send(Rank_, kKeepAliveTag, encodeMessage(H, Working), TimeoutMs_); !S) {
      std::fprintf(stderr, "omptarget-mpi-device: a keep-alive to rank %d was not sent: %s\n",
                   Rank_, S.error().message().c_str());
      Active_ = false;  // the requester is gone or stuck: stop telling it
      continue;
    }
    LastSign_ = Now;
  }
}

}  // namespace omptarget::mpi

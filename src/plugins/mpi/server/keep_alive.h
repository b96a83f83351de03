// KeepAlive: while the device server's request loop has a request in hand
// (a kernel that runs inside its launch, a synchronize, a copy waiting for
// its queue), a thread of its own tells the requester's rank every
// IntervalMs that the server is alive and busy: a StatusReply kWorking on
// kKeepAliveTag (mpi_protocol.h). The program's plugin, waiting for any
// reply from this server, counts each as a sign of life (RemoteRank), so a
// kernel longer than OMPTARGET_MPI_TIMEOUT_MS is not taken for a hung
// server, and requests queued behind it wait too; a server that stops
// serving (no request in hand) is still reported within the deadline.
//
// Contract: begin() before the handler runs a request, end() after. A
// keep-alive goes only while a request has been in hand for IntervalMs or
// more since the last one.
// Thread safety: Mutex_ guards the request in hand (Active_, Rank_,
// RequestId_, LastSign_), Sent_ and Stop_; it is held while a keep-alive
// is sent. The transport is thread-safe (MPI_THREAD_MULTIPLE).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "mpi_protocol.h"
#include "mpi_transport.h"

namespace omptarget::mpi {

class KeepAlive {
 public:
  KeepAlive(Transport &T, int IntervalMs, int TimeoutMs);
  ~KeepAlive();  // stops and joins the thread
  KeepAlive(const KeepAlive &) = delete;
  KeepAlive &operator=(const KeepAlive &) = delete;

  // The loop now serves request H from Rank.
  void begin(int Rank, const Header &H);
  // The request is done.
  void end();
  // Keep-alives sent so far.
  uint64_t sent() const;

 private:
  void run();

  Transport &T_;
  const std::chrono::milliseconds Interval_;
  const int TimeoutMs_;
  mutable std::mutex Mutex_;
  std::condition_variable Wake_;
  bool Stop_ = false;
  bool Active_ = false;
  int Rank_ = -1;
  uint64_t RequestId_ = 0;
  uint64_t Sent_ = 0;
  std::chrono::steady_clock::time_point LastSign_;
  std::thread Thread_;  // last: started after the fields it reads
};

}  // namespace omptarget::mpi

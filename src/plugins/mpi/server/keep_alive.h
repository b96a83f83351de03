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
// Contract: construct it before MPI is initialised, attach() the transport
// once it is open, begin() before the handler runs a request, end() after,
// and stop() before the transport closes (the destructor stops too). A
// keep-alive goes only while a request has been in hand for IntervalMs or
// more since the last one, and never before attach() or after stop().
// Why the thread starts before MPI_Init: under ThreadSanitizer (LLVM 14,
// scripts/test.sh runs the servers so), a thread started after Open MPI
// 4.1's MPI_Init was missing from TSan's thread registry when joined, and
// the join failed TSan's check (sanitizer_thread_registry.cpp:348, every
// server of the remote offload runs); started before MPI_Init, none did.
// Thread safety: Mutex_ guards the transport pointer, the request in hand
// (Active_, Rank_, RequestId_, LastSign_) and Stop_; it is held while a
// keep-alive is sent. The transport is thread-safe (MPI_THREAD_MULTIPLE).
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
  // Starts the thread; it sends nothing until attach().
  KeepAlive(int IntervalMs, int TimeoutMs);
  ~KeepAlive();  // stop()
  // The transport the keep-alives go through, once open.
  void attach(Transport &T);
  // Stops and joins the thread (once; later calls do nothing).
  void stop();
  KeepAlive(const KeepAlive &) = delete;
  KeepAlive &operator=(const KeepAlive &) = delete;

  // The loop now serves request H from Rank.
  void begin(int Rank, const Header &H);
  // The request is done.
  void end();

 private:
  void run();

  Transport *T_ = nullptr;
  const std::chrono::milliseconds Interval_;
  const int TimeoutMs_;
  std::mutex Mutex_;
  std::condition_variable Wake_;
  bool Stop_ = false;
  bool Active_ = false;
  int Rank_ = -1;
  uint64_t RequestId_ = 0;
  std::chrono::steady_clock::time_point LastSign_;
  std::thread Thread_;  // last: started after the fields it reads
};

}  // namespace omptarget::mpi

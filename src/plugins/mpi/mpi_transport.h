// Transport: control messages and bulk bytes between this process and
// other MPI ranks, on a communicator of our own.
//
// Contract:
//  - One Transport per process. openTransport initialises MPI with
//    MPI_THREAD_MULTIPLE when nobody has (and then finalizes it in
//    close()), and dups MPI_COMM_WORLD: a collective call, made by the
//    program's MPI plugin and by every device server at start-up. A
//    process whose MPI was initialised before with less than
//    MPI_THREAD_MULTIPLE gets an Error (its plugin offers no device).
//  - Every call is non-blocking MPI (MPI_Isend, MPI_Irecv, MPI_Improbe)
//    polled with MPI_Test until done or until TimeoutMs passes (TimeoutMs
//    < 0: no deadline); a call past its deadline cancels its request and
//    answers an Error with TimedOut set. Bulk bytes go in chunks of at most
//    kMaxChunkBytes (mpi_protocol.h), in order on one tag, every chunk
//    posted at once (postSendData, postReceiveData); a transfer posted in
//    the background is moved by the transport's progress thread
//    (progress_engine.h) until some thread waits for it.
//  - Any thread may call any method at once (MPI_THREAD_MULTIPLE); a
//    message is matched by (rank, tag), and tags of replies are fresh per
//    request (newTag), so concurrent requests to one rank never take each
//    other's replies.
//
// This header has no MPI in it: the MPI plugin (which every offload
// program loads) includes it, and reaches the implementation, linked with
// libmpi, through libomptarget.mpi_transport.so, which it dlopens only when
// a launcher started the program (openTransport is its one export).
//  - After close(), every call fails at once with an Error and makes no MPI
//    call (MPI aborts a process that calls it after MPI_Finalize; a global
//    destructor may offload after the plugin's exit handler closed it).
// Locks: the implementation's CounterMutex_ guards the tag and request-id
// counters; each posted transfer's mutex guards its requests (held by the
// waiting thread, or tried by the progress thread); Closed_ is atomic;
// nothing else is shared but MPI, which locks itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "error.h"

namespace omptarget::mpi {

// What a call that failed says besides its Error.
struct Failure {
  bool TimedOut = false;
};

struct Received {
  int Source = -1;
  std::vector<std::byte> Bytes;
};

// Bulk bytes moving in the background (Transport::postSendData /
// postReceiveData): every chunk's send or receive is posted at once, on
// the caller's memory, which must stay valid (and, for a send, unchanged)
// until wait() succeeded or the object is gone. The transport's progress
// thread moves them while no thread waits (mpi_transport.cpp); wait()
// finishes them. Destroying it before wait() succeeded cancels what has
// not moved. One thread at a time.
class PostedTransfer {
 public:
  virtual ~PostedTransfer() = default;
  // Until every chunk has moved (a received one of its full size: a
  // shorter one is an Error, the sender failed), or TimeoutMs passed
  // (F->TimedOut).
  virtual Status wait(int TimeoutMs, Failure *F = nullptr) = 0;
  // As wait(), but past TimeoutMs it returns with F.TimedOut set and the
  // rest still posted, to be waited for again (a caller that restarts its
  // deadline on a sign of life from the peer).
  virtual Status waitSome(int TimeoutMs, Failure &F) = 0;
  // Whether every chunk has moved, without blocking (false while another
  // thread holds it); wait() still reports how.
  virtual bool done() = 0;
};

class Transport {
 public:
  virtual ~Transport() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // This host's name (MPI_Get_processor_name).
  virtual const std::string &hostName() const = 0;

  // A tag no request in flight uses, in [kFirstReplyTag, the MPI bound].
  virtual uint32_t newTag() = 0;
  virtual uint64_t newRequestId() = 0;

  // Sends Bytes (one message) to Rank on Tag: done when MPI may reuse the
  // buffer.
  virtual Status send(int Rank, int Tag, std::span<const std::byte> Bytes, int TimeoutMs,
                      Failure *F = nullptr) = 0;
  // One message from Rank (any rank when Rank < 0) on Tag, of at most
  // MaxBytes (a longer one is received, dropped and refused).
  virtual Expected<Received> receive(int Rank, int Tag, size_t MaxBytes, int TimeoutMs,
                                     Failure *F = nullptr) = 0;
  // Whether a message from Rank on Tag has arrived, without blocking.
  virtual bool hasMessage(int Rank, int Tag) = 0;
  // Bulk bytes: Bytes.size() of them in chunks of kMaxChunkBytes, every
  // chunk posted at once; the call returns (sendData and receiveData are
  // a post and its wait).
  // Background: the progress thread moves it until a thread waits (a
  // transfer posted to be waited for at once gains nothing from it).
  virtual Expected<std::unique_ptr<PostedTransfer>> postSendData(int Rank, int Tag,
                                                                 std::span<const std::byte> Bytes,
                                                                 bool Background) = 0;
  virtual Expected<std::unique_ptr<PostedTransfer>> postReceiveData(int Rank, int Tag,
                                                                    std::span<std::byte> Into,
                                                                    bool Background) = 0;
  Status sendData(int Rank, int Tag, std::span<const std::byte> Bytes, int TimeoutMs,
                  Failure *F = nullptr) {
    if (Bytes.empty()) return {};
    Expected<std::unique_ptr<PostedTransfer>> P = postSendData(Rank, Tag, Bytes, false);
    if (!P) return P.takeError();
    return (*P)->wait(TimeoutMs, F);
  }
  Status receiveData(int Rank, int Tag, std::span<std::byte> Into, int TimeoutMs,
                     Failure *F = nullptr) {
    Expected<std::unique_ptr<PostedTransfer>> P = postReceiveData(Rank, Tag, Into, false);
    if (!P) return P.takeError();
    return (*P)->wait(TimeoutMs, F);
  }
  // Frees the communicator and, when openTransport initialised MPI and
  // Finalize is true, finalizes it. Nothing may be called after it.
  virtual void close(bool Finalize) = 0;
};

}  // namespace omptarget::mpi

// The one export of libomptarget.mpi_transport.so (and of the server's own
// copy): a Transport, or null with the reason in Why (WhyBytes bytes, NUL
// terminated). C linkage for dlsym; no exception leaves it.
extern "C" omptarget::mpi::Transport *omptarget_mpi_open_transport(char *Why, size_t WhyBytes);
using OmptargetMpiOpenTransportFn = omptarget::mpi::Transport *(*)(char *, size_t);

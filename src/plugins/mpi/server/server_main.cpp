// omptarget-mpi-device: the device server of the MPI plugin. Launched as
// the ranks after the program's (`mpirun -np 1 ./app : -np N
// omptarget-mpi-device`), it loads our own plugins from ../lib beside its
// directory (libomptarget.rtl.x86_64.so, and libomptarget.rtl.cuda.so when
// it loads and has devices), through their __tgt_rtl_* entries, and serves
// their devices to the program's MPI plugin until Shutdown.
//
// One thread serves the requests in the order they arrive
// (RequestHandler, request_handler.h, does each); a second sends the
// keep-alives of the request in hand (KeepAlive, keep_alive.h). Environment:
//   OMPTARGET_MPI_TIMEOUT_MS        deadline of the bulk bytes of a request;
//                                   keep-alives (keep_alive.h) go every
//                                   quarter of it (10 ms to 1 s) while a
//                                   request is in hand
//   OMPTARGET_MPI_TEST_HANG_AFTER   tests only: stop answering after N requests
//   OMPTARGET_MPI_TEST_KILL_AFTER   tests only: die by SIGKILL after N requests
// Locks: KeepAlive's, for the request in hand; nothing else is shared
// between the two threads.
#include <dlfcn.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "env.h"
#include "keep_alive.h"
#include "mpi_protocol.h"
#include "mpi_transport.h"
#include "plugin.h"
#include "request_handler.h"

namespace {

using namespace omptarget;
using namespace omptarget::mpi;

// The directory of our libraries: ../lib from this executable's directory.
std::string libraryDirectory() {
  char Self[4096];
  ssize_t N = readlink("/proc/self/exe", Self, sizeof(Self) - 1);
  if (N <= 0) return {};
  std::string Path(Self, static_cast<size_t>(N));
  Path.erase(Path.rfind('/') + 1);
  return Path + "../lib/";
}

class MpiChannel final : public Channel {
 public:
  MpiChannel(Transport &T, int Rank, int TimeoutMs) : T_(T), Rank_(Rank), TimeoutMs_(TimeoutMs) {}
  Status reply(uint32_t Tag, std::span<const std::byte> Message) override {
    return T_.send(Rank_, static_cast<int>(Tag), Message, TimeoutMs_);
  }
  Status receiveData(uint32_t Tag, std::span<std::byte> Into) override {
    return T_.receiveData(Rank_, static_cast<int>(Tag), Into, TimeoutMs_);
  }
  Status sendData(uint32_t Tag, std::span<const std::byte> Bytes) override {
    return T_.sendData(Rank_, static_cast<int>(Tag), Bytes, TimeoutMs_);
  }
  bool isPeerServer(int Rank) const override {
    return Rank > 0 && Rank < T_.size() && Rank != T_.rank();
  }
  Status sendToPeer(int Rank, uint32_t Tag, std::span<const std::byte> Bytes) override {
    if (Bytes.empty()) return T_.send(Rank, static_cast<int>(Tag), Bytes, TimeoutMs_);
    return T_.sendData(Rank, static_cast<int>(Tag), Bytes, TimeoutMs_);
  }
  Status receiveFromPeer(int Rank, uint32_t Tag, std::span<std::byte> Into) override {
    return T_.receiveData(Rank, static_cast<int>(Tag), Into, TimeoutMs_);
  }

 private:
  Transport &T_;
  const int Rank_;
  const int TimeoutMs_;
};

}  // namespace

int main() {
  const int TimeoutMs =
      static_cast<int>(env::getInt("OMPTARGET_MPI_TIMEOUT_MS", 30000, 1, 86400000));
  const int64_t HangAfter = env::getInt("OMPTARGET_MPI_TEST_HANG_AFTER", -1, -1, INT32_MAX);
  const int64_t KillAfter = env::getInt("OMPTARGET_MPI_TEST_KILL_AFTER", -1, -1, INT32_MAX);
  // Keep-alives well inside the program's deadline (the same variable); its
  // thread starts before MPI_Init (keep_alive.h says why).
  KeepAlive KA(std::clamp(TimeoutMs / 4, 10, 1000), TimeoutMs);
  char Why[1024] = {};
  std::unique_ptr<Transport> T(omptarget_mpi_open_transport(Why, sizeof(Why)));
  if (!T) {
    std::fprintf(stderr, "omptarget-mpi-device: %s\n", Why);
    return 1;
  }
  KA.attach(*T);
  if (T->rank() == 0) {
    std::fprintf(stderr,
                 "omptarget-mpi-device: this is world rank 0, the program's rank; launch as "
                 "`mpirun -np 1 ./app : -np N omptarget-mpi-device`\n");
    T->close(true);
    return 1;
  }
  // mpirun binds each rank to one core by default (Open MPI, 2 ranks or
  // fewer): the host devices would then run every team and thread there.
  // libomp 14 also computes wrong results for some `teams distribute
  // parallel for schedule(static, 1)` loops on one CPU (as the program
  // alone does under `taskset -c 0`).
  cpu_set_t Cpus;
  if (sched_getaffinity(0, sizeof(Cpus), &Cpus) == 0 && CPU_COUNT(&Cpus) == 1)
    std::fprintf(stderr,
                 "omptarget-mpi-device (rank %d): warning: this server may use 1 CPU only (mpirun "
                 "binds each rank to a core by default), so its host devices run every team "
                 "there; launch with `--bind-to none`, or give the server's rank a whole node\n",
                 T->rank());

  // Our plugins, beside each other; a missing or unloadable CUDA plugin is
  // no error (a machine without GPUs).
  const std::string Dir = libraryDirectory();
  std::vector<std::unique_ptr<core::Plugin>> Loaded;
  std::vector<ServedPlugin> Served;
  for (const char *Name : {"x86_64", "cuda"}) {
    const std::string Path = Dir + "libomptarget.rtl." + Name + ".so";
    struct stat St;
    if (stat(Path.c_str(), &St) != 0) continue;
    Expected<std::unique_ptr<core::Plugin>> P = core::Plugin::load(Path);
    if (!P) {
      if (std::string_view(Name) == "x86_64")
        std::fprintf(stderr, "omptarget-mpi-device (rank %d): %s\n", T->rank(),
                     P.error().message().c_str());
      continue;
    }
    const core::PluginFunctions &Fn = (*P)->fn();
    const int32_t N = Fn.number_of_devices();
    if (N <= 0) continue;
    // Our host plugin's device memory is this process's own memory.
    Served.push_back(ServedPlugin{Name, Fn, N, std::string_view(Name) == "x86_64"});
    Loaded.push_back(std::move(*P));
  }

  RequestHandler Handler(std::move(Served), T->hostName());
  {
    int64_t Served_ = 0;
    for (;;) {
      Expected<Received> M = T->receive(-1, kControlTag, kHeaderBytes + kMaxPayloadBytes, -1);
      if (!M) {
        std::fprintf(stderr, "omptarget-mpi-device (rank %d): %s\n", T->rank(),
                     M.error().message().c_str());
        continue;
      }
      MpiChannel C(*T, M->Source, TimeoutMs);
      if (Expected<Header> H = decodeHeader(M->Bytes)) KA.begin(M->Source, *H);
      const RequestHandler::Next Next = Handler.handle(M->Bytes, C);
      KA.end();
      if (Next == RequestHandler::Next::Stop) break;
      ++Served_;
      if (KillAfter >= 0 && Served_ >= KillAfter) {
        std::fprintf(stderr,
                     "omptarget-mpi-device (rank %d): OMPTARGET_MPI_TEST_KILL_AFTER=%lld: killing "
                     "this server\n",
                     T->rank(), static_cast<long long>(KillAfter));
        raise(SIGKILL);
      }
      if (HangAfter >= 0 && Served_ >= HangAfter) {
        std::fprintf(stderr,
                     "omptarget-mpi-device (rank %d): OMPTARGET_MPI_TEST_HANG_AFTER=%lld: not "
                     "answering any more requests\n",
                     T->rank(), static_cast<long long>(HangAfter));
        for (;;) pause();
      }
    }
  }
  KA.stop();
  T->close(true);
  return 0;
}

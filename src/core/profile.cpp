// The runtime's profile: thread logs, the Chrome trace writer and the
// summary at exit (contract and lock order in profile.h).
#include "profile.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "debug.h"
#include "env.h"
#include "futex_mutex.h"
#include "info.h"
#include "no_destroy.h"
#include "scoped_lock.h"
#include "thread_annotations.h"

#if OMPTARGET_HAVE_NVTX
#include <nvtx3/nvToolsExt.h>
#endif

namespace omptarget::core::profile {

namespace detail {
constinit std::atomic<int> State{-1};
}  // namespace detail

// State while the first caller reads the variables (enabled() then calls
// decide(), which waits).
constexpr int kDeciding = -2;

namespace {

struct Span {
  const char *Name;
  const ident_t *Loc;
  int64_t Device;
  uint64_t Begin, End;  // ns since the profile's start
};

struct ThreadLog {
  FutexMutex Mutex;
  uint32_t Number = 0;  // 1, 2, ... in the order threads first recorded
  std::vector<Span> Spans GUARDED_BY(Mutex);
};

struct Registry {
  FutexMutex Mutex;
  std::vector<std::unique_ptr<ThreadLog>> Logs GUARDED_BY(Mutex);
  std::string File;      // LIBOMPTARGET_PROFILE, empty: no file
  bool Summary = false;  // LIBOMPTARGET_PROFILE_SUMMARY
  std::chrono::steady_clock::time_point Start;
  std::atomic<bool> Flushed{false};
};

// Alive until the process ends: the writer runs from atexit, after which
// static destructors of other objects still record nothing.
Registry &registry() {
  static NoDestroy<Registry> R;
  return R.get();
}

thread_local ThreadLog *Mine = nullptr;

ThreadLog &myLog() {
  if (Mine) return *Mine;
  Registry &R = registry();
  ScopedLock Lock(R.Mutex);
  R.Logs.push_back(std::make_unique<ThreadLog>());
  Mine = R.Logs.back().get();
  Mine->Number = static_cast<uint32_t>(R.Logs.size());
  return *Mine;
}

void jsonString(std::string &Out, const char *S) {
  Out += '"';
  for (; *S; ++S) {
    unsigned char C = static_cast<unsigned char>(*S);
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += static_cast<char>(C);
    } else if (C < 0x20) {
      char Buf[8];
      std::snprintf(Buf, sizeof Buf, "\\u%04x", C);
      Out += Buf;
    } else {
      Out += static_cast<char>(C);
    }
  }
  Out += '"';
}

// "file:line:column" of a construct, or empty when the program was built
// without -g / -gline-tables-only (clang then records no location).
std::string locationText(const ident_t *Loc) {
  if (!Loc) return {};
  info::SourceLocation L = info::location(Loc);
  if (!L.Known) return {};
  return L.File + ":" + std::to_string(L.Line) + ":" + std::to_string(L.Column);
}

void appendMicros(std::string &Out, uint64_t Ns) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.3f", static_cast<double>(Ns) / 1e3);
  Out += Buf;
}

struct Snapshot {
  uint32_t Thread;
  Span S;
};

struct Recorded {
  std::vector<Snapshot> Spans;  // by start time: the file's order
  uint32_t Threads = 0;         // the threads that recorded (numbered 1..Threads)
};

// Every recorded span and the number of threads, taken at once under the
// locks in their order.
Recorded snapshot(Registry &R) {
  Recorded All;
  {
    ScopedLock Lock(R.Mutex);
    All.Threads = static_cast<uint32_t>(R.Logs.size());
    for (auto &Log : R.Logs) {
      ScopedLock LogLock(Log->Mutex);
      for (const Span &S : Log->Spans) All.Spans.push_back({Log->Number, S});
    }
  }
  std::stable_sort(All.Spans.begin(), All.Spans.end(),
                   [](const Snapshot &A, const Snapshot &B) { return A.S.Begin < B.S.Begin; });
  return All;
}

// A span's name in the file and the summary: an entry point's "__tgt_a_b"
// becomes the construct's "a b" ("target teams nowait", "target data
// begin"); runtime calls keep theirs ("omp_target_alloc").
std::string displayName(const char *Name) {
  constexpr std::string_view Entry = "__tgt_";
  std::string_view N = Name;
  if (!N.starts_with(Entry)) return std::string(N);
  std::string S(N.substr(Entry.size()));
  std::replace(S.begin(), S.end(), '_', ' ');
  return S;
}

void writeTrace(const Registry &R, const std::vector<Snapshot> &All, uint32_t Threads) {
  std::FILE *F = std::fopen(R.File.c_str(), "w");
  if (!F) {
    debug::warning("LIBOMPTARGET_PROFILE=%s: cannot open the file for writing; no profile written",
                   R.File.c_str());
    return;
  }
  std::string Out;
  Out.reserve(256 + All.size() * 128);
  Out += "{\"traceEvents\":[\n";
  Out += R"({"ph":"M","name":"process_name","pid":0,"args":{"name":"host"}})";
  for (uint32_t T = 1; T <= Threads; ++T) {
    Out += ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":0,\"tid\":" + std::to_string(T) +
           ",\"args\":{\"name\":\"host thread " + std::to_string(T) + "\"}}";
  }
  std::map<const ident_t *, std::string> Locations;
  for (const Snapshot &E : All) {
    Out += ",\n{\"ph\":\"X\",\"pid\":0,\"tid\":" + std::to_string(E.Thread) +
           ",\"cat\":\"host\",\"name\":";
    jsonString(Out, displayName(E.S.Name).c_str());
    Out += ",\"ts\":";
    appendMicros(Out, E.S.Begin);
    Out += ",\"dur\":";
    appendMicros(Out, E.S.End - E.S.Begin);
    Out += ",\"args\":{";
    bool Comma = false;
    if (E.S.Loc) {
      auto It = Locations.find(E.S.Loc);
      if (It == Locations.end()) It = Locations.emplace(E.S.Loc, locationText(E.S.Loc)).first;
      if (!It->second.empty()) {
        Out += "\"loc\":";
        jsonString(Out, It->second.c_str());
        Comma = true;
      }
    }
    if (E.S.Device >= 0) {
      if (Comma) Out += ',';
      Out += "\"device\":" + std::to_string(E.S.Device);
    }
    Out += "}}";
    if (Out.size() > (size_t(1) << 20)) {
      std::fwrite(Out.data(), 1, Out.size(), F);
      Out.clear();
    }
  }
  Out += "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"omptarget\",\"format\":1}}\n";
  std::fwrite(Out.data(), 1, Out.size(), F);
  if (std::fclose(F) != 0)
    debug::warning("LIBOMPTARGET_PROFILE=%s: writing the file failed; the profile is incomplete",
                   R.File.c_str());
}

// The name cut to Width characters, with a trailing '~' when longer.
std::string cut(const char *Name, size_t Width) {
  std::string S = Name;
  if (S.size() > Width) S = S.substr(0, Width - 1) + "~";
  return S;
}

// The table of LIBOMPTARGET_PROFILE_SUMMARY=1, laid out and computed as
// tools/omptarget-profile prints it from the file (tools/omptarget_profile/
// summary.py states the rules): host calls by total time descending, ties by
// name.
void printSummary(const std::vector<Snapshot> &All) {
  // Totals in microseconds, summed as doubles in the file's order from the
  // durations the file holds (ns / 1e3, which its 3 decimals give back
  // exactly): the tool's arithmetic, so both print the same digits.
  struct Row {
    uint64_t Calls = 0;
    double TotalUs = 0;
  };
  std::map<std::string, Row> Calls;
  for (const Snapshot &E : All) {
    Row &Rw = Calls[displayName(E.S.Name)];
    ++Rw.Calls;
    Rw.TotalUs += static_cast<double>(E.S.End - E.S.Begin) / 1e3;
  }
  std::vector<std::pair<std::string, Row>> Rows(Calls.begin(), Calls.end());
  std::stable_sort(Rows.begin(), Rows.end(),
                   [](const auto &A, const auto &B) { return A.second.TotalUs > B.second.TotalUs; });
  std::string Out = "omptarget profile summary\n";
  if (!Rows.empty()) {
    Out += "host\n";
    char Line[160];
    std::snprintf(Line, sizeof Line, "  %-40s%9s%11s%11s\n", "call", "calls", "total ms",
                  "mean us");
    Out += Line;
    for (const auto &[Name, Rw] : Rows) {
      std::snprintf(Line, sizeof Line, "  %-40s%9llu%11.3f%11.3f\n", cut(Name.c_str(), 40).c_str(),
                    static_cast<unsigned long long>(Rw.Calls), Rw.TotalUs / 1000.0,
                    Rw.TotalUs / static_cast<double>(Rw.Calls));
      Out += Line;
    }
  }
  std::fputs(Out.c_str(), stderr);
  std::fflush(stderr);
}

void flushAtExit() { flush(); }

}  // namespace

namespace detail {

int decide() {
  Registry &R = registry();
  int Expected = -1;
  if (!State.compare_exchange_strong(Expected, kDeciding)) {
    // Another thread decides; wait until it has set things up.
    while (State.load(std::memory_order_acquire) == kDeciding) {
    }
    return State.load(std::memory_order_relaxed);
  }
  std::optional<std::string> File = env::getString("LIBOMPTARGET_PROFILE");
  bool Summary = env::getInt("LIBOMPTARGET_PROFILE_SUMMARY", 0, 0, 1) != 0;
  int On = (File && !File->empty()) || Summary ? kRecord : 0;
  if (On & kRecord) {
    R.File = File ? *File : std::string();
    R.Summary = Summary;
    R.Start = std::chrono::steady_clock::now();
    std::atexit(flushAtExit);
    debug::setFatalHook(flushAtExit);
  }
  // NVTX: asked for, or a tool injected (nsys sets NVTX_INJECTION64_PATH).
  int64_t Nvtx = env::getInt("OMPTARGET_NVTX", -1, 0, 1);
  std::optional<std::string> Injection = env::getString("NVTX_INJECTION64_PATH");
  if (Nvtx == 1 || (Nvtx < 0 && Injection && !Injection->empty())) {
#if OMPTARGET_HAVE_NVTX
    On |= kNvtx;
#else
    if (Nvtx == 1)
      debug::warning("OMPTARGET_NVTX=1: this libomptarget was built without NVTX3's header "
                     "(nvtx3/nvToolsExt.h, from the CUDA toolkit): no NVTX ranges");
#endif
  }
  State.store(On, std::memory_order_release);
  return On;
}

uint64_t nowNs() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now() - registry().Start)
                                   .count());
}

void nvtxPush(const char *Name, const ident_t *Loc) {
#if OMPTARGET_HAVE_NVTX
  std::string Label = displayName(Name);
  if (std::string L = locationText(Loc); !L.empty()) Label += " " + L;
  nvtxRangePushA(Label.c_str());
#else
  (void)Name;
  (void)Loc;
#endif
}

void nvtxPop() {
#if OMPTARGET_HAVE_NVTX
  nvtxRangePop();
#endif
}

void record(const char *Name, const ident_t *Loc, int64_t Device, uint64_t Begin, uint64_t End) {
  if (registry().Flushed.load(std::memory_order_relaxed)) return;
  ThreadLog &Log = myLog();
  ScopedLock Lock(Log.Mutex);
  Log.Spans.push_back({Name, Loc, Device, Begin, End});
}

}  // namespace detail

void flush() {
  if (!(state() & kRecord)) return;
  Registry &R = registry();
  if (R.Flushed.exchange(true)) return;
  Recorded All = snapshot(R);
  if (!R.File.empty()) writeTrace(R, All.Spans, All.Threads);
  if (R.Summary) printSummary(All.Spans);
}

}  // namespace omptarget::core::profile

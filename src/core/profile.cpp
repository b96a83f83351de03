// The runtime's profile: thread logs, the Chrome trace writer and the
// summary at exit (contract and lock order in profile.h).
#include "profile.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "debug.h"
#include "device_properties.h"
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
  uint32_t Number = 0;    // 1, 2, ... in the order threads first recorded
  uint64_t OsThread = 0;  // gettid(), as plugins report an issuing thread
  std::vector<Span> Spans GUARDED_BY(Mutex);
};

// A device whose plugin reports its work; the plugin's callback context.
struct AttachedDevice {
  int32_t Device;
  std::string Label;
};

// One operation a plugin reported (times on the steady clock, absolute).
struct DeviceWork {
  int32_t Device;
  __tgt_device_op Op;  // Op.Name cleared: the name is Kernel
  std::string Kernel;
};

struct Registry {
  FutexMutex Mutex;
  std::vector<std::unique_ptr<ThreadLog>> Logs GUARDED_BY(Mutex);
  FutexMutex DeviceMutex;
  std::vector<std::unique_ptr<AttachedDevice>> Devices GUARDED_BY(DeviceMutex);
  std::vector<DeviceWork> Work GUARDED_BY(DeviceMutex);
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
  Mine->OsThread = static_cast<uint64_t>(::syscall(SYS_gettid));
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

// "path:line:column" of a construct (the whole path clang recorded, where
// messages print only the file's base name), or empty when the program was
// built without -g / -gline-tables-only (clang then records no location).
std::string locationText(const ident_t *Loc) {
  if (!Loc) return {};
  info::SourceLocation L = info::location(Loc);
  if (!L.Known) return {};
  return L.Path + ":" + std::to_string(L.Line) + ":" + std::to_string(L.Column);
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

// A device operation as the file shows it: times relative to the profile's
// start, on its track.
struct DeviceSpan {
  int32_t Device;
  uint32_t Track;  // tid in the file, 1.. per device
  uint64_t Begin, End;
  const DeviceWork *Work;
  const Snapshot *Issuer;  // the host span the flow arrow starts from, or null
  uint64_t IssueNs;        // relative, inside Issuer
};

struct Track {
  int32_t Device;
  uint32_t Tid;
  std::string Name;
};

struct Recorded {
  std::vector<Snapshot> Spans;  // by start time (outer before inner): the file's order
  uint32_t Threads = 0;         // the threads that recorded (numbered 1..Threads)
  std::vector<AttachedDevice> Devices;
  std::vector<DeviceWork> Work;
  std::vector<DeviceSpan> DeviceSpans;  // by device, then start time: the file's order
  std::vector<Track> Tracks;
  std::unordered_map<uint64_t, uint32_t> ThreadOf;  // gettid() -> thread number
};

uint64_t relativeNs(const Registry &R, uint64_t SteadyNs) {
  auto Start = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(R.Start.time_since_epoch()).count());
  return SteadyNs > Start ? SteadyNs - Start : 0;
}

// Puts each device operation on its track (a pooled queue, or the host
// thread that did it inline) and finds the host span it came from: the
// innermost span of the issuing thread that was open at the issue time.
void placeDeviceWork(const Registry &R, Recorded &All) {
  std::vector<std::vector<const Snapshot *>> ByThread(All.Threads + 1);
  for (const Snapshot &E : All.Spans) ByThread[E.Thread].push_back(&E);
  std::stable_sort(All.Work.begin(), All.Work.end(), [](const DeviceWork &A, const DeviceWork &B) {
    return A.Device != B.Device ? A.Device < B.Device : A.Op.Begin < B.Op.Begin;
  });
  std::map<std::pair<int32_t, std::pair<int32_t, uint64_t>>, uint32_t> TrackOf;
  std::map<int32_t, uint32_t> Queues, Tids;
  for (const DeviceWork &W : All.Work) {
    uint32_t IssuingThread = 0;
    if (auto It = All.ThreadOf.find(W.Op.IssueThread); It != All.ThreadOf.end())
      IssuingThread = It->second;
    const bool Inline = W.Op.QueueKind == __tgt_queue_inline;
    auto Key = std::make_pair(W.Device, std::make_pair(W.Op.QueueKind,
                                                       Inline ? W.Op.IssueThread : W.Op.Queue));
    auto [It, New] = TrackOf.emplace(Key, 0);
    if (New) {
      It->second = ++Tids[W.Device];
      std::string Name;
      if (!Inline)
        Name = "queue " + std::to_string(++Queues[W.Device]);
      else if (IssuingThread)
        Name = "inline on host thread " + std::to_string(IssuingThread);
      else
        Name = "inline on thread " + std::to_string(W.Op.IssueThread);
      All.Tracks.push_back({W.Device, It->second, std::move(Name)});
    }
    DeviceSpan D{W.Device,
                 It->second,
                 relativeNs(R, W.Op.Begin),
                 relativeNs(R, std::max(W.Op.End, W.Op.Begin)),
                 &W,
                 nullptr,
                 relativeNs(R, W.Op.IssueNs)};
    if (IssuingThread) {
      const auto &Spans = ByThread[IssuingThread];
      auto After = std::upper_bound(Spans.begin(), Spans.end(), D.IssueNs,
                                    [](uint64_t T, const Snapshot *E) { return T < E->S.Begin; });
      // The latest-starting open span is the innermost (a thread's spans
      // nest); a few steps back suffice in practice.
      for (int Steps = 0; After != Spans.begin() && Steps < 64; ++Steps) {
        const Snapshot *E = *--After;
        if (E->S.End >= D.IssueNs) {
          D.Issuer = E;
          break;
        }
      }
    }
    All.DeviceSpans.push_back(D);
  }
}

// Every recorded span, the number of threads and the devices' work, taken
// at once under the locks in their order.
Recorded snapshot(Registry &R) {
  Recorded All;
  {
    ScopedLock Lock(R.Mutex);
    All.Threads = static_cast<uint32_t>(R.Logs.size());
    for (auto &Log : R.Logs) {
      All.ThreadOf.emplace(Log->OsThread, Log->Number);
      ScopedLock LogLock(Log->Mutex);
      for (const Span &S : Log->Spans) All.Spans.push_back({Log->Number, S});
    }
    ScopedLock DeviceLock(R.DeviceMutex);
    for (auto &D : R.Devices) All.Devices.push_back(*D);
    All.Work = R.Work;
  }
  std::stable_sort(All.Spans.begin(), All.Spans.end(), [](const Snapshot &A, const Snapshot &B) {
    return A.S.Begin != B.S.Begin ? A.S.Begin < B.S.Begin : A.S.End > B.S.End;
  });
  placeDeviceWork(R, All);
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

const char *categoryOf(int32_t Kind) {
  switch (Kind) {
    case __tgt_op_copy_to_device:
    case __tgt_op_copy_from_device:
    case __tgt_op_copy_device: return "copy";
    case __tgt_op_kernel: return "kernel";
    case __tgt_op_alloc: return "alloc";
    case __tgt_op_free: return "free";
  }
  return "other";
}

const char *directionOf(int32_t Kind) {
  switch (Kind) {
    case __tgt_op_copy_to_device: return "h2d";
    case __tgt_op_copy_from_device: return "d2h";
    case __tgt_op_copy_device: return "d2d";
  }
  return "?";
}

const char *routeOf(int32_t Route) {
  switch (Route) {
    case __tgt_route_pageable: return "pageable";
    case __tgt_route_pinned: return "pinned";
    case __tgt_route_staged: return "staged";
    case __tgt_route_device: return "device";
  }
  return "?";
}

// "512 B", "4.0 KiB", "1.5 MiB": a copy's or an allocation's size in its name.
std::string sizeText(int64_t Bytes) {
  std::string Binary = props::binarySize(static_cast<uint64_t>(std::max<int64_t>(Bytes, 0)));
  return Binary.empty() ? std::to_string(Bytes) + " B" : Binary;
}

std::string deviceSpanName(const DeviceSpan &D) {
  const __tgt_device_op &Op = D.Work->Op;
  switch (Op.Kind) {
    case __tgt_op_kernel: return D.Work->Kernel.empty() ? "kernel" : D.Work->Kernel;
    case __tgt_op_alloc: return "alloc " + sizeText(Op.Bytes);
    case __tgt_op_free: return Op.Bytes > 0 ? "free " + sizeText(Op.Bytes) : "free";
  }
  return std::string(directionOf(Op.Kind)) + " " + sizeText(Op.Bytes);
}

void metadata(std::string &Out, const char *What, int64_t Pid, int64_t Tid,
              const std::string &Name) {
  Out += ",\n{\"ph\":\"M\",\"name\":\"";
  Out += What;
  Out += "\",\"pid\":" + std::to_string(Pid);
  if (Tid >= 0) Out += ",\"tid\":" + std::to_string(Tid);
  Out += ",\"args\":{\"name\":";
  jsonString(Out, Name.c_str());
  Out += "}}";
}

constexpr int64_t kDevicePidBase = 1000;

void appendDeviceSpan(std::string &Out, const DeviceSpan &D) {
  const __tgt_device_op &Op = D.Work->Op;
  Out += ",\n{\"ph\":\"X\",\"pid\":" + std::to_string(kDevicePidBase + D.Device) +
         ",\"tid\":" + std::to_string(D.Track) + ",\"cat\":\"" + categoryOf(Op.Kind) +
         "\",\"name\":";
  jsonString(Out, deviceSpanName(D).c_str());
  Out += ",\"ts\":";
  appendMicros(Out, D.Begin);
  Out += ",\"dur\":";
  appendMicros(Out, D.End - D.Begin);
  Out += ",\"args\":{";
  if (Op.Kind == __tgt_op_kernel) {
    Out += "\"kernel\":";
    jsonString(Out, D.Work->Kernel.c_str());
    Out += ",\"teams\":" + std::to_string(Op.Teams) + ",\"threads\":" + std::to_string(Op.Threads);
  } else {
    Out += "\"bytes\":" + std::to_string(Op.Bytes);
    if (std::string_view(categoryOf(Op.Kind)) == "copy") {
      Out += ",\"direction\":\"";
      Out += directionOf(Op.Kind);
      Out += "\",\"route\":\"";
      Out += routeOf(Op.Route);
      Out += '"';
    }
  }
  Out += "}}";
}

void appendFlow(std::string &Out, size_t Id, const DeviceSpan &D) {
  std::string Ident = std::to_string(Id);
  Out += ",\n{\"ph\":\"s\",\"id\":" + Ident +
         ",\"pid\":0,\"tid\":" + std::to_string(D.Issuer->Thread) + ",\"ts\":";
  appendMicros(Out, std::max(D.IssueNs, D.Issuer->S.Begin));
  Out += ",\"cat\":\"flow\",\"name\":\"offload\"}";
  Out += ",\n{\"ph\":\"f\",\"bp\":\"e\",\"id\":" + Ident +
         ",\"pid\":" + std::to_string(kDevicePidBase + D.Device) +
         ",\"tid\":" + std::to_string(D.Track) + ",\"ts\":";
  appendMicros(Out, D.Begin);
  Out += ",\"cat\":\"flow\",\"name\":\"offload\"}";
}

void writeTrace(const Registry &R, const Recorded &All) {
  std::FILE *F = std::fopen(R.File.c_str(), "w");
  if (!F) {
    debug::warning("LIBOMPTARGET_PROFILE=%s: cannot open the file for writing; no profile written",
                   R.File.c_str());
    return;
  }
  std::string Out;
  Out.reserve(256 + (All.Spans.size() + All.DeviceSpans.size()) * 160);
  Out += "{\"traceEvents\":[\n";
  Out += R"({"ph":"M","name":"process_name","pid":0,"args":{"name":"host"}})";
  for (uint32_t T = 1; T <= All.Threads; ++T)
    metadata(Out, "thread_name", 0, T, "host thread " + std::to_string(T));
  for (const AttachedDevice &D : All.Devices)
    metadata(Out, "process_name", kDevicePidBase + D.Device, -1, D.Label);
  for (const Track &T : All.Tracks)
    metadata(Out, "thread_name", kDevicePidBase + T.Device, T.Tid, T.Name);
  auto Spill = [&] {
    if (Out.size() > (size_t(1) << 20)) {
      std::fwrite(Out.data(), 1, Out.size(), F);
      Out.clear();
    }
  };
  std::map<const ident_t *, std::string> Locations;
  for (const Snapshot &E : All.Spans) {
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
    Spill();
  }
  for (const DeviceSpan &D : All.DeviceSpans) {
    appendDeviceSpan(Out, D);
    Spill();
  }
  size_t Flow = 0;
  for (const DeviceSpan &D : All.DeviceSpans) {
    if (!D.Issuer) continue;
    appendFlow(Out, ++Flow, D);
    Spill();
  }
  Out +=
      "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"omptarget\",\"format\":1}}\n";
  std::fwrite(Out.data(), 1, Out.size(), F);
  if (std::fclose(F) != 0)
    debug::warning("LIBOMPTARGET_PROFILE=%s: writing the file failed; the profile is incomplete",
                   R.File.c_str());
}

// The summary's arithmetic, as tools/omptarget_profile/summary.py does it
// on the file: durations in microseconds as the file holds them (ns / 1e3,
// which its 3 decimals give back exactly), summed as doubles in file order.
double fileMicros(uint64_t Ns) { return static_cast<double>(Ns) / 1e3; }

// The name cut to Width characters, with a trailing '~' when longer.
std::string cut(const std::string &Name, size_t Width) {
  if (Name.size() <= Width) return Name;
  return Name.substr(0, Width - 1) + "~";
}

std::string ms(double Us) {
  char Buf[48];
  std::snprintf(Buf, sizeof Buf, "%.3f", Us / 1000.0);
  return Buf;
}

std::string us(double Us) {
  char Buf[48];
  std::snprintf(Buf, sizeof Buf, "%.3f", Us);
  return Buf;
}

std::string gbps(int64_t Bytes, double Us) {
  if (Us == 0) return "-";
  char Buf[48];
  std::snprintf(Buf, sizeof Buf, "%.2f", static_cast<double>(Bytes) / Us / 1000.0);
  return Buf;
}

template <typename... Args>
void line(std::string &Out, const char *Format, Args... A) {
  char Buf[512];
  std::snprintf(Buf, sizeof Buf, Format, A...);
  Out += Buf;
  Out += '\n';
}

// Calls, total and longest duration of one name; a kernel's launch shapes.
struct CallStats {
  uint64_t Calls = 0;
  double Total = 0, Max = 0;
  std::vector<std::pair<std::string, uint64_t>> Shapes;  // first-seen order

  void add(double Dur) {
    ++Calls;
    Total += Dur;
    Max = std::max(Max, Dur);
  }
  void addShape(const std::string &Shape) {
    for (auto &[S, N] : Shapes)
      if (S == Shape) {
        ++N;
        return;
      }
    Shapes.emplace_back(Shape, 1);
  }
  // The most frequent shape (ties: the first seen), "(+N more)" for the others.
  std::string shape() const {
    uint64_t Best = 0;
    for (const auto &[S, N] : Shapes) Best = std::max(Best, N);
    for (const auto &[S, N] : Shapes)
      if (N == Best)
        return Shapes.size() > 1 ? S + " (+" + std::to_string(Shapes.size() - 1) + " more)" : S;
    return "?";
  }
};

struct SizedStats {
  uint64_t Count = 0;
  int64_t Bytes = 0;
  double Total = 0;
};

template <typename Map>
std::vector<std::pair<std::string, CallStats>> byTotal(const Map &M) {
  std::vector<std::pair<std::string, CallStats>> Rows(M.begin(), M.end());  // by name
  std::stable_sort(Rows.begin(), Rows.end(),
                   [](const auto &A, const auto &B) { return A.second.Total > B.second.Total; });
  return Rows;
}

void deviceSummary(std::string &Out, const std::string &Label,
                   const std::vector<const DeviceSpan *> &Spans) {
  std::map<std::string, CallStats> Kernels;
  std::map<std::pair<std::string, std::string>, SizedStats> Transfers;
  SizedStats Memory[2];
  bool HasMemory[2] = {false, false};
  for (const DeviceSpan *D : Spans) {
    const __tgt_device_op &Op = D->Work->Op;
    double Dur = fileMicros(D->End - D->Begin);
    std::string_view Cat = categoryOf(Op.Kind);
    if (Cat == "kernel") {
      CallStats &K = Kernels[deviceSpanName(*D)];
      K.add(Dur);
      K.addShape(std::to_string(Op.Teams) + " x " + std::to_string(Op.Threads));
    } else if (Cat == "copy" || Cat == "alloc" || Cat == "free") {
      SizedStats *Row;
      if (Cat == "copy") {
        Row = &Transfers[{directionOf(Op.Kind), routeOf(Op.Route)}];
      } else {
        int I = Cat == "alloc" ? 0 : 1;
        HasMemory[I] = true;
        Row = &Memory[I];
      }
      ++Row->Count;
      Row->Bytes += Op.Bytes;
      Row->Total += Dur;
    }
  }
  if (Kernels.empty() && Transfers.empty() && !HasMemory[0] && !HasMemory[1]) return;
  Out += Label + "\n";
  if (!Kernels.empty()) {
    line(Out, "  %-40s%9s%11s%11s%11s  %s", "kernel", "calls", "total ms", "mean us", "max us",
         "teams x threads");
    for (const auto &[Name, K] : byTotal(Kernels))
      line(Out, "  %-40s%9llu%11s%11s%11s  %s", cut(Name, 40).c_str(),
           static_cast<unsigned long long>(K.Calls), ms(K.Total).c_str(),
           us(K.Total / static_cast<double>(K.Calls)).c_str(), us(K.Max).c_str(),
           K.shape().c_str());
  }
  if (!Transfers.empty()) {
    line(Out, "  %-10s%-8s%10s%15s%11s%11s", "transfer", "route", "count", "bytes", "total ms",
         "GB/s");
    auto Rank = [](const std::string &Dir) {
      return Dir == "h2d" ? 0 : Dir == "d2h" ? 1 : Dir == "d2d" ? 2 : 3;
    };
    std::vector<std::pair<std::pair<std::string, std::string>, SizedStats>> Rows(Transfers.begin(),
                                                                                 Transfers.end());
    std::stable_sort(Rows.begin(), Rows.end(), [&](const auto &A, const auto &B) {
      return Rank(A.first.first) < Rank(B.first.first);
    });
    for (const auto &[Key, T] : Rows)
      line(Out, "  %-10s%-8s%10llu%15lld%11s%11s", cut(Key.first, 10).c_str(),
           cut(Key.second, 8).c_str(), static_cast<unsigned long long>(T.Count),
           static_cast<long long>(T.Bytes), ms(T.Total).c_str(), gbps(T.Bytes, T.Total).c_str());
  }
  if (HasMemory[0] || HasMemory[1]) {
    line(Out, "  %-18s%10s%15s%11s", "alloc/free", "count", "bytes", "total ms");
    const char *Names[2] = {"alloc", "free"};
    for (int I = 0; I < 2; ++I)
      if (HasMemory[I])
        line(Out, "  %-18s%10llu%15lld%11s", Names[I],
             static_cast<unsigned long long>(Memory[I].Count),
             static_cast<long long>(Memory[I].Bytes), ms(Memory[I].Total).c_str());
  }
}

// The table of LIBOMPTARGET_PROFILE_SUMMARY=1, laid out and computed as
// tools/omptarget-profile prints it from the file (tools/omptarget_profile/
// summary.py states the rules): each device with work, then the host's
// calls by total time descending (ties by name) and the host time spent in
// the runtime (the outermost spans of each thread).
void printSummary(const Recorded &All) {
  std::string Out = "omptarget profile summary\n";
  std::map<int32_t, std::string> Labels;
  for (const AttachedDevice &D : All.Devices) Labels[D.Device] = D.Label;
  std::map<int32_t, std::vector<const DeviceSpan *>> PerDevice;
  for (const DeviceSpan &D : All.DeviceSpans) PerDevice[D.Device].push_back(&D);
  for (const auto &[Device, Spans] : PerDevice) {
    auto It = Labels.find(Device);
    deviceSummary(Out, It != Labels.end() ? It->second : "device " + std::to_string(Device), Spans);
  }
  std::map<std::string, CallStats> Calls;
  std::map<uint32_t, double> OuterEnd;  // per thread: where its open outermost span ends
  double InRuntime = 0;
  for (const Snapshot &E : All.Spans) {
    double Ts = fileMicros(E.S.Begin), Dur = fileMicros(E.S.End - E.S.Begin);
    Calls[displayName(E.S.Name)].add(Dur);
    auto It = OuterEnd.find(E.Thread);
    if (It == OuterEnd.end() || Ts >= It->second) {
      InRuntime += Dur;
      OuterEnd[E.Thread] = Ts + Dur;
    }
  }
  if (!Calls.empty()) {
    Out += "host\n";
    line(Out, "  %-40s%9s%11s%11s", "call", "calls", "total ms", "mean us");
    for (const auto &[Name, C] : byTotal(Calls))
      line(Out, "  %-40s%9llu%11s%11s", cut(Name, 40).c_str(),
           static_cast<unsigned long long>(C.Calls), ms(C.Total).c_str(),
           us(C.Total / static_cast<double>(C.Calls)).c_str());
    line(Out, "  in the runtime: %s ms of host time (outermost calls of every thread)",
         ms(InRuntime).c_str());
  }
  std::fputs(Out.c_str(), stderr);
  std::fflush(stderr);
}

// The plugin's callback (profile_device): one finished device operation.
void onDeviceWork(void *Ctx, const __tgt_device_op *Op) {
  Registry &R = registry();
  if (!Op || !Ctx || R.Flushed.load(std::memory_order_relaxed)) return;
  DeviceWork W{static_cast<const AttachedDevice *>(Ctx)->Device, *Op,
               Op->Name ? std::string(Op->Name) : std::string()};
  W.Op.Name = nullptr;
  ScopedLock Lock(R.DeviceMutex);
  R.Work.push_back(std::move(W));
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
      debug::warning(
          "OMPTARGET_NVTX=1: this libomptarget was built without NVTX3's header "
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
  if (!R.File.empty()) writeTrace(R, All);
  if (R.Summary) printSummary(All);
}

void attachDevice(int32_t Device, std::string Label, ProfileDeviceFn ProfileDevice,
                  int32_t PluginDeviceId) {
  if (!recording() || !ProfileDevice) return;
  Registry &R = registry();
  AttachedDevice *D;
  {
    ScopedLock Lock(R.DeviceMutex);
    R.Devices.push_back(std::make_unique<AttachedDevice>(AttachedDevice{Device, std::move(Label)}));
    D = R.Devices.back().get();
  }
  if (ProfileDevice(PluginDeviceId, OMPTARGET_DEVICE_OP_VERSION, onDeviceWork, D) !=
      abi::kOffloadSuccess)
    debug::warning(
        "LIBOMPTARGET_PROFILE: device %d: its plugin cannot time its work; the profile "
        "has no device tracks for it",
        Device);
}

}  // namespace omptarget::core::profile

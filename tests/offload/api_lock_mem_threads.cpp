// API: locked host memory from several threads (C++). Each thread of an
// `omp parallel` locks its own slice of one buffer (inside a lock of the
// whole buffer made before: nested, reference-counted), and runs `target
// teams distribute parallel for nowait` regions on its slice and on a second
// locked buffer, waited for with taskwait; meanwhile all threads lock and
// unlock one shared range over and over (its reference count under
// contention). Every value is checked after the regions; the locks all end
// released: a range across all the slices and past A's end is then locked
// afresh (it would be refused if a lock were left over). No message is
// printed.
// LLVM 14's host plugin (our-core-llvm-plugin) runs only part of a league
// launched from these threads (launch_teams_nowait.c), with or without locks.
// REQUIRES: omptarget-core
// UNSUPPORTED: !omptarget-plugin
// RUN: %clangxx-offload -L%libdir %s -o %t && %run %t 2>&1 | %fcheck --implicit-check-not=error --implicit-check-not=FAILED
#include <omptarget/omp_target_ext.h>

#include <atomic>
#include <cstdio>
#include <vector>

namespace {
constexpr int kThreads = 4, kSlice = 1 << 16, kRounds = 8;

std::atomic<int> Failures{0};
void expect(bool Ok, const char *What) {
  if (!Ok) {
    std::printf("FAILED: %s\n", What);
    ++Failures;
  }
}
}  // namespace

int main() {
  std::setbuf(stdout, nullptr);
  const int Dev = omp_get_default_device();
  // A: the first kThreads slices of Storage (one slice more follows it).
  std::vector<double> Storage(size_t(kThreads + 1) * kSlice), B(size_t(kThreads) * kSlice);
  const size_t ASize = size_t(kThreads) * kSlice;
  double *A = Storage.data();
  std::vector<int> Shared(256);
  for (size_t I = 0; I < ASize; ++I) A[I] = double(I), B[I] = 0;
  expect(llvm_omp_target_lock_mem(A, ASize * sizeof(double), Dev) != nullptr, "lock A");
  expect(llvm_omp_target_lock_mem(B.data(), B.size() * sizeof(double), Dev) != nullptr, "lock B");

#pragma omp parallel num_threads(kThreads)
  {
    const int T = omp_get_thread_num();
    double *Mine = A + size_t(T) * kSlice;
    double *Out = B.data() + size_t(T) * kSlice;
    expect(llvm_omp_target_lock_mem(Mine, kSlice * sizeof(double), Dev) != nullptr, "lock slice");
    for (int R = 0; R < kRounds; ++R) {
#pragma omp target teams distribute parallel for nowait map(tofrom : Mine[0:kSlice]) depend(inout : Mine[0])
      for (int I = 0; I < kSlice; ++I) Mine[I] += 1.0;
#pragma omp target teams distribute parallel for nowait map(to : Mine[0:kSlice]) map(tofrom : Out[0:kSlice]) depend(in : Mine[0]) depend(inout : Out[0])
      for (int I = 0; I < kSlice; ++I) Out[I] += Mine[I];
      // The shared range: a reference taken and dropped (through an interior
      // pointer) while the other threads do the same.
      int *S = static_cast<int *>(llvm_omp_target_lock_mem(Shared.data(), 64 * sizeof(int), Dev));
      expect(S != nullptr, "lock of the shared range");
      llvm_omp_target_unlock_mem(Shared.data() + T, Dev);
    }
#pragma omp taskwait
    llvm_omp_target_unlock_mem(Mine + kSlice / 2, Dev);
  }

  bool Ok = true;
  for (int T = 0; T < kThreads; ++T)
    for (int I = 0; I < kSlice; ++I) {
      const double Base = double(size_t(T) * kSlice + I);
      Ok &= A[size_t(T) * kSlice + I] == Base + kRounds;
      // Out gains Mine after each round: sum over r of (Base + r).
      Ok &= B[size_t(T) * kSlice + I] == kRounds * Base + kRounds * (kRounds + 1) / 2;
    }
  expect(Ok, "results of the nowait regions");
  // CHECK: nowait regions on locked buffers: ok
  std::printf("nowait regions on locked buffers: %s\n", Ok ? "ok" : "wrong");

  llvm_omp_target_unlock_mem(A, Dev);
  llvm_omp_target_unlock_mem(B.data() + 5, Dev);
  // Every reference is gone: a range over every slice and past A's end is new.
  void *Across = llvm_omp_target_lock_mem(A + kSlice / 2, ASize * sizeof(double), Dev);
  expect(Across != nullptr, "a range across the slices locked afresh");
  llvm_omp_target_unlock_mem(A + kSlice / 2, Dev);
  // CHECK: done failures=0
  std::printf("done failures=%d\n", Failures.load());
  return Failures != 0;
}

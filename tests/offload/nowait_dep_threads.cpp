// `target nowait` regions from 4 host threads (`omp parallel
// num_threads(4)`), each thread with its own dependence chain, and a
// dependence between threads carried by `taskgroup` / `taskwait` and a
// barrier:
//   phase 1  each thread T chains K regions on its own vector
//            (map(tofrom), depend(inout: own[0]), v = v * 2 + k + 1), and
//            writes its slice of one shared array S in a region that
//            depends on the chain's last (S[T*n + i] = own[i] ^ T), all
//            inside a taskgroup (odd rounds: followed by taskwait instead);
//   barrier
//   phase 2  each thread reads the slice of the next thread, written by that
//            thread's phase 1, in a nowait region (map(to: S slice),
//            map(from: its own result)), and a host task depend(in: result)
//            checks it against the host's replay of the other thread's chain.
// The end of a taskgroup (or a taskwait) must mean that the thread's regions
// are whole, copy back included: the barrier then publishes them to the
// other threads. A thread's chain whose regions overlapped, or a taskgroup
// that ended while a region's copy back was still running, leaves wrong
// values in its own vector or in the shared slice that another thread reads.
//
// Sizes: 7 elements and 256 Ki elements (1 MiB) per thread (4 MiB shared),
// 4 rounds; on the asynchronous host device copies and kernels run on worker
// threads after the call returns, and the second RUN line delays each of
// their operations (ignored elsewhere).
//
// LLVM 14's host plugin runs the kernel of a `target parallel` region on the
// hidden helper thread that runs the region's task, its parallel region nested
// (serialized) there; libomp 14 then now and then gives a `nowait` task
// created meanwhile no task team and aborts ("Assertion failure at
// kmp_tasking.cpp(3812): task_team != __null"; this test: in 2 runs of 10 on
// an idle machine, 3 of 20 with CPU hogs, whichever core runs). Our host
// plugin runs these kernels (clang 14 launches them as teams regions of one
// team) on a runner or queue worker thread of its own, outside every parallel
// region.
// UNSUPPORTED: !omptarget-plugin
// RUN: %clangxx-offload -O1 %s -o %t
// RUN: %run timeout 60 %t 2>&1 | %fcheck
// RUN: %run env OMPTARGET_HOST_ASYNC_DELAY_US=50 timeout 60 %t 2>&1 | %fcheck
#include <omp.h>

#include <cstdio>
#include <vector>

namespace {

constexpr int kThreads = 4, kSteps = 6, kRounds = 4;
constexpr int kSmall = 7, kLarge = 256 * 1024;

unsigned initial(int T, int I, int Round) { return unsigned(T * 100003 + I * 7 + Round); }

unsigned afterChain(int T, int I, int Round) {
  unsigned V = initial(T, I, Round);
  for (int K = 0; K < kSteps; ++K) V = V * 2u + unsigned(K + 1);
  return V;
}

// The value thread T reads from thread U's slice in phase 2.
unsigned phase2(int U, int I, int Round) { return (afterChain(U, I, Round) ^ unsigned(U)) + 11u; }

// Phase 1 of thread T: its chain and its slice of the shared array.
void chainAndPublish(unsigned *Own, unsigned *Shared, int N, int T) {
  for (int K = 0; K < kSteps; ++K) {
    if (K % 2 == 0) {
#pragma omp target parallel for map(tofrom : Own[0:N]) depend(inout : Own[0]) nowait
      for (int I = 0; I < N; ++I) Own[I] = Own[I] * 2u + unsigned(K + 1);
    } else {
#pragma omp target map(tofrom : Own[0:N]) depend(inout : Own[0]) nowait
      for (int I = 0; I < N; ++I) Own[I] = Own[I] * 2u + unsigned(K + 1);
    }
  }
  unsigned *Slice = Shared + T * N;
#pragma omp target parallel for map(to : Own[0:N]) map(from : Slice[0:N]) depend(in : Own[0]) nowait
  for (int I = 0; I < N; ++I) Slice[I] = Own[I] ^ unsigned(T);
}

long runSize(int N, std::vector<unsigned> &Shared) {
  long Bad = 0;
#pragma omp parallel num_threads(kThreads) reduction(+ : Bad)
  {
    const int T = omp_get_thread_num();
    const int U = (T + 1) % kThreads;
    std::vector<unsigned> Own(N), Result(N);
    unsigned *S = Shared.data();
    for (int Round = 0; Round < kRounds; ++Round) {
      for (int I = 0; I < N; ++I) Own[I] = initial(T, I, Round);
      unsigned *O = Own.data();
      if (Round % 2 == 0) {
#pragma omp taskgroup
        chainAndPublish(O, S, N, T);
      } else {
        chainAndPublish(O, S, N, T);
#pragma omp taskwait
      }
      long OwnBad = 0;
      for (int I = 0; I < N; ++I) OwnBad += Own[I] != afterChain(T, I, Round);
      // Every thread's slice is complete once every thread is past this.
#pragma omp barrier
      unsigned *R = Result.data();
      const unsigned *Theirs = S + U * N;
      long ReadBad = 0;
#pragma omp target parallel for map(to : Theirs[0:N]) map(from : R[0:N]) depend(out : R[0]) nowait
      for (int I = 0; I < N; ++I) R[I] = Theirs[I] + 11u;
#pragma omp task depend(in : R[0]) shared(ReadBad)
      for (int I = 0; I < N; ++I) ReadBad += R[I] != phase2(U, I, Round);
#pragma omp taskwait
      Bad += OwnBad + ReadBad;
      // Nobody writes the shared array again until everyone has read it.
#pragma omp barrier
    }
  }
  return Bad;
}

}  // namespace

int main() {
  std::setbuf(stdout, nullptr);  // the line is out even if the exit crashes
  std::vector<unsigned> Shared(kThreads * kLarge);
  long Small = runSize(kSmall, Shared);
  long Large = runSize(kLarge, Shared);
  // CHECK: nowait_dep_threads: threads=4 small bad=0 large bad=0
  std::printf("nowait_dep_threads: threads=%d small bad=%ld large bad=%ld\n", kThreads, Small,
              Large);
  return Small + Large != 0;
}

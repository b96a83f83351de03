// exit() while offload work is in flight never crashes the runtime: the
// library destructor closes the runtime's gate, waits for the calls in flight
// and destroys the runtime only when none is left (src/core/runtime.h).
//  - nowait: exit() right after a `target nowait` region was created, so its
//    hidden-helper task starts while the library destructor runs (this
//    crashed in 36 of 40 runs with LIBOMPTARGET_PROFILE set, which makes the
//    exit path longer, before the gate existed);
//  - threads: exit() from main while four other threads offload in a loop
//    (plain target regions: libomp 14 itself aborts in 1 of 10 runs when a
//    thread is inside a parallel region at exit(), with or without offload);
//  - starting: exit() from main as those four threads start, so that their
//    first regions run while libomp shuts down in its library destructor
//    (before the runtime asked libomp no more once exit() had begun, libomp
//    14 aborted in 47 of 200 runs: "Assertion failure at
//    kmp_runtime.cpp(7163)", initialising again under threads it still had);
//  - never-unmapped: exit() with data still mapped by `enter data`;
//  - quick_exit: quick_exit() right after a `target nowait` region (no
//    destructor runs: the region may still be running when the process ends);
//  - fatal: a fatal offload error (a mapping larger than any device) in main
//    while four other threads offload: the error is reported and the process
//    aborts, with the profile written (no hang, no other crash).
// Each must exit with the program's status (3), 20 times over, both with the
// profile on and off, and print nothing from the runtime.
//
// LLVM 14's core fails the nowait case every time ("Host ptr ... does not
// have a matching target pointer", then a fatal error: the region starts
// after the program unregistered its binary) and segfaults in the threads
// case; LLVM 14's host plugin unloads its images in its own static
// destructor, which runs at exit before the region does (segfault, with
// either core).
// UNSUPPORTED: runtime-llvm, runtime-llvm-core-our-plugin, runtime-our-core-llvm-plugin
// LLVM 19 segfaults at exit in the nowait and threads cases (every run).
// XFAIL: runtime-llvm19
// RUN: %clang-offload %s -o %t -lpthread
// RUN: %run sh -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do %t nowait || test $? = 3 || { echo "nowait: status $?"; exit 1; }; done; echo nowait ok' 2>&1 | %fcheck --check-prefix=NOWAIT
// RUN: %run sh -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do LIBOMPTARGET_PROFILE=%t.json %t nowait || test $? = 3 || { echo "nowait profile: status $?"; exit 1; }; done; echo nowait profile ok' 2>&1 | %fcheck --check-prefix=NOWAITPROF
// RUN: %run sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do %t threads || test $? = 3 || { echo "threads: status $?"; exit 1; }; done; echo threads ok' 2>&1 | %fcheck --check-prefix=THREADS
// RUN: %run sh -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do %t starting || test $? = 3 || { echo "starting: status $?"; exit 1; }; done; echo starting ok' 2>&1 | %fcheck --check-prefix=STARTING
// RUN: %run sh -c '%t mapped || test $? = 3 && echo mapped ok' 2>&1 | %fcheck --check-prefix=MAPPED
// RUN: %run sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do %t quick || test $? = 3 || { echo "quick: status $?"; exit 1; }; done; echo quick ok' 2>&1 | %fcheck --check-prefix=QUICK
// RUN: rm -f %t.fatal.json
// RUN: %run env LIBOMPTARGET_PROFILE=%t.fatal.json not --crash %t fatal 2>&1 | %fcheck --check-prefix=FATAL
// RUN: python3 -c 'import json,sys; json.load(open(sys.argv[1])); print("fatal profile: json ok")' %t.fatal.json | %fcheck --check-prefix=FATALJSON
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { N = 1 << 16 };

static void *offloadForever(void *Arg) {
  (void)Arg;
  double *X = calloc(N, sizeof(double));
  for (;;) {
#pragma omp target map(tofrom : X[0:N])
    for (int I = 0; I < N; ++I) X[I] += 1.0;
  }
  return NULL;
}

// A nowait region whose hidden-helper task may still be waiting to start.
static void startNowaitRegion(void) {
  static double A[N], B[N];
  for (int I = 0; I < N; ++I) A[I] = I;
#pragma omp target teams distribute parallel for nowait map(to : A) map(from : B)
  for (int I = 0; I < N; ++I) B[I] = 2 * A[I];
}

// Four threads offloading in a loop, given Warmup microseconds to get going.
static void startOffloadingThreads(useconds_t Warmup) {
  pthread_t T[4];
  for (int I = 0; I < 4; ++I) pthread_create(&T[I], NULL, offloadForever, NULL);
  if (Warmup) usleep(Warmup);
}

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "";
  if (!strcmp(Mode, "nowait")) {
    startNowaitRegion();
    exit(3);
  }
  if (!strcmp(Mode, "threads")) {
    startOffloadingThreads(20000);
    exit(3);
  }
  if (!strcmp(Mode, "starting")) {
    startOffloadingThreads(0);
    exit(3);
  }
  if (!strcmp(Mode, "mapped")) {
    double *X = calloc(N, sizeof(double));
#pragma omp target enter data map(to : X[0:N])
#pragma omp target
    X[0] = 1;
    exit(3);
  }
  if (!strcmp(Mode, "quick")) {
    startNowaitRegion();
    quick_exit(3);
  }
  if (!strcmp(Mode, "fatal")) {
    startOffloadingThreads(20000);
    char *H = malloc(16);
    const size_t Huge = (size_t)1 << 46;  // 64 TiB: more than any device has
#pragma omp target enter data map(alloc : H[0:Huge])
    printf("not reached %p\n", (void *)H);
    return 0;
  }
  fprintf(stderr, "usage: %s nowait|threads|starting|mapped|quick|fatal\n", argv[0]);
  return 1;
}

// NOWAIT-NOT: Libomptarget
// NOWAIT: nowait ok
// NOWAITPROF-NOT: Libomptarget
// NOWAITPROF: nowait profile ok
// THREADS-NOT: Libomptarget
// THREADS: threads ok
// STARTING-NOT: Libomptarget
// STARTING: starting ok
// MAPPED-NOT: Libomptarget
// MAPPED: mapped ok
// QUICK-NOT: Libomptarget
// QUICK: quick ok
// FATAL: Libomptarget fatal error
// FATAL-NOT: not reached
// FATALJSON: fatal profile: json ok

// Not on remote devices (remote-mpi): it starts the program 20 times inside one command, and an MPI
// rank initialises MPI once.
// UNSUPPORTED: remote-mpi

// LIBOMPTARGET_PROFILE's device side: every copy and kernel of a known
// program is on a device track (a queue, or the host thread that did it
// inline on the synchronous host device), in the order the device ran it,
// with its size, direction and route or its kernel and launch shape, and a
// flow arrow from the host span that issued it (check_profile.py device
// checks the tracks, the fields, the order within each track and both ends
// of every arrow). The bytes the tracks show moving are exactly what the
// program moved, and the summary's device section adds up to the same.
// Four threads each run a nowait region on their own data, so that in the
// asynchronous mode several queues are busy at once.
// REQUIRES: omptarget-core
// UNSUPPORTED: runtime-our-core-llvm-plugin
// RUN: %clang-offload -gline-tables-only %s -o %t
// RUN: rm -f %t.json
// RUN: %run env LIBOMPTARGET_PROFILE=%t.json LIBOMPTARGET_PROFILE_SUMMARY=1 %t 2> %t.stderr | %fcheck --check-prefix=OUT
// RUN: %check_profile device %t.json | %fcheck --check-prefix=WORK
// RUN: %omptarget_profile --no-picture %t.json > %t.tool
// RUN: %check_profile same-summary %t.stderr %t.tool | %fcheck --check-prefix=SAME
// RUN: %fcheck --check-prefix=SUMMARY < %t.stderr
#include <omp.h>
#include <stdio.h>

#define N 1024  // 4096 bytes of int
#define T 4

int main(void) {
  int a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = i;
#pragma omp target data map(to : a)
  {
#pragma omp target teams distribute parallel for num_teams(2)
    for (int i = 0; i < N; i++) a[i] += 1;
#pragma omp target update from(a)
  }
  int *d = omp_target_alloc(sizeof b, 0);
  omp_target_memcpy(d, a, sizeof a, 0, 0, 0, omp_get_initial_device());
  omp_target_memcpy(b, d, sizeof b, 0, 0, omp_get_initial_device(), 0);
  omp_target_free(d, 0);
  int parts[T][N];
  int ok = 1;
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
    int *p = parts[t];
#pragma omp target teams distribute parallel for map(from : p[0:N]) nowait
    for (int i = 0; i < N; i++) p[i] = i * t;
#pragma omp taskwait
    for (int i = 0; i < N; i++)
      if (p[i] != i * t) ok = 0;
  }
  // OUT: a[5]=6 b[7]=8 parts ok=1
  printf("a[5]=%d b[7]=%d parts ok=%d\n", a[5], b[7], ok);
  return 0;
}

// The first construct's work in order; then the memcpys; then the four
// nowait regions (in any order between threads).
// WORK: work 0 {{queue|inline}} copy h2d 4096 {{pageable|staged}}
// WORK-NEXT: work 0 {{queue|inline}} kernel __omp_offloading_{{.*}}_main_l{{[0-9]+}} {{[0-9]+}} x {{[0-9]+}}
// WORK-NEXT: work 0 {{queue|inline}} copy d2h 4096 {{pageable|staged}}
// WORK-NEXT: work 0 {{queue|inline}} copy h2d 4096 {{pageable|staged}}
// WORK-NEXT: work 0 {{queue|inline}} copy d2h 4096 {{pageable|staged}}
// WORK-COUNT-4: work 0 {{queue|inline}} {{kernel|copy d2h 4096}}
// WORK: moved h2d=8192 d2h=24576 d2d=0
// WORK: flows [[W:[0-9]+]] of [[W]] device spans
// WORK: device tracks ok

// SAME: summaries agree

// SUMMARY: omptarget profile summary
// SUMMARY-NEXT: device 0: {{.+}} ({{x86_64|cuda}})
// SUMMARY-NEXT: {{^  kernel +calls +total ms +mean us +max us  teams x threads$}}
// SUMMARY: {{^  transfer  route +count +bytes +total ms +GB/s$}}
// SUMMARY-NEXT: {{^  h2d +[a-z]+ +2 +8192 }}
// SUMMARY-NEXT: {{^  d2h +[a-z]+ +6 +24576 }}
// SUMMARY: host
// SUMMARY: in the runtime: {{[0-9]+\.[0-9]+}} ms of host time

// Not on remote devices (remote-mpi): it reads the program's stderr apart from its stdout, which
// the remote runs merge.
// UNSUPPORTED: remote-mpi

// LIBOMPTARGET_PROFILE=FILE writes a Chrome trace of the host side: one span
// per construct and runtime call, with its source location (-gline-tables-only;
// the path clang was given, not the base name messages print) and device, on the
// host thread that ran it (two threads here); the file is strict JSON.
// LIBOMPTARGET_PROFILE_SUMMARY=1 prints at exit the same table as
// tools/omptarget-profile prints from the file. Unset, nothing is written.
// REQUIRES: omptarget-core
// RUN: %clang-offload -gline-tables-only %s -o %t
// RUN: rm -f %t.json
// RUN: %run env LIBOMPTARGET_PROFILE=%t.json LIBOMPTARGET_PROFILE_SUMMARY=1 %t 2> %t.stderr | %fcheck --check-prefix=OUT
// RUN: %check_profile spans %t.json | %fcheck --check-prefixes=SPANS,SPANS-%cc
// RUN: %omptarget_profile --no-picture %t.json > %t.tool
// RUN: %check_profile same-summary %t.stderr %t.tool | %fcheck --check-prefix=SAME
// RUN: %fcheck --check-prefixes=SUMMARY,SUMMARY-%cc < %t.stderr
// RUN: rm -f %t.none.json
// RUN: %run %t > /dev/null
// RUN: not ls %t.none.json
#include <omp.h>
#include <stdio.h>

#define N 256

int main(void) {
  int a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = i;
#pragma omp target data map(tofrom : a) // line 26
  {
#pragma omp target teams distribute parallel for // line 28
    for (int i = 0; i < N; i++) a[i] += 1;
#pragma omp target update from(a) // line 30
  }
  int *d = omp_target_alloc(sizeof b, 0);
  omp_target_memcpy(d, a, sizeof a, 0, 0, 0, omp_get_initial_device());
  omp_target_memcpy(b, d, sizeof b, 0, 0, omp_get_initial_device(), 0);
  omp_target_free(d, 0);
  int sums[2] = {0, 0};
#pragma omp parallel num_threads(2)
  {
    int t = omp_get_thread_num(), s = 0;
#pragma omp target map(tofrom : s) // line 40
    s = t + 1;
    sums[t] = s;
  }
  // OUT: a[5]=6 b[7]=8 sums=1,2
  printf("a[5]=%d b[7]=%d sums=%d,%d\n", a[5], b[7], sums[0], sums[1]);
  return 0;
}

// Span names follow the entry point the program called ("target teams",
// "target"; every clang 19 region calls __tgt_target_kernel: "target
// kernel"), hence the C14/C19 lines.
// SPANS: span 1 target data begin loc=/{{.*}}/profile_trace.c:26:1 device=0
// SPANS-C14: span 1 target teams loc={{.*}}profile_trace.c:28:1 device=0
// SPANS-C19: span 1 target kernel loc={{.*}}profile_trace.c:28:1 device=0
// SPANS: span 1 target data update loc={{.*}}profile_trace.c:30:1 device=0
// SPANS: span 1 target data end loc={{.*}}profile_trace.c:26:1 device=0
// SPANS: span 1 omp_target_alloc loc=- device=0
// SPANS: span 1 omp_target_memcpy loc=- device=-
// SPANS: span 1 omp_target_memcpy loc=- device=-
// SPANS: span 1 omp_target_free loc=- device=0
// SPANS-C14-DAG: span {{[12]}} target loc={{.*}}profile_trace.c:40:1 device=0
// SPANS-C14-DAG: span {{[12]}} target loc={{.*}}profile_trace.c:40:1 device=0
// SPANS-C19-DAG: span {{[12]}} target kernel loc={{.*}}profile_trace.c:40:1 device=0
// SPANS-C19-DAG: span {{[12]}} target kernel loc={{.*}}profile_trace.c:40:1 device=0
// SPANS: profile ok: 10 spans on 2 host threads

// SAME: summaries agree

// SUMMARY: omptarget profile summary
// SUMMARY: host
// SUMMARY-NEXT: {{^  call +calls +total ms +mean us$}}
// SUMMARY-C14-DAG: {{^  target +2 +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3}$}}
// SUMMARY-DAG: {{^  omp_target_memcpy +2 }}
// SUMMARY-C14-DAG: {{^  target teams +1 }}
// SUMMARY-C19-DAG: {{^  target kernel +3 +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3}$}}

// Not on remote devices (remote-mpi): it reads the program's stderr apart from its stdout, which
// the remote runs merge.
// UNSUPPORTED: remote-mpi

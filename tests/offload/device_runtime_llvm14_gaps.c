// What no program can use on an NVIDIA GPU with LLVM 14's device runtime:
// - dynamically scheduled worksharing loops (dynamic, guided, runtime; int,
//   unsigned and long loops): LLVM 14's runtime keeps their state in a
//   module-scoped .local variable, which CUDA 12+'s ptxas rejects;
// - explicit tasks: its __kmpc_omp_task_alloc has C++ linkage, so clang's
//   call to it does not link.
// Every iteration must run exactly once, also when a team of one runs the
// loop (the target region's initial thread) and when each thread of a region
// runs one as a nested region; tasks run and their updates are seen.
// GPU: devrtl-only (LLVM 14's device runtime cannot build it, see above)
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <string.h>

#define N 100003

static int hits[N];

static int all_once(const char *what) {
  int bad = 0;
  for (int i = 0; i < N; i++)
    if (hits[i] != 1) bad++;
  printf("%s: %s\n", what, bad ? "WRONG" : "each iteration once");
  memset(hits, 0, sizeof(hits));
  return bad;
}

int main(void) {
  int fails = 0;
#pragma omp target teams distribute parallel for schedule(dynamic, 7) num_teams(5) map(tofrom : hits)
  for (unsigned i = 0; i < N; i++) hits[i]++;
  fails += all_once("dynamic unsigned");
#pragma omp target teams distribute parallel for schedule(guided, 3) map(tofrom : hits)
  for (long i = 0; i < N; i++) hits[i]++;
  fails += all_once("guided long");
#pragma omp target parallel for schedule(runtime) map(tofrom : hits)
  for (int i = 0; i < N; i++) hits[i]++;
  fails += all_once("runtime");
  // A dynamically scheduled loop run by a team of one (the target region's
  // initial thread), and by each thread of a region as a nested loop.
#pragma omp target map(tofrom : hits)
  {
#pragma omp for schedule(dynamic, 11)
    for (int i = 0; i < N; i++) hits[i]++;
  }
  fails += all_once("team of one");
#pragma omp target parallel num_threads(4) map(tofrom : hits)
  {
    int t = omp_get_thread_num(), nt = omp_get_num_threads();
#pragma omp parallel for schedule(dynamic, 5)
    for (int i = t; i < N; i += nt) hits[i]++;
  }
  // CHECK: dynamic unsigned: each iteration once
  // CHECK: guided long: each iteration once
  // CHECK: runtime: each iteration once
  // CHECK: team of one: each iteration once
  // CHECK: nested dynamic: each iteration once
  fails += all_once("nested dynamic");
  // Tasks in a target region, and printf.
  int task_sum = 0;
#pragma omp target map(tofrom : task_sum)
  {
    for (int k = 1; k <= 10; k++) {
#pragma omp task shared(task_sum) firstprivate(k)
      {
#pragma omp atomic
        task_sum += k;
      }
    }
#pragma omp taskwait
    printf("device printf: %d %s\n", 42, "ok");
  }
  // CHECK: device printf: 42 ok
  // CHECK: tasks: 55
  printf("tasks: %d\n", task_sum);
  // CHECK: failures: 0
  printf("failures: %d\n", fails);
  return fails != 0;
}

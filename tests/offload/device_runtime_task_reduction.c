// Task reductions in target regions: a taskgroup's task_reduction with
// in_reduction tasks (two operators, one task nested in another), taskloop's
// reduction clause, the task modifier of a parallel reduction, and (on the
// GPU only: libomp crashes on it) in_reduction tasks that the threads of a
// parallel region nested in the taskgroup create. Our device runtime runs
// tasks at once on the thread that creates them (docs/device-runtime.md); the
// sums must be those of the host.
// GPU: devrtl-only (LLVM 14's device runtime cannot link explicit tasks)
// UNSUPPORTED: tsan
// (ThreadSanitizer reports a race inside the kernel, on the private copies of
// libomp 14's task reduction (memory libomp allocates and combines), between
// a task and the thread that combines them: Archer 14 does not model task
// reductions. No frame of our runtime is in either access. The
// AddressSanitizer+UBSan run covers the test.)
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int fails = 0;

  long sum = 0;
  double prod = 1;
#pragma omp target map(tofrom : sum, prod)
  {
#pragma omp taskgroup task_reduction(+ : sum) task_reduction(* : prod)
    {
      for (int i = 1; i <= 20; i++) {
#pragma omp task in_reduction(+ : sum) in_reduction(* : prod) firstprivate(i)
        {
          sum += i;
          if (i % 4 == 0) {
            prod *= 2;
#pragma omp task in_reduction(+ : sum) firstprivate(i)
            sum += 1000 * i;
          }
        }
      }
    }
  }
  // CHECK: taskgroup: sum=60210 prod=32
  printf("taskgroup: sum=%ld prod=%.0f\n", sum, prod);
  fails += sum != 60210 || prod != 32;

  int loop_sum = 0;
#pragma omp target map(tofrom : loop_sum)
  {
#pragma omp taskloop reduction(+ : loop_sum) grainsize(7)
    for (int i = 0; i < 100; i++) loop_sum += i;
  }
  // CHECK: taskloop: 4950
  printf("taskloop: %d\n", loop_sum);
  fails += loop_sum != 4950;

  int modifier_sum = 0, threads = 0;
#pragma omp target parallel num_threads(8) reduction(task, + : modifier_sum) map(tofrom : modifier_sum, threads)
  {
    int t = omp_get_thread_num();
    if (t == 0)
      threads = omp_get_num_threads();
#pragma omp task in_reduction(+ : modifier_sum) firstprivate(t)
    modifier_sum += t + 1;
#pragma omp task in_reduction(+ : modifier_sum)
    modifier_sum += 100;
  }
  int modifier_ok = modifier_sum == threads * (threads + 1) / 2 + 100 * threads;
  // CHECK: reduction(task): ok
  printf("reduction(task): %s (%d threads, %d)\n", modifier_ok ? "ok" : "WRONG", threads, modifier_sum);
  fails += !modifier_ok;

  // Tasks created by the threads of a parallel region inside the taskgroup
  // (they update the original item under a lock, one at a time).
  int nested_sum = 0, nested_threads = 0, nested_ran = 0;
#pragma omp target map(tofrom : nested_sum, nested_threads, nested_ran)
  {
    // The same first uses in the host and the device compilation, before the
    // #ifdef: otherwise the two disagree on the region's arguments (the host
    // passed none, the device kernel expected three).
    nested_ran = 0;
    nested_sum += 0;
    nested_threads += 0;
#ifdef __NVPTX__
    nested_ran = 1;
#pragma omp taskgroup task_reduction(+ : nested_sum)
    {
#pragma omp parallel num_threads(64)
      {
        if (omp_get_thread_num() == 0)
          nested_threads = omp_get_num_threads();
        for (int k = 0; k < 4; k++) {
#pragma omp task in_reduction(+ : nested_sum)
          nested_sum += 1;
        }
      }
    }
#endif
  }
  int nested_ok = nested_sum == 4 * nested_threads && (!nested_ran || nested_threads > 1);
  // CHECK: nested parallel: ok
  printf("nested parallel: %s (%d threads, %d)\n", nested_ok ? "ok" : "WRONG", nested_threads, nested_sum);
  fails += !nested_ok;

  // CHECK: failures: 0
  printf("failures: %d\n", fails);
  return fails != 0;
}

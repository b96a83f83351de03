// A clang 19 program (KernelArgs version 3, kernel environments, LLVM 19's
// device environment) on the fake driver: fake-cuda-c19-* check the launch
// shapes, the launch environment passed as the first parameter and the
// dynamic shared memory each kernel gets (OMPTARGET_FAKE_CUDA_LAUNCH_LOG).
// Kernels do not run on the fake, so no result is checked here.
#include <stdio.h>

int main(void) {
  enum { N = 100000 };
  static double A[N];
  double Sum = 0;
  // SPMD with a teams reduction: a reduction buffer; thread_limit(64) is
  // the kernel environment's MaxThreads too.
#pragma omp target teams distribute parallel for reduction(+ : Sum) map(to : A) thread_limit(64)
  for (int I = 0; I < N; ++I) Sum += A[I];
  // No reduction (Generic-SPMD after clang's optimization): the launch
  // environment is ~0.
  int One = 0;
#pragma omp target teams map(tofrom : One)
  {
    if (One == 0) One = 1;
  }
  // Dynamic group memory, within and beyond the default 48 KiB.
#pragma omp target ompx_dyn_cgroup_mem(1024) map(tofrom : One)
  One += 1;
#pragma omp target ompx_dyn_cgroup_mem(65536) map(tofrom : One)
  One += 1;
  // A bare kernel runs as given (clang 19 takes one dimension only).
#pragma omp target teams ompx_bare num_teams(6) thread_limit(16) map(tofrom : One)
  One += 1;
  printf("c19 launches: done\n");
  return 0;
}

// The 48-byte device environment: the H200-like fake's 1.98 GHz clock and
// 132 SMs x 2048 threads.
// CHECK: __omp_rtl_device_environment (48 bytes) = {debug 0, devices 1, device 0, dynamic memory 0, clock 1980000000 Hz, parallelism 270336}
// The kernel environments: modes and bounds.
// CHECK-DAG: main_l14: kernel environment: SPMD mode, threads {{-?[0-9]+}}..64, reduction buffer {{[1-9][0-9]*}} bytes
// CHECK-DAG: main_l19: kernel environment: Generic-SPMD mode
// CHECK-DAG: main_l29 has no kernel environment nor {{.*}}: Plain mode
// SPMD at thread_limit(64), one iteration per thread: 100000 / 64 blocks;
// the launch environment {0, 0, its buffer} first.
// CHECK: fake-cuda: launch {{.*}}main_l14 grid 1563x1x1 block 64x1x1 shared 0 arg0 0x{{[0-9a-f]+}} env {0, 0, arg0+256}
// The reduction kernel's block goes back after its stream's work.
// CHECK: released 1 launch environment(s) after the stream's work
// Generic-SPMD without a trip count: 4 teams per SM of 128 threads; no
// reduction: the launch environment is ~0.
// CHECK: fake-cuda: launch {{.*}}main_l19 grid 528x1x1 block 128x1x1 shared 0 arg0 0xffffffffffffffff
// CHECK: fake-cuda: launch {{.*}}main_l24 grid 1x1x1 block {{[0-9]+}}x1x1 shared 1024 arg0 0xffffffffffffffff
// CHECK: fake-cuda: launch {{.*}}main_l26 grid 1x1x1 block {{[0-9]+}}x1x1 shared 65536 arg0 0xffffffffffffffff
// CHECK: fake-cuda: launch {{.*}}main_l29 grid 6x1x1 block 16x1x1 shared 0 arg0 0xffffffffffffffff
// CHECK: c19 launches: done

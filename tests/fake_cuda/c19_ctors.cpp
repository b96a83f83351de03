// A clang 19 program whose declare-target globals have C++ constructors and
// destructors (in two translation units' worth of priorities: one default,
// one init_priority) on the fake driver: fake-cuda-c19-ctors checks that the
// plugin builds the image's constructor list in priority order and runs
// nvptx$device$init once, before the first region. (The destructor list,
// nvptx$device$fini, runs when a binary is unregistered before exit, at a
// dlclose, or at the plugin's deinit: images are not unloaded once exit()
// has begun.)
// Kernels do not run on the fake, so no result is checked here.
#include <stdio.h>

#pragma omp declare target
volatile int Seed = 0;  // read at run time: no constructor is folded away
struct Tracked {
  int Value;
  Tracked(int V) : Value(V + Seed) {}
  ~Tracked() { Value = 0; }
};
Tracked Late(1);
__attribute__((init_priority(101))) Tracked Early(2);
#pragma omp end declare target

int main() {
  int V = 0;
#pragma omp target map(from : V)
  V = Late.Value + Early.Value;
  printf("c19 ctors: region done\n");
  return 0;
}

// CHECK: fake-cuda: launch nvptx$device$init grid 1x1x1 block 1x1x1 shared 0
// CHECK: ran 2 global constructors (nvptx$device$init)
// CHECK: fake-cuda: launch {{.*}}main_l{{[0-9]+}} grid
// CHECK: c19 ctors: region done
// CHECK-NOT: nvptx$device$init

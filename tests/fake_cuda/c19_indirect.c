// A clang 19 program with `declare target indirect` functions on the fake
// driver: fake-cuda-c19-indirect checks that the plugin builds the image's
// indirect call table (one pair per indirect function) and that the core
// maps each host function to the device address the entry's global holds
// (0 on the fake, whose globals keep the cubin's unrelocated bytes).
// Kernels do not run on the fake, so no result is checked here.
#include <stdio.h>

#pragma omp begin declare target indirect
int twice(int X) { return 2 * X; }
int thrice(int X) { return 3 * X; }
#pragma omp end declare target

typedef int (*Fn)(int);

int main(void) {
  Fn Fns[2] = {twice, thrice};
  int S[2] = {0, 0};
#pragma omp target map(to : Fns) map(from : S)
  for (int I = 0; I < 2; ++I) S[I] = Fns[I](I);
  printf("c19 indirect: region done\n");
  return 0;
}

// CHECK: indirect call table: 2 function(s) at 0x{{[0-9a-f]+}}
// CHECK-DAG: indirect function {{.*}}twice{{.*}} host 0x{{[0-9a-f]+}} -> device {{.*}} (8 bytes)
// CHECK-DAG: indirect function {{.*}}thrice{{.*}} host 0x{{[0-9a-f]+}} -> device {{.*}} (8 bytes)
// CHECK: c19 indirect: region done

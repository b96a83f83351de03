// A declare-target global with a constructor and destructor, built for
// nvptx64: on the fake driver (kernels do not run) the trace shows that the
// CUDA plugin resolves the internal `_ctor`/`_dtor` kernels of the cubin,
// that the core launches the constructor before the program's region and
// the destructor after main, and that both run as 1 block x 1 thread (Plain
// mode: they have no `_exec_mode` global).
#include <stdio.h>

#pragma omp declare target
struct Tracked {
  int Value;
  Tracked() : Value(42) {}
  ~Tracked() { Value = -1; }
};
Tracked Obj;
#pragma omp end declare target

int main() {
  int Value = 0;
#pragma omp target map(from : Value)
  Value = Obj.Value;
  printf("ctor_dtor: main done\n");
  fflush(stdout);
  return 0;
}

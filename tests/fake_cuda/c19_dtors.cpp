// A clang 19 library (this file with -DLIBRARY) whose one declare-target
// global has a C++ constructor and destructor, dlopen'ed and dlclose'd by a
// clang 19 program (this file without it), on the fake driver:
// fake-cuda-c19-dtors (check_c19_dtors.sh) checks that the plugin runs the
// library's destructor list at the dlclose, through the image's
// nvptx$device$init kernel when it has one (clang 19.1.7's
// nvptx$device$fini skips a list of one destructor: see
// src/plugins/cuda/cuda_global_ctors.cpp), else through nvptx$device$fini.
// Kernels do not run on the fake, so no result is checked here.
#include <stdio.h>

#ifdef LIBRARY
#pragma omp declare target
volatile int Seed = 0;  // read at run time: the constructor is not folded away
struct Tracked {
  int Value;
  Tracked() : Value(7 + Seed) {}
  ~Tracked() { Value = 0; }
};
Tracked Lone;
#pragma omp end declare target

extern "C" int libRead() {
  int V = 0;
#pragma omp target map(from : V)
  V = Lone.Value;
  return V;
}
#else
#include <dlfcn.h>

int main(int argc, char **argv) {
  setbuf(stdout, nullptr);
  void *Lib = argc > 1 ? dlopen(argv[1], RTLD_NOW) : nullptr;
  auto Read = Lib ? reinterpret_cast<int (*)()>(dlsym(Lib, "libRead")) : nullptr;
  if (!Read) {
    printf("c19 dtors: cannot load the library: %s\n", dlerror());
    return 1;
  }
  (void)Read();
  printf("c19 dtors: closing\n");
  dlclose(Lib);
  printf("c19 dtors: closed\n");
  return 0;
}
#endif

// CHECK: global constructors
// CHECK: c19 dtors: closing
// INIT: fake-cuda: launch nvptx$device$init grid 1x1x1 block 1x1x1 shared 0
// INIT: ran 1 global destructors (nvptx$device$init)
// NOINIT: fake-cuda: launch nvptx$device$fini grid 1x1x1 block 1x1x1 shared 0
// NOINIT: ran 1 global destructors (nvptx$device$fini)
// CHECK: c19 dtors: closed
// INIT-NOT: nvptx$device$fini

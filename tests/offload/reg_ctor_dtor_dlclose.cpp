// Registration: a dlopen'ed library with a declare-target global that has a
// C++ constructor and destructor. The constructor runs on the device before
// the library's first region; dlclose unregisters the library, which runs
// the device's destructor then, not at program exit; the main program goes
// on offloading afterwards.
// Not with LLVM 14's host plugin (see reg_ctor_dtor.cpp: the images it
// unloads at exit).
// UNSUPPORTED: runtime-llvm, runtime-our-core-llvm-plugin
// LLVM 19 runs the library's device destructor when it shuts down at program
// exit, after the main program's region, not at dlclose.
// XFAIL: runtime-llvm19
// RUN: %clangxx-offload -fPIC -shared %S/inputs/reg_ctor_dtor_lib.cpp -o %t.so
// RUN: %clangxx-offload %s -o %t -ldl && %run %t %t.so 2>&1 | %fcheck
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
  setbuf(stdout, NULL);
  void *Lib = dlopen(argv[1], RTLD_NOW);
  if (!Lib) {
    printf("dlopen failed: %s\n", dlerror());
    return 1;
  }
  auto Read = reinterpret_cast<int (*)(int *)>(dlsym(Lib, "libRead"));
  int Constructions = 0;
  int Value = Read ? Read(&Constructions) : -1;
  // CHECK: library region: value 7 constructions 1
  printf("library region: value %d constructions %d\n", Value, Constructions);
  // CHECK: closing
  printf("closing\n");
  dlclose(Lib);
  // The device's destructor ran during dlclose (the host's own may come
  // before or after it).
  // CHECK-DAG: library destructor: on device value 8
  // CHECK-DAG: library destructor: on host value 7
  // CHECK: closed
  printf("closed\n");
  int R = 0;
#pragma omp target map(from : R)
  R = 5;
  // CHECK-NEXT: main region 5
  printf("main region %d\n", R);
  // CHECK-NOT: library destructor
  return 0;
}

// Not on remote devices (remote-mpi): a device's printf is the device server's output, which mpirun
// forwards out of order with the program's.
// UNSUPPORTED: remote-mpi

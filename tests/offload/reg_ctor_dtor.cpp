// Registration: a declare-target global with a C++ constructor and
// destructor. clang 14 emits a constructor and a destructor kernel for it
// (internal linkage: the image's dynamic symbol table does not have them;
// host entries flagged 0x2 and 0x4). The runtime must run the constructor on
// a device exactly once, before the first construct there (a data construct
// as well as a target region), and the destructor at program exit on every
// device where the constructor ran, and nowhere else.
//
// Observable: the constructor counts its runs in a declare-target global, and
// the destructor prints from the device (the host device's printf is the
// process's; a GPU's printf reaches stdout at the kernel's synchronize). Each
// device's object records which device it lives on, so the destructor lines
// say whose copy they destroy (-1: the host's own object, destroyed by the
// host's atexit before the runtime unregisters the program).
//
// LLVM 14's core runs the constructors and destructors the same way
// (llvm-core-our-plugin passes). LLVM 14's host plugin, though, unloads its
// images in its static destructor, which runs at exit before the program's
// unregistration: whichever core then runs a destructor kernel, the program
// dies of SIGSEGV after main (LLVM 14 alone does), hence UNSUPPORTED with
// that plugin.
// UNSUPPORTED: runtime-llvm, runtime-our-core-llvm-plugin
// RUN: %clangxx-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

#pragma omp declare target
int Constructions = 0;  // this copy's constructor runs
struct Tracked {
  int Value;
  int Device;  // set by a region on its device; -1 on the host
  Tracked() : Value(42), Device(-1) { ++Constructions; }
  ~Tracked() { printf("destructor: device %d value %d constructions %d\n", Device, Value, Constructions); }
};
Tracked Obj;
#pragma omp end declare target

int main() {
  setbuf(stdout, NULL);
  // Device 0: a target region first.
  int Value = 0, Count = 0, Value2 = 0, Count2 = 0;
#pragma omp target device(0) map(from : Value, Count)
  {
    Value = Obj.Value;
    Count = Constructions;
    Obj.Device = 0;
  }
#pragma omp target device(0) map(from : Value2, Count2)
  {
    Value2 = Obj.Value;
    Count2 = Constructions;
  }
  // CHECK: device 0: first region value 42 constructions 1; second region value 42 constructions 1
  printf("device 0: first region value %d constructions %d; second region value %d constructions %d\n",
         Value, Count, Value2, Count2);

  // Device 1: a data construct first; its constructor must have run already.
  Constructions = 100;  // the host's copy, overwritten by the device's
#pragma omp target update device(1) from(Constructions)
  // CHECK: device 1: update from before any region: constructions 1
  printf("device 1: update from before any region: constructions %d\n", Constructions);
#pragma omp target device(1) map(from : Value, Count)
  {
    Obj.Device = 1;
    Obj.Value += 1;
    Value = Obj.Value;
    Count = Constructions;
  }
  // CHECK: device 1: region value 43 constructions 1
  printf("device 1: region value %d constructions %d\n", Value, Count);

  // The host's object: constructed once by the host, untouched by the devices.
  // CHECK: host: value 42 device -1
  printf("host: value %d device %d\n", Obj.Value, Obj.Device);
  // CHECK: main done
  printf("main done\n");
  return 0;
}
// The host's atexit destructor runs first, then the program's
// unregistration runs the devices' destructors (device 2 and up were never
// used: no constructor ran there, so no destructor either).
// CHECK-NEXT: destructor: device -1 value 42 constructions 1
// CHECK-DAG: destructor: device 0 value 42 constructions 1
// CHECK-DAG: destructor: device 1 value 43 constructions 1
// CHECK-NOT: destructor

// Not on remote devices (remote-mpi): the destructors of declare-target globals run at
// unregistration, after the MPI plugin closed its connection at exit(); remote devices do not run
// them (docs/usage.md).
// UNSUPPORTED: remote-mpi

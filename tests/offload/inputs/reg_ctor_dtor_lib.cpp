// Helper shared library for reg_ctor_dtor_dlclose.cpp (not a test): a
// declare-target global with a constructor and a destructor.
#include <stdio.h>

#pragma omp declare target
int LibConstructions = 0;
struct LibTracked {
  int Value;
  int OnDevice;  // set by a region on the device
  LibTracked() : Value(7), OnDevice(0) { ++LibConstructions; }
  ~LibTracked() { printf("library destructor: on %s value %d\n", OnDevice ? "device" : "host", Value); }
};
LibTracked LibObj;
#pragma omp end declare target

extern "C" int libRead(int *Constructions) {
  int Value = 0, Count = 0;
#pragma omp target map(from : Value, Count)
  {
    Value = LibObj.Value;
    Count = LibConstructions;
    LibObj.OnDevice = 1;
    LibObj.Value += 1;
  }
  *Constructions = Count;
  return Value;
}

// Mapping: use_device_ptr of a class member pointer (`this->a`, and through
// a reference member) mapped with `map(to: a[0])`: inside the construct
// the member is the device address of its pointee; use_device_addr of a
// section through a reference to a pointer likewise. (The member pointer's
// own storage is mapped with the object; its pointee's base is the
// pointer's value.) LLVM 14 and 19 agree. And use_device_addr of a section
// of data mapped as a section that starts past the pointer, directly and
// through a reference: the item finds the mapping from the pointer's value
// (its base), as LLVM 19 does; LLVM 14 gives the host address.
// RUN: %clangxx-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <cstdint>
#include <cstdio>

struct C {
  int *a;
  int *&ra;
  explicit C(int *p) : a(p), ra(a) {}
  void run() {
#pragma omp target enter data map(to : a[0])
    uintptr_t dev = 0;
#pragma omp target map(from : dev) map(alloc : a[0])
    { dev = reinterpret_cast<uintptr_t>(a); }
    void *seen = nullptr;
#pragma omp target data use_device_ptr(a)
    { seen = a; }
    // CHECK: member use_device_ptr: 1
    std::printf("member use_device_ptr: %d\n", reinterpret_cast<uintptr_t>(seen) == dev);
    void *seen2 = nullptr;
#pragma omp target data use_device_ptr(ra)
    { seen2 = ra; }
    // CHECK: reference member use_device_ptr: 1
    std::printf("reference member use_device_ptr: %d\n", reinterpret_cast<uintptr_t>(seen2) == dev);
#pragma omp target exit data map(delete : a[0])
  }
};

static void viaReference(int *&rp, uintptr_t dev) {
  void *seen = nullptr;
#pragma omp target data use_device_addr(rp[4 : 4])
  { seen = &rp[4]; }
  // CHECK: use_device_addr through a reference to a pointer: 1
  std::printf("use_device_addr through a reference to a pointer: %d\n",
              reinterpret_cast<uintptr_t>(seen) == dev + 4 * sizeof(int));
}

static void sectionPastPointer(int *&rp, uintptr_t dev4) {
  void *seen = nullptr;
#pragma omp target data use_device_addr(rp[4 : 4])
  { seen = &rp[4]; }
  // OURS: reference to a pointer, section mapped past it: 1
  // LLVM: reference to a pointer, section mapped past it: 0
  std::printf("reference to a pointer, section mapped past it: %d\n",
              reinterpret_cast<uintptr_t>(seen) == dev4);
  void *seen2 = nullptr;
  int *p = rp;
#pragma omp target data use_device_addr(p[4 : 4])
  { seen2 = &p[4]; }
  // OURS: pointer, section mapped past it: 1
  // LLVM: pointer, section mapped past it: 0
  std::printf("pointer, section mapped past it: %d\n", reinterpret_cast<uintptr_t>(seen2) == dev4);
}

int main() {
  int v = 5;
  C c(&v);
  c.run();
  int *p = new int[16];
#pragma omp target enter data map(to : p[0 : 16])
  uintptr_t dev = 0;
#pragma omp target map(from : dev) map(alloc : p[0 : 16])
  { dev = reinterpret_cast<uintptr_t>(p); }
  viaReference(p, dev);
#pragma omp target exit data map(delete : p[0 : 16])
#pragma omp target enter data map(to : p[4 : 8])
  uintptr_t dev4 = 0;
#pragma omp target map(from : dev4) map(alloc : p[4 : 8])
  { dev4 = reinterpret_cast<uintptr_t>(&p[4]); }
  sectionPastPointer(p, dev4);
#pragma omp target exit data map(delete : p[4 : 8])
  // CHECK: unmapped: 0
  std::printf("unmapped: %d\n", omp_target_is_present(p, omp_get_default_device()));
  delete[] p;
  return 0;
}

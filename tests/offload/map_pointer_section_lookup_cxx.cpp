// Mapping, in C++: a pointer that finds a section of its pointee mapped
// past it, captured by a lambda's region and named by use_device_ptr; a
// struct's members before the first mapped one stay unmapped; and
// use_device_addr of an object with no device counterpart keeps its host
// address with LLVM's info line. The C program map_pointer_section_lookup.c
// says where LLVM 14 and 19 differ.
// REQUIRES: omptarget-core
// RUN: %clangxx-offload %s -o %t && %run env LIBOMPTARGET_INFO=64 %t 2>&1 | %fcheck
#include <omp.h>
#include <cstdint>
#include <cstdio>
#include <vector>

struct Particle {
  int id;
  float x;
  double mass;
};

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0);  // in order with the runtime's stderr lines
  std::vector<int> v(256);
  for (int i = 0; i < 256; i++) v[i] = i;
  int *A = v.data();
#pragma omp target enter data map(to : A[64 : 128])
  auto addTo = [A](int k) {
#pragma omp target
    for (int i = 64; i < 192; i++) A[i] += k;
  };
  addTo(1000);
  uintptr_t dev = 0;
#pragma omp target map(from : dev) map(alloc : A[64 : 1])
  { dev = reinterpret_cast<uintptr_t>(A); }
  int *U = nullptr;
#pragma omp target data use_device_ptr(A)
  { U = A; }
  // CHECK: use_device_ptr gives the device A: 1
  std::printf("use_device_ptr gives the device A: %d\n", reinterpret_cast<uintptr_t>(U) == dev);
#pragma omp target exit data map(from : A[64 : 128])
  // CHECK: lambda region wrote the device copy: A[63]=63 A[64]=1064 A[191]=1191
  std::printf("lambda region wrote the device copy: A[63]=%d A[64]=%d A[191]=%d\n", A[63], A[64],
              A[191]);

  Particle p{1, 2.0f, 3.0};
  int dn = omp_get_default_device();
#pragma omp target enter data map(alloc : p.x, p.mass)
  // CHECK: padding: id present=0 x present=1 mass present=1
  std::printf("padding: id present=%d x present=%d mass present=%d\n", omp_target_is_present(&p.id, dn),
              omp_target_is_present(&p.x, dn), omp_target_is_present(&p.mass, dn));
#pragma omp target map(alloc : p.x, p.mass)
  {
    p.x = 20.0f;
    p.mass = 30.0;
  }
#pragma omp target exit data map(from : p.x, p.mass)
  // CHECK: members back: id=1 x=20.0 mass=30.0
  std::printf("members back: id=%d x=%.1f mass=%.1f\n", p.id, p.x, p.mass);

  Particle lonely{7, 0, 0};
  Particle *seen = nullptr;
  // CHECK: info: variable lonely does not have a valid device counterpart
#pragma omp target data use_device_addr(lonely)
  { seen = &lonely; }
  // CHECK: use_device_addr keeps the host address: 1
  std::printf("use_device_addr keeps the host address: %d\n", seen == &lonely);
  return 0;
}

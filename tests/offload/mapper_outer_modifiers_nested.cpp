// Mappers: `always` on the clause that names a mapper reaches the
// components of nested default mappers too (a struct member whose type has
// a mapper of its own, with an attached pointer): `always, from` brings the
// pointee back although everything stays mapped, and `always, to` refreshes
// every device copy. The attached device pointer never reaches the host,
// and after an `always` copy of the struct the device copy's pointer still
// points at the device copy of its pointee (the copy wrote the host's value
// over it; the runtime writes the device value back, as LLVM 19 does).
// LLVM 14 and 19 lose `always` on the nested pointee (its old values stay),
// and LLVM 14 re-copies the struct over its attached pointer when the
// region below maps it implicitly (on the host device the region then
// writes the host's array: vals[0]=77; on a GPU it faults with an illegal
// address): our core only.
// REQUIRES: omptarget-core
// RUN: %clangxx-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <cstdio>
#include <cstdlib>

struct Inner {
  int n;
  int *vals;
};
#pragma omp declare mapper(Inner in) map(in, in.vals[0 : in.n])
struct Outer {
  int id;
  Inner a;
};
#pragma omp declare mapper(Outer o) map(o.id, o.a)

int main() {
  Outer o;
  o.id = 1;
  o.a.n = 4;
  o.a.vals = static_cast<int *>(std::malloc(4 * sizeof(int)));
  int *host = o.a.vals;
  for (int i = 0; i < 4; i++) o.a.vals[i] = i;
#pragma omp target enter data map(to : o)
#pragma omp target map(always, from : o)
  {
    o.id = 2;
    for (int i = 0; i < o.a.n; i++) o.a.vals[i] += 10;
  }
  // CHECK: always from: id=2 vals=10 11 12 13 host ptr kept=1
  std::printf("always from: id=%d vals=%d %d %d %d host ptr kept=%d\n", o.id, o.a.vals[0],
              o.a.vals[1], o.a.vals[2], o.a.vals[3], o.a.vals == host);
  o.id = 5;
  for (int i = 0; i < 4; i++) o.a.vals[i] = 100 + i;
#pragma omp target enter data map(always, to : o)
  int id = 0, v3 = 0;
#pragma omp target map(from : id, v3)
  {
    id = o.id;
    v3 = o.a.vals[3];
    o.a.vals[0] = 77;  // the device copy, not the host's array
  }
  // CHECK: always to: device id=5 vals[3]=103 host vals[0]=100
  std::printf("always to: device id=%d vals[3]=%d host vals[0]=%d\n", id, v3, o.a.vals[0]);
  // A lambda whose region maps the struct implicitly, through its mapper.
  auto Sum = [&]() {
    int s = 0;
#pragma omp target map(tofrom : s)
    for (int i = 0; i < o.a.n; i++) s += o.a.vals[i];
    return s;
  };
  // CHECK: lambda sum=383
  std::printf("lambda sum=%d\n", Sum());
#pragma omp target exit data map(delete : o)
#pragma omp target exit data map(delete : o)
  // CHECK: after delete: present=0
  std::printf("after delete: present=%d\n", omp_target_is_present(o.a.vals, omp_get_default_device()));
  std::free(host);
  return 0;
}

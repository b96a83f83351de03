// Bad-input tour, map clauses used inconsistently: disassociating data that
// a map clause mapped (not omp_target_associate_ptr), mismatched enter/exit
// data counts (an extra exit, `release` below zero, `delete` while a
// `target data` region or an ompx_hold region holds the data, `delete` of
// data never mapped), overlapping ranges (a section inside a mapped array,
// an exit of a section that only partly overlaps it), and, in the runs with
// an argument, the fatal cases: `present` on missing data (map clause,
// `target enter data`, `target exit data`, `target update`), a map that
// extends an existing mapping and a partially overlapping map of a mapped
// array. Every non-fatal case prints its result, device 0's mapping table
// (mapped_entries) is back to where it started after each family, and the
// mapped data stays correct. The fatal cases print the runtime's lines
// (OpenMP: a `present` failure is a runtime error; an extension is not
// allowed) and abort: offloading is mandatory by default with devices. A
// region's lines name the entry point the program called: __tgt_target
// (every clang 14 form) or clang 19's __tgt_target_kernel.
// REQUIRES: omptarget-core
// RUN: %clang-offload -fopenmp-version=51 -L%libdir %s -o %t
// RUN: %run %t 2>&1 | %fcheck --check-prefix=MAIN
// RUN: not --crash %run %t present-map 2>&1 | %fcheck --check-prefixes=PMAP,PMAP-%cc
// RUN: not --crash %run %t present-enter 2>&1 | %fcheck --check-prefix=PENTER
// RUN: not --crash %run %t present-exit 2>&1 | %fcheck --check-prefix=PEXIT
// RUN: not --crash %run %t present-update 2>&1 | %fcheck --check-prefix=PUPDATE
// RUN: not --crash %run %t extend 2>&1 | %fcheck --check-prefixes=EXTEND,EXTEND-%cc
// RUN: not --crash %run %t overlap 2>&1 | %fcheck --check-prefixes=OVERLAP,OVERLAP-%cc
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs/mapped_entries.h"
#include "omptarget/omp_target_ext.h"


static int A[16];

// One fatal misuse per run: the line before it is printed, the line after
// it never is.
static int fatal(const char *What) {
  int Missing[4] = {0};
  // PMAP: fatal: present-map
  // PMAP-NEXT: Libomptarget message: device mapping required by 'present' map type modifier does not exist for host address [[M:0x[0-9a-f]+]] (16 bytes)
  // PMAP-C14: Libomptarget error: __tgt_target: mapping Missing (host {{.*}}, 16 bytes) failed: 'present' map type modifier
  // PMAP-C19: Libomptarget error: __tgt_target_kernel: mapping Missing (host {{.*}}, 16 bytes) failed: 'present' map type modifier
  // PMAP: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // PENTER: fatal: present-enter
  // PENTER-NEXT: Libomptarget message: device mapping required by 'present' map type modifier does not exist for host address 0x{{[0-9a-f]+}} (16 bytes)
  // PENTER: Libomptarget error: __tgt_target_data_begin: mapping Missing (host {{.*}}, 16 bytes) failed: 'present' map type modifier
  // PENTER: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // PEXIT: fatal: present-exit
  // PEXIT-NEXT: Libomptarget message: device mapping required by 'present' map type modifier does not exist for host address 0x{{[0-9a-f]+}} (16 bytes)
  // PEXIT: Libomptarget error: __tgt_target_data_end: 'present' map type modifier: Missing is not mapped
  // PEXIT: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // PUPDATE: fatal: present-update
  // PUPDATE-NEXT: Libomptarget message: device mapping required by 'present' motion modifier does not exist for host address 0x{{[0-9a-f]+}} (16 bytes)
  // PUPDATE: Libomptarget error: __tgt_target_data_update: 'present' motion modifier: Missing is not mapped
  // PUPDATE: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // EXTEND: fatal: extend
  // EXTEND-NEXT: Libomptarget message: explicit extension not allowed: host address specified is [[E:0x[0-9a-f]+]] (32 bytes), but device allocation maps to host at [[E]] (16 bytes)
  // EXTEND-C14: Libomptarget error: __tgt_target: mapping A[0:8] (host [[EP:0x[0-9a-f]+]], 32 bytes) failed: it extends the existing mapping A[0:4] (host [[EP]], 16 bytes): map a section within that one, or unmap it first{{$}}
  // EXTEND-C19: Libomptarget error: __tgt_target_kernel: mapping A[0:8] (host [[EP:0x[0-9a-f]+]], 32 bytes) failed: it extends the existing mapping A[0:4] (host [[EP]], 16 bytes): map a section within that one, or unmap it first{{$}}
  // EXTEND: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // OVERLAP: fatal: overlap
  // OVERLAP-NEXT: Libomptarget message: explicit extension not allowed: host address specified is 0x{{[0-9a-f]+}} (32 bytes), but device allocation maps to host at 0x{{[0-9a-f]+}} (32 bytes)
  // OVERLAP-C14: Libomptarget error: __tgt_target: mapping A[4:8] (host 0x{{[0-9a-f]+}}, 32 bytes) failed: it extends the existing mapping A[0:8] (host 0x{{[0-9a-f]+}}, 32 bytes): map a section within that one, or unmap it first{{$}}
  // OVERLAP-C19: Libomptarget error: __tgt_target_kernel: mapping A[4:8] (host 0x{{[0-9a-f]+}}, 32 bytes) failed: it extends the existing mapping A[0:8] (host 0x{{[0-9a-f]+}}, 32 bytes): map a section within that one, or unmap it first{{$}}
  // OVERLAP: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // PMAP-NOT: not reached
  // PENTER-NOT: not reached
  // PEXIT-NOT: not reached
  // PUPDATE-NOT: not reached
  // EXTEND-NOT: not reached
  // OVERLAP-NOT: not reached
  printf("fatal: %s\n", What);
  if (!strcmp(What, "present-map")) {
#pragma omp target map(present, tofrom : Missing)
    Missing[0] = 1;
  } else if (!strcmp(What, "present-enter")) {
#pragma omp target enter data map(present, to : Missing)
  } else if (!strcmp(What, "present-exit")) {
#pragma omp target exit data map(present, from : Missing)
  } else if (!strcmp(What, "present-update")) {
#pragma omp target update from(present : Missing)
  } else if (!strcmp(What, "extend")) {
#pragma omp target enter data map(to : A[0:4])
#pragma omp target map(tofrom : A[0:8])
    A[0] = 1;
  } else if (!strcmp(What, "overlap")) {
#pragma omp target enter data map(to : A[0:8])
#pragma omp target map(tofrom : A[4:8])
    A[4] = 1;
  }
  printf("not reached: %s\n", What);
  return 0;
}

int main(int argc, char **argv) {
  setbuf(stdout, NULL);
  if (argc > 1) return fatal(argv[1]);
  const int Dev = 0;
  for (int I = 0; I < 16; ++I) A[I] = I;
  long Before = mappedEntries(0);
  // MAIN: mapped entries at start: [[#]]
  printf("mapped entries at start: %ld\n", Before);

  // == Disassociating data a map clause mapped: refused, still mapped.
  // MAIN-NEXT: Libomptarget error: omp_target_disassociate_ptr: host pointer [[A:0x[0-9a-f]+]] on device 0 was mapped by a map clause, not by omp_target_associate_ptr
  // MAIN-NEXT: disassociate mapped: -1
  // MAIN-NEXT: Libomptarget error: omp_target_disassociate_ptr: host pointer 0x{{[0-9a-f]+}} has no association on device 0
  // MAIN-NEXT: disassociate interior of mapped: -1
  // MAIN-NEXT: still present: 1
  // MAIN-NEXT: family disassociate: +0 entries
#pragma omp target enter data map(to : A)
  printf("disassociate mapped: %d\n", omp_target_disassociate_ptr(A, Dev));
  printf("disassociate interior of mapped: %d\n", omp_target_disassociate_ptr(A + 4, Dev));
  printf("still present: %d\n", omp_target_is_present(A, Dev));
#pragma omp target exit data map(release : A)
  printf("family disassociate: %+ld entries\n", mappedEntries(0) - Before);

  // == Mismatched enter/exit counts.
  // MAIN-NEXT: extra exits: present 0, +0 entries
  // MAIN-NEXT: delete unmapped: present 0
  // MAIN-NEXT: delete in target data: present 0
  // MAIN-NEXT: after target data: present 0, A[1] 1, +0 entries
  // MAIN-NEXT: delete under hold: present 1
  // MAIN-NEXT: after hold region: present 0, A[2] 102, +0 entries
  // MAIN-NEXT: family counts: +0 entries
  // An extra exit, and `release` below zero: no-ops.
#pragma omp target enter data map(to : A)
#pragma omp target exit data map(release : A)
#pragma omp target exit data map(release : A)
#pragma omp target exit data map(from : A)
  printf("extra exits: present %d, %+ld entries\n", omp_target_is_present(A, Dev),
         mappedEntries(0) - Before);
  // `delete` of data never mapped: a no-op.
#pragma omp target exit data map(delete : A)
  printf("delete unmapped: present %d\n", omp_target_is_present(A, Dev));
  // `delete` inside a `target data` region that maps the data: the entry
  // goes at once (OpenMP: the reference count is set to zero); the region's
  // end finds nothing to copy back.
#pragma omp target data map(tofrom : A)
  {
#pragma omp target
    A[1] = 101;
#pragma omp target exit data map(delete : A)
    printf("delete in target data: present %d\n", omp_target_is_present(A, Dev));
  }
  printf("after target data: present %d, A[1] %d, %+ld entries\n", omp_target_is_present(A, Dev),
         A[1], mappedEntries(0) - Before);
  // `delete` while an ompx_hold region holds the data: the dynamic count
  // goes, the hold keeps the entry until the region ends, which copies back.
#pragma omp target data map(ompx_hold, tofrom : A)
  {
#pragma omp target enter data map(to : A)
#pragma omp target
    A[2] = 102;
#pragma omp target exit data map(delete : A)
    printf("delete under hold: present %d\n", omp_target_is_present(A, Dev));
  }
  printf("after hold region: present %d, A[2] %d, %+ld entries\n", omp_target_is_present(A, Dev),
         A[2], mappedEntries(0) - Before);
  printf("family counts: %+ld entries\n", mappedEntries(0) - Before);

  // == Overlapping ranges that are legal: a section inside a mapped array
  // shares its entry (one more reference); an exit of a section that only
  // partly overlaps the mapping is not that mapping (no-op).
  // MAIN-NEXT: section inside: +1 entries
  // MAIN-NEXT: partial exit: present 1 0
  // MAIN-NEXT: family overlap: present 0, +0 entries
  // MAIN-NEXT: A: 0 1 102 3
  // MAIN-NOT: Libomptarget
#pragma omp target enter data map(to : A[0:8])
#pragma omp target enter data map(to : A[2:2])
  printf("section inside: %+ld entries\n", mappedEntries(0) - Before);
#pragma omp target exit data map(release : A[4:8])
  printf("partial exit: present %d %d\n", omp_target_is_present(A, Dev),
         omp_target_is_present(A + 8, Dev));
#pragma omp target exit data map(release : A[2:2])
#pragma omp target exit data map(release : A[0:8])
  printf("family overlap: present %d, %+ld entries\n", omp_target_is_present(A, Dev),
         mappedEntries(0) - Before);
  printf("A: %d %d %d %d\n", A[0], A[1], A[2], A[3]);
  return 0;
}

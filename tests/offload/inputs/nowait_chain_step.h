// One region of a nowait dependence chain (nowait_dep_chain.c,
// nowait_dep_exit_data.c): region k computes x[i] = x[i] * 2 + k + 1 on
// x[0:n] mapped tofrom, `target parallel for` for even k and `target` for odd
// k, `depend(inout: x[0])` and `nowait`. Unsigned, so wrapping is defined; two
// regions run out of order or overlapping give other values than the host's
// replay of the chain.
#pragma once

static void chainStep(unsigned *x, int n, int k) {
  if (k % 2 == 0) {
#pragma omp target parallel for map(tofrom : x[0:n]) depend(inout : x[0]) nowait
    for (int i = 0; i < n; i++) x[i] = x[i] * 2u + (unsigned)(k + 1);
  } else {
#pragma omp target map(tofrom : x[0:n]) depend(inout : x[0]) nowait
    for (int i = 0; i < n; i++) x[i] = x[i] * 2u + (unsigned)(k + 1);
  }
}

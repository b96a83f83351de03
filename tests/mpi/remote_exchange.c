// Copies between remote devices (omp_target_memcpy device to device), run by
// run_mpi_test.sh's `exchange` case with 2 device servers of 2 host devices
// each after the program's own 2: devices 2 and 3 are rank 1's, 4 and 5
// rank 2's. Each copy is checked byte for byte on the host:
//   rank 1 -> rank 2 (server to server), rank 2 -> rank 1, two devices of
//   one server, and within one device; 4 KiB and 20 MiB (three 8 MiB
//   chunks on the wire); offsets inside the blocks.
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check(const char *What, const unsigned char *Got, const unsigned char *Want, size_t N) {
  for (size_t I = 0; I < N; ++I)
    if (Got[I] != Want[I]) {
      printf("%s: WRONG at byte %zu: %u, %u expected\n", What, I, Got[I], Want[I]);
      return 1;
    }
  printf("%s: ok\n", What);
  return 0;
}

int main(void) {
  const int Host = omp_get_initial_device();
  if (omp_get_num_devices() != 6) {
    printf("6 devices expected, %d found\n", omp_get_num_devices());
    return 1;
  }
  int Bad = 0;
  const size_t Sizes[] = {4096, 20u << 20};
  for (int S = 0; S < 2; ++S) {
    const size_t N = Sizes[S];
    unsigned char *Want = malloc(N), *Got = malloc(N);
    for (size_t I = 0; I < N; ++I) Want[I] = (unsigned char)(I * 7 + S);
    // Blocks: one each on devices 2 (rank 1), 3 (rank 1), 4 (rank 2), and
    // a second on device 2.
    const int Dev[4] = {2, 3, 4, 2};
    unsigned char *B[4];
    for (int D = 0; D < 4; ++D) {
      B[D] = omp_target_alloc(N + 64, Dev[D]);
      if (!B[D]) {
        printf("omp_target_alloc on device %d failed\n", Dev[D]);
        return 1;
      }
    }
    char What[64];
    Bad |= omp_target_memcpy(B[0], Want, N, 0, 0, Dev[0], Host);
    // rank 1 -> rank 2, at offsets.
    Bad |= omp_target_memcpy(B[2], B[0], N, 16, 0, 4, 2);
    memset(Got, 0, N);
    Bad |= omp_target_memcpy(Got, B[2], N, 0, 16, Host, 4);
    snprintf(What, sizeof What, "%zu bytes rank 1 -> rank 2", N);
    Bad |= check(What, Got, Want, N);
    // rank 2 -> rank 1.
    Bad |= omp_target_memcpy(B[1], B[2], N, 0, 16, 3, 4);
    memset(Got, 0, N);
    Bad |= omp_target_memcpy(Got, B[1], N, 0, 0, Host, 3);
    snprintf(What, sizeof What, "%zu bytes rank 2 -> rank 1", N);
    Bad |= check(What, Got, Want, N);
    // Two devices of rank 1 (3 -> 2), then within device 2.
    Bad |= omp_target_memcpy(B[3], B[1], N, 32, 0, 2, 3);
    Bad |= omp_target_memcpy(B[0], B[3], N, 0, 32, 2, 2);
    memset(Got, 0, N);
    Bad |= omp_target_memcpy(Got, B[0], N, 0, 0, Host, 2);
    snprintf(What, sizeof What, "%zu bytes within rank 1", N);
    Bad |= check(What, Got, Want, N);
    for (int D = 0; D < 4; ++D) omp_target_free(B[D], Dev[D]);
    free(Want);
    free(Got);
  }
  printf("exchange: %s\n", Bad ? "FAILED" : "all ok");
  return Bad;
}

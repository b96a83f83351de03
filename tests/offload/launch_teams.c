// Launch: `target teams` with num_teams/thread_limit (__tgt_target_teams).
// The host plugin may create fewer teams than requested (it is bounded by the
// host's cores), so we check bounds and that every created team ran once.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int nteams = -1;
  int ran[64] = {0};
#pragma omp target teams num_teams(2) thread_limit(4) map(from : nteams) map(tofrom : ran)
  {
    int t = omp_get_team_num();
    if (t == 0) nteams = omp_get_num_teams();
    ran[t] += 1;
  }
  int total = 0;
  for (int i = 0; i < 64; i++) total += ran[i];
  // CHECK: teams ok=1 total_matches=1
  printf("teams ok=%d total_matches=%d\n", nteams >= 1 && nteams <= 2,
         total == nteams);

  int one = -1;
#pragma omp target teams num_teams(1) map(from : one)
  { one = omp_get_num_teams(); }
  // CHECK: num_teams(1) -> 1
  printf("num_teams(1) -> %d\n", one);

  // thread_limit bounds the parallel region inside the team.
  int nthreads = -1;
#pragma omp target teams num_teams(1) thread_limit(2) map(from : nthreads)
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) nthreads = omp_get_num_threads();
  }
  // CHECK: threads ok=1
  printf("threads ok=%d\n", nthreads >= 1 && nthreads <= 2);
  return 0;
}

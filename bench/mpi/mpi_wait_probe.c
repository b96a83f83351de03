// A diagnostic for the MPI plugin's benchmark (not a benchmark itself):
// an LD_PRELOAD library that counts, per process, what the MPI transport
// does while it waits, and prints it when the process exits:
//   probe rank=R isend=N isend_bytes=B small_isends=S polls=P sleeps=Z slept_us=U
// isend: MPI_Isend calls (every control message and data chunk the plugin
// and the server send); small_isends: those of at most 256 bytes (control
// messages); polls: MPI_Test + MPI_Improbe calls; sleeps: nanosleep calls
// (the transport's Backoff: the first version slept 20 us between polls
// after 200 of them; it now yields for 50 ms of a wait, then sleeps)
// and slept_us the wall time spent in them (summed over threads). The
// line goes to stderr, or is appended to the file MPI_WAIT_PROBE_OUT names
// (a device server's stderr may be gone when it exits).
// MPI_WAIT_PROBE_NOSLEEP=1 turns every nanosleep into a return (the
// transport then polls without sleeping): the what-if of a busy wait,
// measured without changing the plugin. Built by run_mpi_bench.sh with
// mpicc -shared; used as
//   mpirun -x LD_PRELOAD=.../mpi_wait_probe.so -x MPI_WAIT_PROBE_OUT ...
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <mpi.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static atomic_long Isends, IsendBytes, Small, Polls, Sleeps, SleptNs;

int MPI_Isend(const void *Buf, int Count, MPI_Datatype T, int Dest, int Tag, MPI_Comm C,
              MPI_Request *R) {
  int Size = 1;
  PMPI_Type_size(T, &Size);
  atomic_fetch_add(&Isends, 1);
  atomic_fetch_add(&IsendBytes, (long)Count * Size);
  if ((long)Count * Size <= 256) atomic_fetch_add(&Small, 1);
  return PMPI_Isend(Buf, Count, T, Dest, Tag, C, R);
}

int MPI_Test(MPI_Request *R, int *Flag, MPI_Status *S) {
  atomic_fetch_add(&Polls, 1);
  return PMPI_Test(R, Flag, S);
}

int MPI_Improbe(int Source, int Tag, MPI_Comm C, int *Flag, MPI_Message *M, MPI_Status *S) {
  atomic_fetch_add(&Polls, 1);
  return PMPI_Improbe(Source, Tag, C, Flag, M, S);
}

int nanosleep(const struct timespec *Req, struct timespec *Rem) {
  static int (*Real)(const struct timespec *, struct timespec *);
  if (!Real) Real = (int (*)(const struct timespec *, struct timespec *))dlsym(RTLD_NEXT, "nanosleep");
  static int NoSleep = -1;
  if (NoSleep < 0) NoSleep = getenv("MPI_WAIT_PROBE_NOSLEEP") && *getenv("MPI_WAIT_PROBE_NOSLEEP") == '1';
  if (NoSleep) {
    atomic_fetch_add(&Sleeps, 1);
    return 0;
  }
  struct timespec A, B;
  clock_gettime(CLOCK_MONOTONIC, &A);
  int Rc = Real(Req, Rem);
  clock_gettime(CLOCK_MONOTONIC, &B);
  atomic_fetch_add(&Sleeps, 1);
  atomic_fetch_add(&SleptNs, (B.tv_sec - A.tv_sec) * 1000000000L + (B.tv_nsec - A.tv_nsec));
  return Rc;
}

static int Rank = -1;
int MPI_Comm_rank(MPI_Comm C, int *R) {
  int Rc = PMPI_Comm_rank(C, R);
  if (Rc == MPI_SUCCESS && Rank < 0) Rank = *R;
  return Rc;
}

// At MPI_Finalize (a device server may not get to its destructors), or at
// exit for a process that never finalizes; once.
static atomic_int Reported;
static void report(void) {
  if (atomic_load(&Isends) == 0 && atomic_load(&Polls) == 0) return;  // mpirun itself
  if (atomic_exchange(&Reported, 1)) return;
  char Line[256];
  int N = snprintf(Line, sizeof Line,
                   "probe rank=%d isend=%ld isend_bytes=%ld small_isends=%ld polls=%ld sleeps=%ld "
                   "slept_us=%ld\n",
                   Rank, atomic_load(&Isends), atomic_load(&IsendBytes), atomic_load(&Small),
                   atomic_load(&Polls), atomic_load(&Sleeps), atomic_load(&SleptNs) / 1000);
  const char *Out = getenv("MPI_WAIT_PROBE_OUT");
  int Fd = Out && *Out ? open(Out, O_WRONLY | O_CREAT | O_APPEND, 0644) : 2;
  if (N > 0 && Fd >= 0) (void)!write(Fd, Line, (size_t)N);
  if (Fd > 2) close(Fd);
}

int MPI_Finalize(void) {
  report();
  return PMPI_Finalize();
}

__attribute__((destructor)) static void reportAtExit(void) { report(); }

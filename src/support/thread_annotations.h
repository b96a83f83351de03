// Clang thread-safety annotations (-Wthread-safety): which lock guards a
// member, which locks a function needs, takes or gives back. Under clang
// the build with OMPTARGET_THREAD_SAFETY_ANALYSIS=ON turns every mismatch
// into an error; under g++ the macros expand to nothing.
//
//   CAPABILITY(name)         a lock class (FutexMutex)
//   SCOPED_CAPABILITY        an RAII guard class (ScopedLock, UniqueLock)
//   GUARDED_BY(m)            a member read or written only with m held
//   REQUIRES(m...)           a function called with m held
//   ACQUIRE(m...)/RELEASE(m...)   a function that takes / gives back m
//                            (no argument: the object itself, or the lock
//                            a scoped guard holds)
//   ACQUIRE_SHARED(m...)/RELEASE_SHARED(m...)   the same, for a shared
//                            (reader) hold of a SharedMutex
//   RELEASE_GENERIC()        a scoped guard's destructor that gives back
//                            whichever hold it took
//   REQUIRES_SHARED(m...)    a function called with at least a shared hold
//   TRY_ACQUIRE(ok, m...)    takes m when it returns ok
//   RETURN_CAPABILITY(m)     an accessor that returns a reference to m
//   NO_THREAD_SAFETY_ANALYSIS    a function the analysis cannot follow; its
//                            comment says why it is safe
//
// Members deliberately read without their lock (atomics, values written once
// before publication) are not annotated; their comments say so.
#pragma once

#if defined(__clang__)
#define OMPTARGET_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define OMPTARGET_THREAD_ANNOTATION(x)
#endif

#define CAPABILITY(x) OMPTARGET_THREAD_ANNOTATION(capability(x))
#define SCOPED_CAPABILITY OMPTARGET_THREAD_ANNOTATION(scoped_lockable)
#define GUARDED_BY(x) OMPTARGET_THREAD_ANNOTATION(guarded_by(x))
#define REQUIRES(...) OMPTARGET_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define ACQUIRE(...) OMPTARGET_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define RELEASE(...) OMPTARGET_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define ACQUIRE_SHARED(...) OMPTARGET_THREAD_ANNOTATION(acquire_shared_capability(__VA_ARGS__))
#define RELEASE_SHARED(...) OMPTARGET_THREAD_ANNOTATION(release_shared_capability(__VA_ARGS__))
#define RELEASE_GENERIC(...) OMPTARGET_THREAD_ANNOTATION(release_generic_capability(__VA_ARGS__))
#define REQUIRES_SHARED(...) OMPTARGET_THREAD_ANNOTATION(requires_shared_capability(__VA_ARGS__))
#define TRY_ACQUIRE(...) OMPTARGET_THREAD_ANNOTATION(try_acquire_capability(__VA_ARGS__))
#define RETURN_CAPABILITY(x) OMPTARGET_THREAD_ANNOTATION(lock_returned(x))
#define NO_THREAD_SAFETY_ANALYSIS OMPTARGET_THREAD_ANNOTATION(no_thread_safety_analysis)

// Memory allocators in target regions (omp_alloc, omp_aligned_alloc,
// omp_calloc, omp_aligned_calloc, omp_realloc, omp_free with every
// predefined allocator; omp_init_allocator's alignment, pool_size and
// fallback traits; a user allocator made in one target region and used by
// the threads of many teams in another) and the teams ICVs
// (omp_get_max_teams, omp_get_teams_thread_limit). On the host device these
// are libomp's, which (without memkind) has no large-capacity or
// high-bandwidth memory: there those two allocators may return NULL. The
// answers of our device runtime alone (all memory from the device heap,
// 16-byte alignment, traits it refuses, the launch's teams) are checked where
// ON_GPU is 1.
// GPU: devrtl-only (LLVM 14's device runtime defines none of these: the kernels do not link)
// libomp 19 segfaults in omp_free of a block that a pool allocator's
// default_mem_fb fallback served, whenever a libomptarget is loaded (ours or
// LLVM 19's; a host-only program that just loads one crashes the same way).
// XFAIL: libomp-19
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

#define ALIGNED(p, a) ((p) != NULL && ((uintptr_t)(p) & ((uintptr_t)(a) - 1)) == 0)
#ifdef __NVPTX__
#define ON_GPU 1
#else
#define ON_GPU 0
#endif

#pragma omp declare target
// Writes n bytes of a pattern starting at v and reads them back.
static int fill_check(void *ptr, size_t n, unsigned v) {
  unsigned char *p = (unsigned char *)ptr;
  if (!p)
    return 0;
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(v + i);
  for (size_t i = 0; i < n; i++)
    if (p[i] != (unsigned char)(v + i)) return 0;
  return 1;
}
static int pattern_kept(const void *ptr, size_t n, unsigned v) {
  const unsigned char *p = (const unsigned char *)ptr;
  if (!p)
    return 0;
  for (size_t i = 0; i < n; i++)
    if (p[i] != (unsigned char)(v + i)) return 0;
  return 1;
}
static int all_zero(const void *ptr, size_t n) {
  const unsigned char *p = (const unsigned char *)ptr;
  if (!p)
    return 0;
  for (size_t i = 0; i < n; i++)
    if (p[i]) return 0;
  return 1;
}
#pragma omp end declare target

static int report(const char *what, int ok) {
  printf("%s: %s\n", what, ok ? "ok" : "WRONG");
  return !ok;
}

int main(void) {
  int fails = 0;

  // Every predefined allocator (and omp_null_allocator, the default one)
  // gives usable, aligned memory.
  int predefined = 0;
#pragma omp target map(tofrom : predefined)
  {
    omp_allocator_handle_t all[] = {omp_null_allocator,    omp_default_mem_alloc, omp_large_cap_mem_alloc,
                                    omp_const_mem_alloc,   omp_high_bw_mem_alloc, omp_low_lat_mem_alloc,
                                    omp_cgroup_mem_alloc,  omp_pteam_mem_alloc,   omp_thread_mem_alloc};
    int ok = 1;
    for (int k = 0; k < (int)(sizeof(all) / sizeof(all[0])); k++) {
      void *p = omp_alloc(100 + k, all[k]);
      int may_fail = !ON_GPU && (all[k] == omp_large_cap_mem_alloc || all[k] == omp_high_bw_mem_alloc);
      if (p || !may_fail)
        ok &= ALIGNED(p, ON_GPU ? 16 : 8) && fill_check(p, 100 + k, k);
      omp_free(p, all[k]);
    }
    ok &= omp_alloc(0, omp_default_mem_alloc) == NULL;
    omp_free(NULL, omp_default_mem_alloc);
    predefined = ok;
  }
  // CHECK: predefined allocators: ok
  fails += report("predefined allocators", predefined);

  // Aligned and zeroed blocks; omp_realloc keeps the contents.
  int aligned = 0, zeroed = 0, realloc_ok = 0;
#pragma omp target map(tofrom : aligned, zeroed, realloc_ok)
  {
    void *a = omp_aligned_alloc(256, 1000, omp_default_mem_alloc);
    aligned = ALIGNED(a, 256) && fill_check(a, 1000, 3);
    omp_free(a, omp_default_mem_alloc);

    omp_allocator_handle_t ca = ON_GPU ? omp_large_cap_mem_alloc : omp_default_mem_alloc;
    omp_allocator_handle_t aca = ON_GPU ? omp_high_bw_mem_alloc : omp_low_lat_mem_alloc;
    void *c = omp_calloc(50, 8, ca);
    void *ac = omp_aligned_calloc(128, 10, 10, aca);
    zeroed = all_zero(c, 400) && ALIGNED(ac, 128) && all_zero(ac, 100);
    omp_free(c, ca);
    omp_free(ac, aca);

    void *r = omp_realloc(NULL, 64, omp_default_mem_alloc, omp_null_allocator);
    int ok = fill_check(r, 64, 7);
    r = omp_realloc(r, 4096, omp_default_mem_alloc, omp_default_mem_alloc);
    ok &= pattern_kept(r, 64, 7) && fill_check(r, 4096, 9);
    r = omp_realloc(r, 16, omp_default_mem_alloc, omp_default_mem_alloc);
    ok &= pattern_kept(r, 16, 9);
    ok &= omp_realloc(r, 0, omp_default_mem_alloc, omp_default_mem_alloc) == NULL;
    realloc_ok = ok;
  }
  // CHECK: aligned: ok
  // CHECK: zeroed: ok
  // CHECK: realloc: ok
  fails += report("aligned", aligned);
  fails += report("zeroed", zeroed);
  fails += report("realloc", realloc_ok);

  // User allocators: the alignment trait, a pool with each fallback.
  int traits_ok = 0, pool_null = 0, pool_default = 0, pool_allocator = 0;
#pragma omp target map(tofrom : traits_ok, pool_null, pool_default, pool_allocator)
  {
    omp_alloctrait_t t1[] = {{omp_atk_alignment, 512}, {omp_atk_access, omp_atv_all},
                             {omp_atk_sync_hint, omp_atv_contended}, {omp_atk_partition, omp_atv_environment}};
    omp_allocator_handle_t a1 = omp_init_allocator(omp_default_mem_space, 4, t1);
    void *p = omp_alloc(300, a1);
    void *q = omp_aligned_alloc(2048, 10, a1);  // the larger of the two alignments
    void *z = omp_calloc(3, 100, a1);
    traits_ok = a1 != omp_null_allocator && ALIGNED(p, 512) && fill_check(p, 300, 1) && ALIGNED(q, 2048) &&
                ALIGNED(z, 512) && all_zero(z, 300);
    omp_free(p, a1);
    omp_free(q, a1);
    omp_free(z, a1);
    omp_destroy_allocator(a1);

    // 4096 bytes: 1024 fit, 3584 more do not, and fit again once the 1024
    // are freed.
    omp_alloctrait_t t2[] = {{omp_atk_pool_size, 4096}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t a2 = omp_init_allocator(omp_default_mem_space, 2, t2);
    void *p1 = omp_alloc(1024, a2);
    void *p2 = omp_alloc(3584, a2);
    int ok = a2 != omp_null_allocator && fill_check(p1, 1024, 2) && p2 == NULL;
    omp_free(p1, a2);
    void *p3 = omp_alloc(3584, a2);
    ok &= fill_check(p3, 3584, 4);
    omp_free(p3, a2);
    omp_destroy_allocator(a2);
    pool_null = ok;

    omp_alloctrait_t t3[] = {{omp_atk_pool_size, 1024}, {omp_atk_fallback, omp_atv_default_mem_fb}};
    omp_allocator_handle_t a3 = omp_init_allocator(omp_default_mem_space, 2, t3);
    void *big = omp_alloc(4096, a3);  // served by omp_default_mem_alloc
    pool_default = a3 != omp_null_allocator && fill_check(big, 4096, 5);
    omp_free(big, a3);
    omp_destroy_allocator(a3);

    omp_alloctrait_t tfb[] = {{omp_atk_alignment, 1024}};
    omp_allocator_handle_t fb = omp_init_allocator(omp_low_lat_mem_space, 1, tfb);
    omp_alloctrait_t t4[] = {
        {omp_atk_pool_size, 1024}, {omp_atk_fallback, omp_atv_allocator_fb}, {omp_atk_fb_data, (omp_uintptr_t)fb}};
    omp_allocator_handle_t a4 = omp_init_allocator(omp_default_mem_space, 3, t4);
    void *small = omp_alloc(100, a4);
    void *over = omp_alloc(2048, a4);  // served by fb, 1024-aligned
    pool_allocator = fb != omp_null_allocator && a4 != omp_null_allocator && fill_check(small, 100, 6) &&
                     ALIGNED(over, 1024) && fill_check(over, 2048, 7);
    omp_free(small, a4);
    omp_free(over, a4);
    omp_destroy_allocator(a4);
    omp_destroy_allocator(fb);
  }
  // CHECK: alignment trait: ok
  // CHECK: pool, null_fb: ok
  // CHECK: pool, default_mem_fb: ok
  // CHECK: pool, allocator_fb: ok
  fails += report("alignment trait", traits_ok);
  fails += report("pool, null_fb", pool_null);
  fails += report("pool, default_mem_fb", pool_default);
  fails += report("pool, allocator_fb", pool_allocator);

  // An allocator made in one target region serves the threads of many teams
  // in the next and goes in a third.
  omp_uintptr_t shared_alloc = 0;
#pragma omp target map(tofrom : shared_alloc)
  {
    omp_alloctrait_t t[] = {{omp_atk_alignment, 64}, {omp_atk_access, omp_atv_thread}};
    shared_alloc = (omp_uintptr_t)omp_init_allocator(omp_default_mem_space, 2, t);
  }
  int bad = 0;
#pragma omp target teams distribute parallel for num_teams(8) thread_limit(128) reduction(+ : bad) \
    map(to : shared_alloc)
  for (int i = 0; i < 4096; i++) {
    omp_allocator_handle_t a = (omp_allocator_handle_t)shared_alloc;
    size_t n = 24 + (size_t)(i % 100);
    void *p = omp_alloc(n, a);
    void *q = omp_alloc(n, omp_thread_mem_alloc);
    if (!(ALIGNED(p, 64) && fill_check(p, n, (unsigned)i) && fill_check(q, n, (unsigned)i + 1) &&
          pattern_kept(p, n, (unsigned)i)))
      bad++;
    omp_free(q, omp_thread_mem_alloc);
    omp_free(p, a);
  }
#pragma omp target map(to : shared_alloc)
  omp_destroy_allocator((omp_allocator_handle_t)shared_alloc);
  // CHECK: allocations in parallel: ok
  fails += report("allocations in parallel", shared_alloc != 0 && bad == 0);

  // Our device runtime's own answers.
  int device_only = 0;
#pragma omp target teams num_teams(3) thread_limit(64) map(tofrom : device_only)
  {
    if (omp_get_team_num() == 0) {
      int ok = 1;
#if ON_GPU
      omp_alloctrait_t odd[] = {{omp_atk_alignment, 24}};
      omp_alloctrait_t unknown[] = {{(omp_alloctrait_key_t)99, 1}};
      omp_alloctrait_t bad_value[] = {{omp_atk_fallback, omp_atv_thread}};
      ok &= omp_init_allocator(omp_default_mem_space, 1, odd) == omp_null_allocator;
      ok &= omp_init_allocator(omp_default_mem_space, 1, unknown) == omp_null_allocator;
      ok &= omp_init_allocator(omp_default_mem_space, 1, bad_value) == omp_null_allocator;
      // Host memory cannot be allocated from device code.
      ok &= omp_init_allocator(llvm_omp_target_host_mem_space, 0, NULL) == omp_null_allocator;
      // A handle the device does not know (such as the host's handle of an
      // allocator) is served as omp_default_mem_alloc.
      void *p = omp_alloc(40, (omp_allocator_handle_t)0x7f001234);
      ok &= ALIGNED(p, 16) && fill_check(p, 40, 8);
      omp_free(p, (omp_allocator_handle_t)0x7f001234);
      // The teams ICVs describe the launch; setting them changes nothing.
      omp_set_num_teams(17);
      omp_set_teams_thread_limit(5);
      ok &= omp_get_max_teams() == omp_get_num_teams() && omp_get_num_teams() == 3;
      ok &= omp_get_teams_thread_limit() == omp_get_thread_limit();
#endif
      device_only = ok;
    }
  }
  // CHECK: device runtime answers: ok
  fails += report("device runtime answers", device_only);

  // CHECK: failures: 0
  printf("failures: %d\n", fails);
  return fails != 0;
}

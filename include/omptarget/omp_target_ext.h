/* omptarget: OpenMP API routines that libomptarget.so provides beyond LLVM 14.
 *
 * Include this header (after or instead of <omp.h>) to call them; link with
 * -fopenmp as usual (clang links libomptarget.so for offloading programs; add
 * -lomptarget otherwise). The declarations are identical to the OpenMP 5.1
 * ones, so they agree with a newer <omp.h> that declares them too.
 *
 *   omp_target_memcpy_async       OpenMP 5.1, section 3.8.7
 *   omp_target_memcpy_rect_async  OpenMP 5.1, section 3.8.8
 *
 * Each creates a task that performs the copy of omp_target_memcpy[_rect] after
 * the dependences of the depend objects in depobj_list are satisfied (made by
 * `#pragma omp depobj(obj) depend(...)`; depobj_list may be NULL when
 * depobj_count is 0). The return value reports the submission: 0 when the
 * task was created, nonzero (with a "Libomptarget error:" message) when an
 * argument is invalid. Wait for the copy with `#pragma omp taskwait`, a barrier,
 * or a task that depends on the same storage. omp_target_memcpy_rect_async
 * with NULL dst and src returns the number of dimensions supported (INT_MAX).
 */
#ifndef OMPTARGET_OMP_TARGET_EXT_H
#define OMPTARGET_OMP_TARGET_EXT_H

#include <stddef.h>
#include <omp.h>

#define OMPTARGET_HAS_MEMCPY_ASYNC 1

#ifdef __cplusplus
extern "C" {
#endif

int omp_target_memcpy_async(void *dst, const void *src, size_t length, size_t dst_offset,
                            size_t src_offset, int dst_device_num, int src_device_num,
                            int depobj_count, omp_depend_t *depobj_list);

int omp_target_memcpy_rect_async(void *dst, const void *src, size_t element_size, int num_dims,
                                 const size_t *volume, const size_t *dst_offsets,
                                 const size_t *src_offsets, const size_t *dst_dimensions,
                                 const size_t *src_dimensions, int dst_device_num,
                                 int src_device_num, int depobj_count, omp_depend_t *depobj_list);

#ifdef __cplusplus
}
#endif

#endif /* OMPTARGET_OMP_TARGET_EXT_H */

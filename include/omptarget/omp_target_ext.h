/* omptarget: OpenMP API routines that libomptarget.so provides beyond LLVM 14.
 *
 * Include this header (after or instead of <omp.h>) to call them; link with
 * -fopenmp as usual (clang links libomptarget.so for offloading programs; add
 * -lomptarget otherwise). The declarations are the OpenMP ones, so they agree
 * with a newer <omp.h> that declares them too; the constants are defined only
 * where <omp.h> has not defined them.
 *
 *   omp_target_memcpy_async       OpenMP 5.1: a task that performs the copy
 *   omp_target_memcpy_rect_async  of omp_target_memcpy[_rect]
 *   omp_get_mapped_ptr            OpenMP 5.1 (clang 14's omp.h declares it)
 *   omp_target_is_accessible      OpenMP 5.1 (likewise)
 *   omp_target_memset             OpenMP 5.2
 *   omp_target_memset_async       OpenMP 6.0
 *   omp_get_uid_from_device       OpenMP 6.0
 *   omp_get_device_from_uid       OpenMP 6.0
 *   omp_initial_device            OpenMP 5.2: -1, the host, in every routine
 *                                 that takes a device number
 *   omp_invalid_device            OpenMP 5.2: -2, no device; a routine given
 *                                 it fails with a message
 *   llvm_omp_target_free_host     LLVM's: free memory of the matching
 *   llvm_omp_target_free_shared   llvm_omp_target_alloc_* (also declared
 *   llvm_omp_target_free_device   here)
 *   omptarget_get_device_properties  ours: a device's properties as text
 *                                 (key, value) pairs, for device listings
 *
 * The asynchronous routines create a task that does the work of their
 * synchronous variant after the dependences of the depend objects in
 * depobj_list are satisfied (made by `#pragma omp depobj(obj) depend(...)`;
 * depobj_list may be NULL when depobj_count is 0). Their return value reports
 * the submission: 0 (memcpy) or ptr (memset) when the task was created,
 * nonzero or NULL (with a "Libomptarget error:" message) when an argument is
 * invalid. Wait for the work with `#pragma omp taskwait`, a barrier, or a
 * task that depends on the same storage. omp_target_memcpy_rect_async with
 * NULL dst and src returns the number of dimensions supported (INT_MAX).
 *
 * omp_target_memset returns ptr, or NULL (with a message) when an argument is
 * invalid or the fill failed. Device ids: "HOST" for the initial device, the
 * GPU's UUID ("GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx") on CUDA devices,
 * "<plugin>-<n>" ("x86_64-0") on host-plugin devices.
 *
 * omptarget_get_device_properties(device_num, fn, ctx) calls fn(ctx, key,
 * value) once per property of device device_num (0..omp_get_num_devices()-1;
 * not the initial device), in display order, and returns 0; both strings
 * live only during the call. First the core's keys: device_num, plugin
 * ("x86_64", "cuda"), plugin_device_id, uid (omp_get_uid_from_device) and
 * peers (the other device numbers it copies to directly, comma-separated;
 * "" for none), mapped_entries (the entries of its mapping table now,
 * declare-target globals included); then the plugin's (name, memory_total_bytes, queue_mode, ...:
 * docs/plugin-abi.md lists them). Integer values are in decimal. The device,
 * and the other devices of its plugin, are started by the call, with no
 * image needed. Devices get numbers when an image for their plugin is
 * registered; a listing calls __tgt_init_all_rtls() first to number every
 * plugin's devices (omptarget-info does). An invalid device_num or a device
 * that cannot start: nonzero, with a "Libomptarget error:" message.
 *
 * clang 14 rejects `device(omp_initial_device)` on a construct (a negative
 * constant); a device clause whose variable holds -1 cannot be told from no
 * device clause (both pass -1): the construct runs on the default device.
 * omp_set_default_device(omp_initial_device) makes such constructs run on
 * the host.
 */
#ifndef OMPTARGET_OMP_TARGET_EXT_H
#define OMPTARGET_OMP_TARGET_EXT_H

#include <omp.h>
#include <stddef.h>

#define OMPTARGET_HAS_MEMCPY_ASYNC 1
#define OMPTARGET_HAS_MEMSET 1
#define OMPTARGET_HAS_DEVICE_UID 1
#define OMPTARGET_HAS_DEVICE_PROPERTIES 1

/* LLVM's later <omp.h> defines these as macros; a <omp.h> that declares them
 * some other way must not be mixed with this header. */
#ifndef omp_initial_device
#define omp_initial_device (-1)
#endif
#ifndef omp_invalid_device
#define omp_invalid_device (-2)
#endif

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

void *omp_get_mapped_ptr(const void *ptr, int device_num);
int omp_target_is_accessible(const void *ptr, size_t size, int device_num);

void *omp_target_memset(void *ptr, int value, size_t count, int device_num);
void *omp_target_memset_async(void *ptr, int value, size_t count, int device_num, int depobj_count,
                              omp_depend_t *depobj_list);

const char *omp_get_uid_from_device(int device_num);
int omp_get_device_from_uid(const char *uid);

void *llvm_omp_target_alloc_device(size_t size, int device_num);
void *llvm_omp_target_alloc_host(size_t size, int device_num);
void *llvm_omp_target_alloc_shared(size_t size, int device_num);
void llvm_omp_target_free_device(void *ptr, int device_num);
void llvm_omp_target_free_host(void *ptr, int device_num);
void llvm_omp_target_free_shared(void *ptr, int device_num);

/* Locked (pinned) host memory: returns the device-accessible address of ptr,
   NULL on failure; reference-counted per device (docs/usage.md). */
void *llvm_omp_target_lock_mem(void *ptr, size_t size, int device_num);
void llvm_omp_target_unlock_mem(void *ptr, int device_num);

int omptarget_get_device_properties(int device_num,
                                    void (*fn)(void *ctx, const char *key, const char *value),
                                    void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* OMPTARGET_OMP_TARGET_EXT_H */

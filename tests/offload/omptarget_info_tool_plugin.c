// omptarget-info with our core and our host plugin: each host device's own
// properties (device_properties: name, type, queue mode, CPUs, memory, the
// memory manager and the pinned map), the queue mode of this configuration
// and of both modes asked explicitly, every host device a peer of the
// others, and the same through --json (integers as numbers).
// (This file only carries the RUN lines: the program is ours.)
// REQUIRES: omptarget-core, omptarget-plugin
// RUN: %run %omptarget_info 2>&1 | %fcheck --check-prefix=LIST -DMODE=%host_queue_mode
// RUN: %run env OMPTARGET_HOST_ASYNC=0 %omptarget_info 2>&1 | %fcheck --check-prefix=LIST -DMODE=synchronous
// RUN: %run env OMPTARGET_HOST_ASYNC=1 OMPTARGET_HOST_ASYNC_DELAY_US=7 %omptarget_info 2>&1 | %fcheck --check-prefixes=LIST,ASYNC -DMODE=asynchronous
// RUN: %run %omptarget_info --json | python3 -c 'import json,sys; d=json.load(sys.stdin); ds=d["devices"]; assert len(ds) == 4, ds; need=["device_num", "plugin", "plugin_device_id", "uid", "peers", "name", "device_type", "queue_mode", "cpus", "memory_total_bytes", "memory_free_bytes", "loaded_images", "memory_manager_threshold_bytes", "cached_blocks", "pinned_ranges", "pinned_bytes"]; assert all(k in x for x in ds for k in need), [k for x in ds for k in need if k not in x]; assert all(x["peers"] == [n for n in range(4) if n != x["device_num"]] for x in ds), ds; assert all(x["queue_mode"] == sys.argv[1] for x in ds), ds; assert all(isinstance(x[k], int) for x in ds for k in ("cpus", "memory_total_bytes", "loaded_images", "pinned_ranges")), ds; assert all(x["loaded_images"] == 0 for x in ds), ds; m=d["peer_access"]; assert m == [[None if i == j else True for j in range(4)] for i in range(4)], m; print("json: ok")' %host_queue_mode | %fcheck --check-prefix=JSON
//
// LIST: omptarget-info: 4 devices (x86_64: 4)
// LIST: Device 0 (x86_64 plugin):
// LIST: Unique id: {{ *}}x86_64-0
// LIST-NEXT: Direct copies to devices: {{ *}}1, 2, 3
// LIST-NEXT: Mapped entries: {{ *}}0
// LIST-NEXT: Name: {{ *[^ ].*}}
// LIST-NEXT: Device type: {{ *}}host (x86_64), runs offloaded code on the CPU
// LIST-NEXT: Queue mode: {{ *}}[[MODE]]
// ASYNC-NEXT: Queue delay: {{ *}}7 us
// LIST: CPUs online: {{ *[1-9][0-9]*$}}
// LIST-NEXT: Memory total: {{ *[1-9][0-9]* bytes \([0-9.]+ [KMGT]iB\)$}}
// LIST-NEXT: Memory free: {{ *[0-9]+ bytes}}
// LIST: Loaded images: {{ *}}0
// LIST: Memory manager threshold: {{ *}}8192 bytes (8.0 KiB)
// LIST-NEXT: Cached blocks: {{ *}}0
// LIST-NEXT: Cached bytes: {{ *}}0 bytes
// LIST-NEXT: Pinned host ranges: {{ *}}0
// LIST-NEXT: Pinned host memory: {{ *}}0 bytes
// LIST: Device 3 (x86_64 plugin):
// LIST: Direct copies to devices: {{ *}}0, 1, 2
// LIST: Queue mode: {{ *}}[[MODE]]
// LIST: Peer access (yes: the row's device copies to the column's device directly):
// LIST-NEXT: {{^ +0 +1 +2 +3$}}
// LIST-NEXT: {{^ +0 +- +yes +yes +yes$}}
// LIST-NEXT: {{^ +1 +yes +- +yes +yes$}}
// LIST-NEXT: {{^ +2 +yes +yes +- +yes$}}
// LIST-NEXT: {{^ +3 +yes +yes +yes +-$}}
// LIST-NOT: {{.}}
// JSON: json: ok
int main(void) { return 0; }

// omptarget-info, our device listing, on our core (with our host plugin or
// LLVM 14's): every device of the host plugin, four, each started without
// an image, with the core's properties (number, plugin, plugin's device id,
// unique id, peers) and the peer-access matrix at the end; --json is one
// document a script reads (the device count and the core's keys on every
// device); --help, an unknown option (usage, exit status 2) and
// OMP_TARGET_OFFLOAD=disabled (0 devices, exit status 0).
// omptarget_info_tool_plugin.c checks what our host plugin adds.
// (This file only carries the RUN lines: the program is ours.)
// REQUIRES: omptarget-core
// RUN: %run %omptarget_info 2>&1 | %fcheck --check-prefix=LIST
// RUN: %run %omptarget_info --json | python3 -c 'import json,sys; d=json.load(sys.stdin); ds=d["devices"]; assert len(ds) == 4, ds; assert d["offload_disabled"] is False; assert [x["device_num"] for x in ds] == [0, 1, 2, 3], ds; assert all(x["plugin"] == "x86_64" and x["plugin_device_id"] == x["device_num"] and x["uid"] == "x86_64-" + str(x["device_num"]) and isinstance(x["peers"], list) for x in ds), ds; m=d["peer_access"]; assert len(m) == 4 and all(len(r) == 4 for r in m), m; assert all(m[i][i] is None for i in range(4)), m; print("json: ok")' | %fcheck --check-prefix=JSON
// RUN: %run %omptarget_info --help | %fcheck --check-prefix=HELP
// RUN: %run sh -c '%omptarget_info --bogus; echo "exit status $?"' 2>&1 | %fcheck --check-prefix=USAGE
// RUN: %run env OMP_TARGET_OFFLOAD=disabled %omptarget_info 2>&1 | %fcheck --check-prefix=DISABLED
// RUN: %run env OMP_TARGET_OFFLOAD=DISABLED %omptarget_info --json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d == {"offload_disabled": True, "devices": [], "peer_access": []}, d; print("json: ok")' | %fcheck --check-prefix=JSON
//
// LIST: omptarget-info: 4 devices (x86_64: 4)
// LIST-EMPTY:
// LIST-NEXT: Device 0 (x86_64 plugin):
// LIST-NEXT: Device number: {{ *}}0
// LIST-NEXT: Plugin: {{ *}}x86_64
// LIST-NEXT: Plugin device id: {{ *}}0
// LIST-NEXT: Unique id: {{ *}}x86_64-0
// LIST-NEXT: Direct copies to devices:
// LIST: Device 3 (x86_64 plugin):
// LIST-NEXT: Device number: {{ *}}3
// LIST-NEXT: Plugin: {{ *}}x86_64
// LIST-NEXT: Plugin device id: {{ *}}3
// LIST-NEXT: Unique id: {{ *}}x86_64-3
// LIST-NOT: Device 4
// LIST: Peer access (yes: the row's device copies to the column's device directly):
// LIST-NEXT: {{^ +0 +1 +2 +3$}}
// LIST-NEXT: {{^ +0 +- }}
// LIST-NEXT: {{^ +1 +(yes|no) +- }}
// LIST-NEXT: {{^ +2 }}
// LIST-NEXT: {{^ +3 .* -$}}
// LIST-NOT: {{.}}
// JSON: json: ok
// HELP: usage: omptarget-info [--json]
// HELP: --json
// USAGE: omptarget-info: unknown option '--bogus'
// USAGE-NEXT: usage: omptarget-info [--json]
// USAGE: exit status 2
// DISABLED: omptarget-info: offloading is disabled (OMP_TARGET_OFFLOAD=disabled): 0 devices
// DISABLED-NOT: {{.}}
int main(void) { return 0; }

// Not on remote devices (remote-mpi): it checks the listing of the program's own x86_64 devices.
// UNSUPPORTED: remote-mpi

#!/usr/bin/env python3
"""Checks omptarget-info --json (on stdin) with two fake GPUs after the four
host devices: the document parses, the GPUs' properties have the fake's
values (integers as JSON numbers), and peer_access says which devices copy
to each other directly. Argument: "peers" or "no-peers" (whether the two
GPUs are peers). Prints "omptarget-info json: ok"."""
import json
import sys

gpu_peers = sys.argv[1] == "peers"
doc = json.load(sys.stdin)
devices = doc["devices"]
assert doc["offload_disabled"] is False, doc
assert [d["device_num"] for d in devices] == list(range(6)), devices
assert [d["plugin"] for d in devices] == ["x86_64"] * 4 + ["cuda"] * 2, devices
for num in (4, 5):
    gpu = devices[num]
    expected = {
        "plugin_device_id": num - 4,
        "uid": "GPU-f0f1f2f3-f4f5-f6f7-f8f9-fafbfcfdfe0%d" % (num - 4),
        "peers": [9 - num] if gpu_peers else [],
        "name": "Fake CUDA device",
        "compute_capability": "9.0",
        "multiprocessors": 132,
        "clock_khz": 1980000,
        "memory_clock_khz": 3201000,
        "memory_total_bytes": 17179869184,
        "max_threads_per_block": 1024,
        "max_teams": 2147483647,
        "warp_size": 32,
        "memory_pools_supported": "yes",
        "memory_pool": "on",
        "memory_pool_held_bytes": 0,
        "pinned_ranges": 0,
        "pinned_bytes": 0,
    }
    for key, value in expected.items():
        assert gpu.get(key) == value, (num, key, gpu.get(key), value)
    assert isinstance(gpu["memory_free_bytes"], int), gpu
for num in range(4):
    assert devices[num]["peers"] == [n for n in range(4) if n != num], devices[num]
matrix = doc["peer_access"]
for i in range(6):
    for j in range(6):
        want = None if i == j else (i < 4) == (j < 4) and (i < 4 or gpu_peers)
        assert matrix[i][j] is want, (i, j, matrix[i][j], want)
print("omptarget-info json: ok")

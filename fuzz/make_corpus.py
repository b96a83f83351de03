#!/usr/bin/env python3
"""Writes the starting corpora of the fuzz targets: fuzz/corpus/<target>/<name>.

A few valid inputs and edge cases per target, all small; the files are
checked in (fuzz/run_fuzzers.sh reads them) and this script is how they were
made: run it again after changing a target's input format. Files named
crash-* in the corpus directories are regression inputs of crashes found by
fuzzing; this script leaves them alone.

The ELF inputs are synthetic (struct.pack), except host_elf_image/clang_so,
which is written only when clang-14 is available: a stripped shared object
with an omp_offloading_entries section, linked by clang 14.

The targets that read their input through libFuzzer's FuzzedDataProvider
(integers from the end, strings from the front) get inputs written by
Provider below, in each target's order of reads; any bytes are a valid
input, these merely start from meaningful ones.

usage: make_corpus.py [CORPUS_DIR]   (default: corpus/ beside this script)
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def write(corpus, target, name, data):
    d = os.path.join(corpus, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# ---- ELF images -----------------------------------------------------------

ET_DYN, EM_X86_64, EM_CUDA = 3, 62, 190
PT_LOAD, PT_DYNAMIC = 1, 2
PF_W, PF_R = 2, 4
SHT_PROGBITS, SHT_STRTAB = 1, 3
SHF_WRITE, SHF_ALLOC = 1, 2


def ehdr(machine=EM_X86_64, etype=ET_DYN, phnum=1, shoff=0, shnum=0, shstrndx=0,
         flags=0, abiversion=0, data=1):
    ident = b"\x7fELF" + bytes([2, data, 1, 0, abiversion]) + b"\0" * 7
    return ident + struct.pack("<HHIQQQIHHHHHH", etype, machine, 1, 0, 64 if phnum else 0,
                               shoff, flags, 64, 56, phnum, 64, shnum, shstrndx)


def phdr(ptype, flags, offset, vaddr, filesz, memsz):
    return struct.pack("<IIQQQQQQ", ptype, flags, offset, vaddr, vaddr, filesz, memsz, 8)


def shdr(name, stype, flags, addr, offset, size, link=0):
    return struct.pack("<IIQQQQIIQQ", name, stype, flags, addr, offset, size, link, 0, 8, 0)


def entry(addr, name, size, flags=0):
    return struct.pack("<QQQii", addr, name, size, flags, 0)


def host_image(variant="valid"):
    """An x86_64 ET_DYN image of 576 bytes: one PT_LOAD over all of it (or two),
    two offload entries at 256 whose name and address fields hold vaddrs (as
    the loader's RELATIVE relocations expect), names from 320, three section
    headers at 384."""
    size = 576
    names = b"\0.shstrtab\0omp_offloading_entries\0"
    if variant == "no_entries_section":
        names = b"\0.shstrtab\0omp_offloading_entriez\0"
    entry_names = b"kernel\0global\0"
    img = bytearray(size)
    phnum = 2 if variant in ("pt_dynamic", "two_segments") else 1
    shnum, shstrndx = 3, 1
    if variant == "xindex":
        shnum, shstrndx = 0, 0xFFFF
    img[0:64] = ehdr(phnum=phnum, shoff=0 if variant == "stripped" else 384, shnum=shnum,
                     shstrndx=shstrndx)
    if variant == "two_segments":
        img[64:120] = phdr(PT_LOAD, PF_R, 0, 0, 384, 384)
        img[120:176] = phdr(PT_LOAD, PF_W, 384, 0x1000 + 384, 192, 192)
    else:
        img[64:120] = phdr(PT_LOAD, PF_R | PF_W, 0, 0, size, size)
        if variant == "pt_dynamic":
            img[120:176] = phdr(PT_DYNAMIC, PF_R | PF_W, 192, 192, 48, 48)
    img[256:288] = entry(200, 356, 0)      # kernel: address 200, name "kernel"
    img[288:320] = entry(208, 363, 4)      # global: 4 bytes at 208
    img[320:320 + len(names)] = names
    img[356:356 + len(entry_names)] = entry_names
    sections = shdr(0, 0, 0, 0, 0, 3 if variant == "xindex" else 0, 1 if variant == "xindex" else 0)
    sections += shdr(1, SHT_STRTAB, 0, 0, 320, len(names))
    sections += shdr(11, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 256, 256, 64)
    img[384:576] = sections
    return bytes(img)


def clang_shared_object():
    """A real shared object linked by clang 14, with an entries section; None
    without clang-14."""
    clang = shutil.which("clang-14")
    if not clang:
        return None
    source = r"""
struct entry { void *addr; const char *name; unsigned long size; int flags, reserved; };
int global = 7;
void kernel(void) {}
__attribute__((section("omp_offloading_entries"), used))
struct entry entries[] = {{(void *)kernel, "kernel", 0, 0, 0}, {&global, "global", 4, 0, 0}};
"""
    with tempfile.TemporaryDirectory() as tmp:
        c = os.path.join(tmp, "image.c")
        so = os.path.join(tmp, "image.so")
        with open(c, "w") as f:
            f.write(source)
        subprocess.run([clang, "-shared", "-fPIC", "-nostdlib", "-Os", "-s",
                        "-Wl,--build-id=none", "-Wl,-z,norelro", "-Wl,-z,noseparate-code",
                        "-Wl,--hash-style=gnu", c, "-o", so], check=True)
        with open(so, "rb") as f:
            return f.read()


def cubin(flags, abiversion, machine=EM_CUDA, data=1, pad=64):
    return ehdr(machine=machine, etype=2, phnum=0, flags=flags, abiversion=abiversion,
                data=data) + b"\0" * pad


def cubin_with_symbols(names):
    """An sm_90 cubin with a string table and a symbol table (section headers
    null, .strtab, .symtab) naming `names`: what clang 19's constructor lists
    look like to the plugin's symbol reader."""
    strings = b"\0"
    syms = b"\0" * 24
    for n in names:
        syms += struct.pack("<IBBHQQ", len(strings), 0x11, 0, 0, 0, 8)
        strings += n.encode() + b"\0"
    str_off = 64
    sym_off = str_off + len(strings)
    sh_off = sym_off + len(syms)
    sh = b"\0" * 64 + shdr(0, 3, 0, 0, str_off, len(strings))
    sh += struct.pack("<IIQQQQIIQQ", 0, 2, 0, 0, sym_off, len(syms), 1, 1, 8, 24)
    head = ehdr(machine=EM_CUDA, etype=2, phnum=0, shoff=sh_off, shnum=3, flags=0x6005A04,
                abiversion=8)
    return head + strings + syms + sh


# ---- FuzzedDataProvider inputs ---------------------------------------------

class Provider:
    """Writes what FuzzedDataProvider reads back: integers (and bools) from the
    end of the data, strings from the front, in the order of the reads."""

    def __init__(self):
        self.front = bytearray()
        self.back = bytearray()  # in the order consumed

    def int_in_range(self, lo, hi, value):
        assert lo <= value <= hi
        rng = (hi - lo) & (2**64 - 1)
        result = (value - lo) & (2**64 - 1)
        nbytes = 0
        while nbytes < 8 and (rng >> (8 * nbytes)) > 0:
            nbytes += 1
        for i in reversed(range(nbytes)):  # most significant byte read first
            self.back.append((result >> (8 * i)) & 0xFF)
        return value

    def u8(self, v):
        return self.int_in_range(0, 255, v)

    def boolean(self, v):
        self.u8(1 if v else 0)
        return v

    def i32(self, v):
        return self.int_in_range(-2**31, 2**31 - 1, v)

    def i64(self, v):
        return self.int_in_range(-2**63, 2**63 - 1, v)

    def u32(self, v):
        return self.int_in_range(0, 2**32 - 1, v)

    def u64(self, v):
        return self.int_in_range(0, 2**64 - 1, v)

    def string(self, s):
        """ConsumeRandomLengthString: the text (backslashes doubled), then a
        backslash and another byte end it."""
        self.front += s.replace(b"\\", b"\\\\") + b"\\e"

    def rest(self, data):
        """ConsumeRemainingBytes: everything the integers left over."""
        self.front += data

    def data(self):
        return bytes(self.front) + bytes(reversed(self.back))


def env_input(text, default=7, small_range=True, lo=-4, hi=4096, flags_default=0):
    p = Provider()
    p.i64(default)
    if small_range:
        p.boolean(False)
        p.int_in_range(-4, 4, max(-4, min(4, lo)))
        p.boolean(False)
        p.int_in_range(0, 1 << 20, hi)
    else:
        p.boolean(True)
        p.i64(lo)
        p.boolean(True)
        p.i64(hi)
    p.u32(flags_default)
    p.rest(text)
    return p.data()


def noncontig_input(dims, base_mode=0, limit=64, base=0):
    """dims: (offset, count, stride) triples, each written as a full 64-bit
    value unless it is at most 8 or 4096."""
    p = Provider()
    p.int_in_range(0, 2, base_mode)
    if base_mode == 1:
        p.int_in_range(0, 1 << 16, base)
    elif base_mode == 2:
        p.u64(base)
    p.int_in_range(1, 512, limit)
    p.int_in_range(1, 16, len(dims))
    for dim in dims:
        for v in dim:
            if v <= 8:
                p.int_in_range(0, 3, 0)
                p.int_in_range(0, 8, v)
            elif v <= 4096:
                p.int_in_range(0, 3, 1)
                p.int_in_range(0, 4096, v)
            else:
                p.int_in_range(0, 3, 3)
                p.u64(v)
    return p.data()


class Descriptor:
    """An input of descriptor_registration, in the order its build() reads."""

    def __init__(self):
        self.p = Provider()
        self.names = []

    def entry(self, name, addr, size, flags):
        p = self.p
        # Shape: low nibble 0 = no name; top two bits: 0 null address,
        # 1 any address, 2 one of eight small ones.
        addr_kind = 0 if addr is None else (1 if addr >= 8 else 2)
        p.u8((addr_kind << 6) | (0 if name is None else 1))
        if name is not None:
            if self.names:
                if p.boolean(name in self.names):
                    p.int_in_range(0, len(self.names) - 1, self.names.index(name))
                else:
                    p.string(name)
                    self.names.append(name)
            else:
                p.string(name)
                self.names.append(name)
        if addr_kind == 1:
            p.u64(addr)
        elif addr_kind == 2:
            p.int_in_range(0, 7, addr)
        if size == 0:
            p.int_in_range(0, 3, 0)
        elif size <= 64:
            p.int_in_range(0, 3, 2)
            p.int_in_range(1, 64, size)
        else:
            p.int_in_range(0, 3, 3)
            p.u64(size)
        p.boolean(False)
        p.int_in_range(0, 7, flags)

    def bounds(self, n, mode, b=0, e=0, extra=None):
        """mode: 0 part [b, e), 1 both null, 2 one null, 3 reversed, 4 skewed
        end, 5 whole."""
        p = self.p
        p.int_in_range(0, n, b)
        p.int_in_range(0, n, e)
        p.int_in_range(0, 7, mode)
        if mode == 2:
            p.boolean(extra)
        if mode == 4:
            p.int_in_range(1, 31, extra)

    def host(self, entries, mode=5, b=0, e=0, extra=None):
        self.p.int_in_range(0, 24, len(entries))
        for ent in entries:
            self.entry(*ent)
        self.bounds(len(entries), mode, b, e, extra)

    def image(self, x86, tail, bounds=5, copy=None, host_count=0):
        """copy: None for the host's table, else (entries, mode) with entries
        given as ('host', index) or (name, addr, size, flags)."""
        p = self.p
        p.boolean(x86)
        p.string(tail)
        if x86 or tail:
            p.boolean(False)  # no byte changed
        p.int_in_range(0, 5, bounds)
        if p.boolean(copy is None):
            return
        entries, mode = copy
        if p.boolean(len(entries) == host_count):
            pass
        else:
            p.int_in_range(0, 24, len(entries))
        for ent in entries:
            if host_count > 0:
                if p.boolean(ent[0] == "host"):
                    p.int_in_range(0, host_count - 1, ent[1])
                    continue
            self.entry(*ent)
        self.bounds(len(entries), mode)

    def finish(self, images_mode=5, negative=-1, twice=False, requires=1):
        p = self.p
        p.int_in_range(0, 7, images_mode)
        if images_mode == 0:
            p.int_in_range(-2**31, -1, negative)
        p.boolean(twice)
        p.i64(requires)
        return p.data()


def descriptor_inputs():
    inputs = {}
    three = [(b"k1", 0, 0, 2), (b"g", 1, 4, 0), (b"k2", 2, 0, 4)]

    def one(host_args, images, **finish):
        d = Descriptor()
        d.host(*host_args) if isinstance(host_args, tuple) else d.host(host_args)
        d.p.int_in_range(0, 3, len(images))
        for img in images:
            d.image(**img)
        return d.finish(**finish)

    x86 = dict(x86=True, tail=b"")
    inputs["valid_one_x86_image"] = one(three, [x86])
    inputs["valid_twice_idle_and_copy"] = one(
        three, [dict(x86=False, tail=b"\x01idle"),
                dict(x86=True, tail=b"", copy=([("host", 2), ("host", 0), ("host", 1)], 5),
                     host_count=3)], twice=True)
    inputs["no_entries_no_images"] = one([], [])
    inputs["null_name"] = one([(b"k1", 0, 0, 0), (None, 1, 0, 0)], [x86])
    inputs["null_address"] = one([(b"k1", None, 0, 0)], [x86])
    inputs["reversed_bounds"] = one(([(b"a", 0, 0, 0), (b"b", 1, 0, 0)], 3, 2, 0), [x86])
    inputs["one_null_bound"] = one(([(b"a", 0, 0, 0)], 2, 0, 1, True), [x86])
    inputs["larger_record"] = one(([(b"a", 0, 0, 0), (b"b", 1, 0, 0)], 4, 0, 1, 8), [x86])
    inputs["duplicate_entries"] = one(
        [(b"k", 3, 0, 0), (b"k", 3, 0, 2), (b"other", 3, 0, 4), (b"k", 3, 0, 0)], [x86])
    inputs["huge_sizes"] = one([(b"big", 5, 2**64 - 1, 0), (b"half", 6, 2**63, 0)], [x86])
    inputs["negative_image_count"] = one(three, [x86], images_mode=0, negative=-5)
    inputs["null_image_array"] = one(three, [x86], images_mode=1)
    inputs["image_null_start"] = one(three, [dict(x86=True, tail=b"", bounds=0)])
    inputs["image_reversed"] = one(three, [dict(x86=True, tail=b"", bounds=2)])
    inputs["copy_fewer_entries"] = one(
        three, [dict(x86=True, tail=b"", copy=([("host", 0)], 5), host_count=3)])
    inputs["copy_with_null_name"] = one(
        three, [dict(x86=True, tail=b"",
                     copy=([("host", 0), (None, 4, 0, 0), ("host", 2)], 5), host_count=3)])
    return inputs


# ---- MPI wire protocol (src/plugins/mpi/mpi_protocol.h) --------------------

def mpi_string(text):
    data = text.encode()
    return struct.pack("<I", len(data)) + data


def mpi_message(kind, payload, request=1, tag=0, data_bytes=0, reply_tag=16):
    """A whole control message: magic "OMPM", version 3, then the payload."""
    header = struct.pack("<IHHQIIQII", 0x4d504d4f, 3, kind, request, len(payload), tag,
                         data_bytes, reply_tag, 0)
    return header + payload


def mpi_protocol_inputs():
    """First byte: 0 = a whole message, 1-13 = one payload type (the target's order)."""
    hello = struct.pack("<HI", 3, 0)
    reply = (struct.pack("<H", 3) + mpi_string("node1") + struct.pack("<I", 2) +
             mpi_string("x86_64") + mpi_string("host") + struct.pack("<I", 0) +
             mpi_string("cuda") + mpi_string("NVIDIA H100 80GB HBM3") + struct.pack("<I", 1))
    alloc = struct.pack("<IIQQ", 0, 0, 1 << 20, 3)
    copy = struct.pack("<IQQQI", 1, 0x7f0000001000, 4096, 3, 0)
    retrieve = struct.pack("<IQQQI", 1, 0x7f0000001000, 4096, 3, 17)
    event = struct.pack("<IQQ", 0, 3, 1)
    launch = (struct.pack("<IQQ", 0, 3, 0x5000) + struct.pack("<6I", 128, 0, 0, 256, 0, 0) +
              struct.pack("<IIIQ", 0, 3, 1, 1 << 20) + struct.pack("<I", 2) +
              struct.pack("<Qq", 0x7f0000001000, 0) + struct.pack("<Qq", 42, 0))
    queue = struct.pack("<IQ", 0, 3)
    status = struct.pack("<I", 1) + mpi_string("cuMemAlloc: out of memory")
    entries = (struct.pack("<I", 2) +
               mpi_string("__omp_offloading_fd00_1_main_l5") + struct.pack("<QQII", 0x401000, 0, 0, 0) +
               mpi_string("global_x") + struct.pack("<QQII", 0x404000, 8, 0, 0))
    load_image = struct.pack("<I", 0) + entries
    # role send: device 0's 1 MiB at 0x7f...1000 to rank 2 on tag 40
    exchange = struct.pack("<IIQIQQQII", 1, 0, 0x7f0000001000, 1, 0x7f0000200000, 1 << 20, 3,
                           2, 40)
    return {
        "message_hello": b"\x00" + mpi_message(1, hello),
        "message_submit_with_data": b"\x00" + mpi_message(5, copy, tag=100, data_bytes=4096),
        "message_launch": b"\x00" + mpi_message(7, launch),
        "message_shutdown": b"\x00" + mpi_message(12, b"", reply_tag=0),
        "message_load_image": b"\x00" + mpi_message(13, load_image, tag=16, data_bytes=65536),
        "message_load_image_reply": b"\x00" + mpi_message(14, struct.pack("<Q", 7) + entries,
                                                          reply_tag=0),
        "hello_reply": b"\x02" + reply,
        "alloc": b"\x03" + alloc,
        "copy": b"\x05" + copy,
        "launch": b"\x06" + launch,
        "queue": b"\x07" + queue,
        "status_failed": b"\x09" + status,
        "message_exchange": b"\x00" + mpi_message(15, exchange),
        "exchange": b"\x0c" + exchange,
        "message_retrieve": b"\x00" + mpi_message(6, retrieve),
        "message_record_event": b"\x00" + mpi_message(16, event),
        "event": b"\x0d" + event,
    }


def mpi_request_handler_inputs():
    """Flags byte (bit 0: SharesMemory, bit 1: events), then records [kind u8][length u16][bytes]:
    even kind a control message, odd kind bulk bytes for the channel."""
    base = 0x500000000000
    kernel = base + (1 << 22) - 64

    def msg(kind, payload, **kw):
        m = mpi_message(kind, payload, **kw)
        return struct.pack("<BH", 0, len(m)) + m

    def data(b):
        return struct.pack("<BH", 1, len(b)) + b

    def copy(dev, ptr, n, queue=0, data_tag=0):
        return struct.pack("<iQQQI", dev, ptr, n, queue, data_tag)

    def event(kind, dev, queue, ev):
        return msg(kind, struct.pack("<iQQ", dev, queue, ev))

    image = b"IMG!" + bytes(60)
    entries = (struct.pack("<I", 2) +
               mpi_string("__omp_offloading_fd00_1_main_l5") + struct.pack("<QQII", 0x401000, 0, 0, 0) +
               mpi_string("global_x") + struct.pack("<QQII", 0x404000, 8, 0, 0))
    launch = (struct.pack("<iQQ", 0, 3, kernel) + struct.pack("<6I", 4, 0, 0, 8, 0, 0) +
              struct.pack("<IIiQ", 0, 0, 1, 64) + struct.pack("<I", 1) +
              struct.pack("<Qq", base, 0))
    session = (
        msg(3, struct.pack("<iiQQ", 0, 0, 64, 0)) +             # Alloc dev 0: base
        data(bytes(range(32))) +
        msg(5, copy(0, base + 16, 32), tag=100, data_bytes=32) +  # Submit into it
        msg(6, copy(0, base + 16, 32, data_tag=17)) +            # Retrieve it
        msg(3, struct.pack("<iiQQ", 1, 0, 64, 0)) +             # Alloc dev 1: base + 64
        msg(15, struct.pack("<IiQiQQQII", 0, 0, base, 1, base + 64, 64, 0, 0, 0)) +  # Local
        data(image) +
        msg(13, struct.pack("<i", 0) + entries, tag=100, data_bytes=len(image)) +  # LoadImage
        msg(7, launch) +                                         # Launch its kernel, queue 3
        event(16, 0, 3, 1) +                                     # RecordEvent 1 on queue 3
        event(17, 0, 4, 1) +                                     # WaitEvent 1 on queue 4
        msg(9, struct.pack("<iQ", 0, 3)) +                      # Query
        msg(8, struct.pack("<iQ", 0, 3)) +                      # Synchronize
        event(18, 0, 0, 1) +                                     # SyncEvent 1
        event(19, 0, 0, 1) +                                     # DestroyEvent 1
        msg(15, struct.pack("<IiQiQQQII", 1, 0, base, 0, 0, 64, 0, 2, 40)) +   # Send to rank 2
        data(bytes(64)) +
        msg(15, struct.pack("<IiQiQQQII", 2, 0, 0, 1, base + 64, 64, 0, 2, 41)) +  # Receive
        msg(4, struct.pack("<iiQQ", 0, 0, base, 0)) +           # Free both
        msg(4, struct.pack("<iiQQ", 1, 0, base + 64, 0)) +
        msg(12, b"", reply_tag=0))                               # Shutdown
    refused = (
        msg(5, copy(0, base, 32), tag=100, data_bytes=32) + data(bytes(32)) +  # nothing allocated
        msg(7, launch) +                                         # no image loaded
        event(17, 0, 3, 9) +                                     # event 9 never recorded
        event(16, 0, 0, 1) +                                     # RecordEvent without a queue
        msg(6, copy(0, base, 32, data_tag=16)) +                 # data tag = reply tag
        msg(4, struct.pack("<iiQQ", 0, 0, base, 0)) +
        msg(3, struct.pack("<iiQQ", 7, 0, 64, 0)))              # no device 7
    return {
        "session_shared": b"\x01" + session,
        "session_staged": b"\x00" + session,
        "session_events": b"\x03" + session,
        "refused": b"\x03" + refused,
    }


def main(argv):
    corpus = argv[1] if len(argv) > 1 else os.path.join(HERE, "corpus")
    for name, data in mpi_request_handler_inputs().items():
        write(corpus, "mpi_request_handler", name, data)

    for variant in ("valid", "stripped", "no_entries_section", "pt_dynamic", "two_segments",
                    "xindex"):
        write(corpus, "host_elf_image", variant, host_image(variant))
    write(corpus, "host_elf_image", "truncated", host_image()[:200])
    write(corpus, "host_elf_image", "cubin_not_x86", cubin(0x6005A04, 8))
    so = clang_shared_object()
    if so is not None:
        write(corpus, "host_elf_image", "clang_so", so)

    write(corpus, "cuda_cubin", "sm90_abi8", cubin(0x6005A04, 8))
    write(corpus, "cuda_cubin", "sm80_abi7", cubin(0x500550, 7))
    write(corpus, "cuda_cubin", "header_only", cubin(0x500535, 7, pad=0))
    write(corpus, "cuda_cubin", "short", cubin(0x6005A04, 8, pad=0)[:63])
    write(corpus, "cuda_cubin", "x86_64", cubin(0, 0, machine=EM_X86_64))
    write(corpus, "cuda_cubin", "big_endian", cubin(0x6005A04, 8, data=2))
    write(corpus, "cuda_cubin", "symbols", cubin_with_symbols(
        ["__init_array_object__GLOBAL__sub_I_t_cpp_1f_65535", "nvptx$device$init",
         "__fini_array_object___dtor_Obj_1f_101", "__init_array_start"]))

    env = {
        "decimal": env_input(b"42"),
        "hex_blanks": env_input(b" \t0x1F\t "),
        "negative": env_input(b"-3"),
        "int64_min": env_input(b"-9223372036854775808", small_range=False, lo=-2**63, hi=2**63 - 1),
        "int64_overflow": env_input(b"9223372036854775808", small_range=False, lo=-2**63,
                                   hi=2**63 - 1),
        "hex_min": env_input(b"-0x8000000000000000", small_range=False, lo=-2**63, hi=2**63 - 1),
        "flags_all_bits": env_input(b"-1", flags_default=5),
        "uint32_max": env_input(b"4294967295", small_range=False, lo=0, hi=2**32),
        "out_of_range": env_input(b"5000"),
        "garbage": env_input(b"12abc"),
        "prefix_only": env_input(b"0x"),
        "empty": env_input(b""),
        "sync_mode": env_input(b"BlOcKiNg"),
        "sync_mode_spin": env_input(b"spin"),
        "offload_mandatory": env_input(b"MANDATORY"),
        "offload_disabled_mixed_case": env_input(b"dIsAbLeD"),
        "offload_default_trailing_blank": env_input(b"default "),
    }
    for name, data in env.items():
        write(corpus, "env_parse", name, data)

    nc = {
        # m[0:2][1:3] of int m[4][5]: two runs of 12 bytes.
        "rows": noncontig_input([(0, 2, 20), (1, 3, 4), (0, 1, 4)]),
        "strided_1d": noncontig_input([(2, 5, 8), (0, 1, 4)]),
        "folded": noncontig_input([(1, 2, 64), (0, 4, 16), (0, 4, 4), (0, 1, 4)]),
        "empty_outer": noncontig_input([(0, 0, 20), (1, 3, 4), (0, 1, 4)]),
        "deep": noncontig_input([(0, 2, 256), (0, 2, 128), (0, 2, 64), (0, 2, 32), (1, 2, 8),
                                (0, 1, 4)]),
        "wraps": noncontig_input([(0, 8, 2**62), (0, 1, 4)]),
        "huge_count": noncontig_input([(0, 2**40, 64), (0, 3, 4), (0, 1, 4)], limit=8),
        "near_top": noncontig_input([(0, 4, 16), (0, 1, 4)], base_mode=1, base=32),
    }
    for name, data in nc.items():
        write(corpus, "noncontig_update", name, data)

    for name, data in descriptor_inputs().items():
        write(corpus, "descriptor_registration", name, data)

    for name, data in mpi_protocol_inputs().items():
        write(corpus, "mpi_protocol", name, data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

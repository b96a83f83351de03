#!/usr/bin/env python3
"""Rewrites the cubins embedded in clang-19 offload programs to the ELF ABI 7
header layout, so that LLVM 19's CUDA plugin accepts them.

A MEASUREMENT AID for tests/gpu/run_gpu_tests.sh's c19-llvm19 configuration
(clang-19 programs on LLVM 19's runtime, to compare with ours), not part of
the product: nothing of omptarget uses it, and a rewritten program is not a
program clang built.

Why: ptxas of CUDA 12.8 and later writes cubins with ELF ABI version 8
(e_ident[EI_ABIVERSION] = 8, e_ident[EI_OSABI] = 0x41), whose e_flags hold
the SM in bits 8..15 (sm_90: 0x6005a04). LLVM 19's CUDA plugin reads the SM
from the low byte of e_flags (ABI version 7: sm_90 is 0x5a055a, the SM in
bits 0..7 and again, as the virtual SM, in bits 16..23, with 0x400 for 64-bit
addresses and 0x100 for the unified texture mode), finds sm_4 and refuses
every image ("incompatible"). Our CUDA plugin reads both layouts
(src/plugins/cuda/cubin.cpp).

What changes, in each cubin (an ELF image with e_machine 190, EM_CUDA)
inside each OffloadBinary (magic 10 ff 10 ad) of the host program's
.llvm.offloading section, where clang-19's image wrapper puts the device
images it embeds:
  - e_ident[EI_ABIVERSION]: 8 -> 7
  - e_flags: the ABI 7 value for the same SM, (SM << 16) | 0x500 | SM
Nothing else: EI_OSABI, the sections and the code are left as ptxas wrote
them, so the CUDA driver still sees a cubin of the newer format with an
older header; whether it loads it is what the measurement shows. Cubins
already of ABI version 7 or less are left alone.

Usage:
  cubin_abi7.py OUTDIR FILE...   writes OUTDIR/<name of FILE> for each FILE,
                                 rewritten (files with no cubin are copied)
  cubin_abi7.py --list FILE...   prints each embedded image's header facts
Exit status 1 when a FILE cannot be read or an OffloadBinary is malformed.
"""
import os
import shutil
import struct
import sys

OFFLOAD_MAGIC = b"\x10\xff\x10\xad"
EM_CUDA = 190
EI_OSABI = 7
EI_ABIVERSION = 8
E_FLAGS_OFFSET = 48  # Elf64_Ehdr.e_flags


def sections(data):
    """(name, file offset, size) of each section of a 64-bit little-endian ELF file."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return []
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    if shoff == 0 or shnum == 0 or shoff + shnum * shentsize > len(data):
        return []
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab = headers[shstrndx][4]
    result = []
    for h in headers:
        end = data.index(b"\0", strtab + h[0])
        result.append((data[strtab + h[0]:end].decode(errors="replace"), h[4], h[5]))
    return result


def cstring(data, offset):
    return data[offset:data.index(b"\0", offset)].decode(errors="replace")


def offload_images(data):
    """Yields (image offset in data, image size, {string: value}) of every
    image of every OffloadBinary in the file's .llvm.offloading section."""
    for name, offset, size in sections(data):
        if name != ".llvm.offloading":
            continue
        end = offset + size
        pos = data.find(OFFLOAD_MAGIC, offset, end)
        while pos >= 0:
            # Header: magic, version (u32), size, entry offset, entry size (u64).
            _, version, total, entry_off, entry_size = struct.unpack_from("<4sIQQQ", data, pos)
            if version < 1 or pos + total > end or entry_size < 40:
                raise ValueError("malformed OffloadBinary at 0x%x" % pos)
            # Entry: image kind, offload kind (u16), flags (u32), string
            # offset, string count, image offset, image size (u64).
            _, _, _, str_off, nstr, img_off, img_size = struct.unpack_from("<HHIQQQQ", data, pos + entry_off)
            strings = {}
            for k in range(nstr):
                key_off, val_off = struct.unpack_from("<QQ", data, pos + str_off + 16 * k)
                strings[cstring(data, pos + key_off)] = cstring(data, pos + val_off)
            yield pos + img_off, img_size, strings
            pos = data.find(OFFLOAD_MAGIC, pos + max(total, 4), end)


def cubin_facts(data, img):
    """(OSABI, ABI version, e_flags, SM) of a cubin at offset img, or None."""
    if data[img:img + 4] != b"\x7fELF" or data[img + 4] != 2:
        return None
    machine, = struct.unpack_from("<H", data, img + 18)
    if machine != EM_CUDA:
        return None
    abi = data[img + EI_ABIVERSION]
    flags, = struct.unpack_from("<I", data, img + E_FLAGS_OFFSET)
    sm = (flags >> 8) & 0xFF if abi >= 8 else flags & 0xFF
    return data[img + EI_OSABI], abi, flags, sm


def rewrite(data):
    """Rewrites every ABI 8 cubin of data (a bytearray) in place; returns how many."""
    count = 0
    for img, _, _ in list(offload_images(bytes(data))):
        facts = cubin_facts(data, img)
        if facts is None or facts[1] < 8:
            continue
        sm = facts[3]
        data[img + EI_ABIVERSION] = 7
        struct.pack_into("<I", data, img + E_FLAGS_OFFSET, (sm << 16) | 0x500 | sm)
        count += 1
    return count


def main(argv):
    if len(argv) >= 2 and argv[0] == "--list":
        for path in argv[1:]:
            data = open(path, "rb").read()
            for img, size, strings in offload_images(data):
                facts = cubin_facts(data, img)
                desc = "not a cubin" if facts is None else \
                    "cubin OSABI 0x%x ABI %d e_flags 0x%x sm_%d" % facts
                print("%s: %s %s, %d bytes: %s" % (path, strings.get("triple", "?"),
                                                   strings.get("arch", "?"), size, desc))
        return 0
    if len(argv) < 2 or argv[0].startswith("-"):
        sys.stderr.write(__doc__)
        return 2
    out = argv[0]
    os.makedirs(out, exist_ok=True)
    files = cubins = 0
    for path in argv[1:]:
        dest = os.path.join(out, os.path.basename(path))
        data = bytearray(open(path, "rb").read())
        n = rewrite(data)
        if n:
            with open(dest, "wb") as f:
                f.write(data)
            shutil.copymode(path, dest)
            files += 1
            cubins += n
        else:
            shutil.copy2(path, dest)
    print("cubin_abi7.py: %d cubin(s) rewritten in %d of %d file(s) -> %s" % (cubins, files, len(argv) - 1, out))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (OSError, ValueError) as e:
        sys.stderr.write("cubin_abi7.py: %s\n" % e)
        sys.exit(1)

#!/usr/bin/env python3
"""Makes odd ELF files and static archives (issue 17 item 8) from fixtures/libmulti.so (3
containers in .nv_fatbin) and fixtures/rdc_main.o (a relocatable object with CUDA code).

Usage: tests/odd/make.py      (writes next to itself; needs Python and the zstd program)
  libmulti.twice.so        a second section header naming .nv_fatbin's bytes
  libmulti.class32.so      EI_CLASS flipped to 32-bit on the 64-bit file
  libmulti.data-be.so      EI_DATA flipped to big-endian on the little-endian file
  libmulti.machine190.so   e_machine set to 190 (EM_CUDA) on the host library
  bigendian.so             a genuine big-endian 64-bit ELF header (s390x), no sections
  libmulti.zlib.so         .nv_fatbin stored compressed in place: SHF_COMPRESSED, zlib (Elf64_Chdr)
  libmulti.zstd.so         the same with zstd (ch_type 2)
  libmulti.znv.so          GNU's form: renamed .znv_fatbin, "ZLIB" and the size, zlib data
                           (the compressed ones are the loaded bytes: the runtime cannot load them)
  longname-bad.a           a member named "/1x": not a long-name reference (libelf read "/1")
  longnames-open.a         a long-name table whose last name has no terminator
  longname-past.a          a member named "/999", past the end of the long-name table
  longnames.a              two members with long names (GNU), one with a short one
  longnames-msvc.a         long names ended by NUL bytes, as Microsoft's librarian writes them
  bsd.a                    BSD names ("#1/N": the name leads the member's data)
"""
import os
import struct
import subprocess
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(os.path.dirname(os.path.dirname(HERE)), "fixtures")
SHF_COMPRESSED = 1 << 11


def fixture(name):
    return open(os.path.join(FIX, name), "rb").read()


def put(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def headers(d):
    """(e_shoff, e_shnum, e_shstrndx, [header offsets]) of a little-endian ELF64 file."""
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shnum, shstrndx = struct.unpack_from("<HH", d, 0x3C)
    return shoff, shnum, shstrndx, [shoff + 64 * i for i in range(shnum)]


def section_header(d, name):
    _, _, shstrndx, hdrs = headers(d)
    strtab = struct.unpack_from("<Q", d, hdrs[shstrndx] + 24)[0]
    for h in hdrs:
        n, = struct.unpack_from("<I", d, h)
        if d[strtab + n:d.index(b"\0", strtab + n)] == name.encode():
            return h
    raise KeyError(name)


def with_headers(d, hdr_bytes):
    """D with its section header table replaced by HDR_BYTES (64 each), placed at the end."""
    d = bytearray(d)
    while len(d) % 8:
        d.append(0)
    shoff = len(d)
    d += hdr_bytes
    struct.pack_into("<Q", d, 0x28, shoff)
    struct.pack_into("<H", d, 0x3C, len(hdr_bytes) // 64)
    return d


def twice(d):
    shoff, shnum, _, _ = headers(d)
    table = bytes(d[shoff:shoff + 64 * shnum])
    return with_headers(d, table + bytes(d[section_header(d, ".nv_fatbin"):section_header(d, ".nv_fatbin") + 64]))


def compressed(d, method):
    """.nv_fatbin's bytes compressed in place, as objcopy --compress-sections would leave
    them: the loaded bytes are the compressed ones, zeros after them."""
    d = bytearray(d)
    h = section_header(d, ".nv_fatbin")
    _flags, _addr, off, size = struct.unpack_from("<QQQQ", d, h + 8)
    raw = bytes(d[off:off + size])
    if method == "zstd":
        body = subprocess.run(["zstd", "-q", "-19", "-c"], input=raw, capture_output=True, check=True).stdout
        blob = struct.pack("<IIQQ", 2, 0, size, 8) + body  # Elf64_Chdr: ZSTD
    else:
        blob = struct.pack("<IIQQ", 1, 0, size, 8) + zlib.compress(raw, 9)  # Elf64_Chdr: ZLIB
    assert len(blob) <= size
    d[off:off + size] = blob + bytes(size - len(blob))
    flags, = struct.unpack_from("<Q", d, h + 8)
    struct.pack_into("<Q", d, h + 8, flags | SHF_COMPRESSED)
    struct.pack_into("<Q", d, h + 32, len(blob))
    return d


def gnu_compressed(d):
    """.nv_fatbin as GNU's .z sections are: renamed .znv_fatbin, "ZLIB", the size (8 bytes,
    big-endian), then zlib data. The new name goes in a copy of .shstrtab at the end."""
    d = bytearray(d)
    h = section_header(d, ".nv_fatbin")
    _flags, _addr, off, size = struct.unpack_from("<QQQQ", d, h + 8)
    blob = b"ZLIB" + struct.pack(">Q", size) + zlib.compress(bytes(d[off:off + size]), 9)
    d[off:off + size] = blob + bytes(size - len(blob))
    _, _, shstrndx, hdrs = headers(d)
    s_off, s_size = struct.unpack_from("<QQ", d, hdrs[shstrndx] + 24)
    names = bytes(d[s_off:s_off + s_size])
    strings_at = len(d)
    d += names + b".znv_fatbin\0"
    struct.pack_into("<QQ", d, hdrs[shstrndx] + 24, strings_at, len(names) + 12)
    struct.pack_into("<I", d, h, len(names))
    struct.pack_into("<Q", d, h + 32, len(blob))
    return d


def patched(d, at, value):
    d = bytearray(d)
    d[at:at + len(value)] = value
    return d


def big_endian_elf():
    """An s390x-style header, big-endian and consistent, with no sections."""
    ident = b"\x7fELF" + bytes([2, 2, 1, 0]) + bytes(8)
    return ident + struct.pack(">HHIQQQIHHHHHH", 3, 22, 1, 0, 0, 0, 0, 64, 56, 0, 64, 0, 0)


def ar_header(name, size):
    return b"%-16s%-12d%-6d%-6d%-8s%-10d`\n" % (name, 0, 0, 0, b"644", size)


def archive(members):
    """!<arch>, then each (header name, data) with its header and padding."""
    out = bytearray(b"!<arch>\n")
    for name, data in members:
        out += ar_header(name, len(data)) + data
        if len(out) % 2:
            out += b"\n"
    return out


def main():
    lib = fixture("libmulti.so")
    obj = fixture("rdc_main.o")
    put("libmulti.twice.so", twice(lib))
    put("libmulti.class32.so", patched(lib, 4, b"\x01"))
    put("libmulti.data-be.so", patched(lib, 5, b"\x02"))
    put("libmulti.machine190.so", patched(lib, 18, struct.pack("<H", 190)))
    put("bigendian.so", big_endian_elf())
    put("libmulti.zlib.so", compressed(lib, "zlib"))
    put("libmulti.zstd.so", compressed(lib, "zstd"))
    put("libmulti.znv.so", gnu_compressed(lib))
    table = b"a_member_with_a_long_name.o/\nanother_member_with_a_long_name.o/\n"
    put("longnames.a", archive([(b"//", table), (b"/0", obj), (b"/29", obj), (b"short.o/", obj)]))
    put("longname-bad.a", archive([(b"//", table), (b"/0", obj), (b"/1x", obj)]))
    put("longnames-open.a", archive([(b"//", b"a_member_with_a_long_name.o"), (b"/0", obj)]))
    put("longname-past.a", archive([(b"//", table), (b"/0", obj), (b"/999", obj), (b"short.o/", obj)]))
    msvc = b"a_member_with_a_long_name.obj\0another_member_with_a_long_name.obj\0"
    put("longnames-msvc.a", archive([(b"//", msvc), (b"/0", obj), (b"/30", obj)]))
    bsd_name = b"a_long_bsd_member_name.o\0\0\0\0"  # padded to a multiple of 4 with NULs
    put("bsd.a", archive([(b"#1/%d" % len(bsd_name), bsd_name + obj), (b"short.o", obj)]))


if __name__ == "__main__":
    main()

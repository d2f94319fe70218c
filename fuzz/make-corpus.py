#!/usr/bin/env python3
"""Builds the fuzzers' seed corpora and the corpus of broken files from the fixtures.

Usage: fuzz/make-corpus.py     (writes fuzz/corpus/<target>/ and fuzz/broken/)
The broken files are what hostile input looks like at every structural boundary of the
formats fatcheck reads; tests/broken_test.py runs fatcheck over each (under the sanitizers
in the test run) and expects one line on stderr naming the file, exit status 3 or a clean
report, and no crash, hang or leak."""
import os
import shutil
import struct
import sys
import tarfile
import io

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(os.path.dirname(HERE), "fixtures")
CORPUS = os.path.join(HERE, "corpus")
BROKEN = os.path.join(HERE, "broken")


def fixture(name):
    return open(os.path.join(FIX, name), "rb").read()


def put(directory, name, data):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


def entries(fatbin):
    """(offset, header size, payload size, flags, compressed size) of each entry."""
    out, p = [], 16
    end = 16 + struct.unpack_from("<Q", fatbin, 8)[0]
    while p < end:
        hs, psz = struct.unpack_from("<IQ", fatbin, p + 4)
        out.append((p, hs, psz, struct.unpack_from("<Q", fatbin, p + 40)[0], struct.unpack_from("<I", fatbin, p + 16)[0]))
        p += hs + psz
    return out


def seeds():
    for t in ("fuzz_fatbin", "fuzz_scan", "fuzz_decompress", "fuzz_text", "fuzz_pe", "fuzz_escape", "fuzz_stream",
              "fuzz_image", "fuzz_go_tar"):
        shutil.rmtree(os.path.join(CORPUS, t), ignore_errors=True)
    for name in ("ptx_only.fatbin", "ptx_and_cubin.fatbin", "compress_size.fatbin", "compress_speed.fatbin",
                 "debug.fatbin", "variants.fatbin"):
        put(os.path.join(CORPUS, "fuzz_fatbin"), name, fixture(name))
    for name in ("app", "libmulti.so", "librdc.a", "rdc_lto.o", "kernels.sm_90a.cubin", "shared.sm_90.cubin",
                 "kernels.ptx", "libembedded.so", "compress_size.fatbin"):
        put(os.path.join(CORPUS, "fuzz_scan"), name, fixture(name))
    for name in ("libs.tar.gz", "demo-1.0-0.conda", "libs.tar.zst"):
        put(os.path.join(CORPUS, "fuzz_scan"), name, fixture(os.path.join("packages", name)))
    for name in ("libmulti.sstrip.so", "libmulti.lld.so", "libmulti.norecords.so", "libmulti.nobits.so"):
        put(os.path.join(CORPUS, "fuzz_scan"), name, fixture(os.path.join("noshdr", name)))
    for name in ("app_ptxtext", "libptxtext.so"):
        put(os.path.join(CORPUS, "fuzz_scan"), name, fixture(os.path.join("ptxtext", name)))
    for name in ("app", "app-appended", "app.exe"):  # PyInstaller one-file programs
        put(os.path.join(CORPUS, "fuzz_scan"), "pyinstaller-" + name, fixture(os.path.join("pyinstaller", name)))
    for name in ("libpe.dll", "kernels.obj", "kernels_bigobj.obj", "pe32.exe", "kernels.lib"):
        put(os.path.join(CORPUS, "fuzz_pe"), name, fixture(os.path.join("pe", name)))
        put(os.path.join(CORPUS, "fuzz_scan"), name, fixture(os.path.join("pe", name)))
    # Standard input: every kind of package, and binaries held whole.
    for name in ("libs.tar.gz", "libs.tar.xz", "libs.tar.bz2", "libs.tar.zst", "demo-1.0-0.conda",
                 "demo-cuda_1.0_amd64.deb", "demo-cuda-zst_1.0_amd64.deb", "demo-cuda-1.0-1.x86_64.rpm",
                 "demo-cuda-zst-1.0-1.x86_64.rpm"):
        put(os.path.join(CORPUS, "fuzz_stream"), name, fixture(os.path.join("packages", name)))
    for name in ("libmulti.so", "ptx_only.fatbin", "kernels.ptx", "librdc.a"):
        put(os.path.join(CORPUS, "fuzz_stream"), name, fixture(name))
    # Container images (tests/images): docker save before and after Docker 25, an OCI archive,
    # whiteouts, links, several images, damaged ones; as files, and as streams.
    images = os.path.join(os.path.dirname(HERE), "tests", "images")
    for name in ("whiteouts.tar", "links.tar", "multi.tar", "docker25.tar", "oci-archive.tar",
                 "broken-truncated.tar", "broken-mismatch.tar", "broken-bad-manifest.tar"):
        data = open(os.path.join(images, name), "rb").read()
        put(os.path.join(CORPUS, "fuzz_image"), name, data)
        if name in ("whiteouts.tar", "links.tar", "oci-archive.tar"):
            put(os.path.join(CORPUS, "fuzz_stream"), name, data)
    put(os.path.join(CORPUS, "fuzz_image"), "image.tar", fixture(os.path.join("packages", "image.tar")))
    go_tar_seeds(images)
    # Streams: the first byte says which method (bit 0: zstd) and the declared size.
    for name in ("compress_size.fatbin", "compress_speed.fatbin"):
        data = fixture(name)
        for i, (p, hs, psz, flags, csz) in enumerate(entries(data)):
            method = 1 if flags & 0x8000 else 0
            if flags & 0xA000:
                put(os.path.join(CORPUS, "fuzz_decompress"), "%s.%d" % (name, i),
                    bytes([method | (3 << 1)]) + data[p + hs:p + hs + csz])
    text = os.path.join(CORPUS, "fuzz_text")
    for i, s in enumerate(["sm_86", "8.6", "RTX 4090", "NVIDIA-H100-80GB-HBM3", "Jetson Orin Nano", "8.0;8.6+PTX",
                           "Ampere Hopper", "9.0a", "550.54.14", "12.4"]):
        put(text, "text%d" % i, s.encode())
    for name in ("nvidia-smi.csv", "nvidia-smi-noheader.csv", "kubectl-nodes.json"):
        put(text, name, fixture(os.path.join("fleet", name)))
    # Names: plain, UTF-8, and every kind of byte the escaping treats apart.
    names = os.path.join(CORPUS, "fuzz_escape")
    for i, s in enumerate([b"libcublasLt.so.13", "caf\u00e9 \u2713.so".encode(), b"evil\nname.so: 1 container",
                           b"\x1b[31mred\x1b[0m", b"it's \"q\" back\\slash", b"\xe0\x80\xaf\xed\xa0\x80\xf4\x90\x80\x80",
                           b"cut\xe2\x82", b"\xc2\x9b\xe2\x80\xae\xe2\x81\xa6\xd8\x9c\x7f\t\r",
                           b"void fc_fixture::scale<double>(double*, double, int)" + b"\xc3\xa9" * 20]):
        put(names, "name%d" % i, s)


def go_tar_seeds(images):
    """Tars for the Go-reading of layers (fuzz_go_tar: the first byte is the piece size):
    ustar, PAX (long and non-ASCII names, links), GNU (long names, an old sparse file with an
    extension block) and a v7 header."""
    import io
    import tarfile
    out = os.path.join(CORPUS, "fuzz_go_tar")
    for name in ("whiteouts.tar", "links.tar"):
        put(out, name, b"\x07" + open(os.path.join(images, name), "rb").read())
    for fmt, label in ((tarfile.PAX_FORMAT, "pax"), (tarfile.GNU_FORMAT, "gnu"), (tarfile.USTAR_FORMAT, "ustar")):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w", format=fmt) as t:
            for path, kind in (("usr/lib/" + ("d" * 60 if label == "ustar" else "d" * 120) + "/libx.so", "f"),
                               ("usr/lib/l", "l"), ("usr/lib/h", "h"), ("usr/\u00fc.so" if label != "ustar" else "usr/u.so", "f")):
                info = tarfile.TarInfo(path)
                info.mtime = 1700000000
                if kind == "f":
                    info.size = 5
                    t.addfile(info, io.BytesIO(b"hello"))
                else:
                    info.type = tarfile.SYMTYPE if kind == "l" else tarfile.LNKTYPE
                    info.linkname = "x" * (150 if label != "ustar" else 50)
                    t.addfile(info)
        put(out, label + ".tar", b"\x01" + buf.getvalue())
    # An old GNU sparse header (type 'S') with one extension block, then a v7 header.
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
    from rawtar import raw_header
    h = raw_header(b"sparse", 512, b"S", magic=b"ustar  \0",
                   extra=[(386, b"%011o\0" % 0 + b"%011o\0" % 512), (482, b"\x01"), (483, b"%011o\0" % 4096)])
    ext = bytearray(512)
    ext[0:24] = b"%011o\0" % 1024 + b"%011o\0" % 0
    v7 = raw_header(b"v7/f", 0, b"\0", magic=b"")
    put(out, "sparse-v7.tar", b"\x00" + bytes(h) + bytes(ext) + b"s" * 512 + bytes(v7) + b"\0" * 1024)
    # Package tars read otherwise by libarchive and Go (tar_agree.c): a symbolic link given the
    # next member as data by a PAX size, a GNU dumpdir holding it; plain and gzipped.
    import gzip
    from rawtar import TAR_END, pax_member, raw_member
    fat = fixture("ptx_only.fatbin")
    hidden = raw_member(b"pkg/k.fatbin", fat)
    for label, tar in (("link-data", pax_member([(b"size", b"%d" % len(hidden))]) +
                        raw_header(b"pkg/s", 0, b"2", link=b"t") + hidden + TAR_END),
                       ("dumpdir", raw_member(b"pkg/d/", hidden, b"D", magic=b"ustar  \0") + TAR_END)):
        put(os.path.join(CORPUS, "fuzz_stream"), label + ".tar", tar)
        put(os.path.join(CORPUS, "fuzz_stream"), label + ".tar.gz", gzip.compress(tar, mtime=0))


def broken():
    shutil.rmtree(BROKEN, ignore_errors=True)
    fb = fixture("compress_size.fatbin")
    e = entries(fb)
    # Truncation at every structural boundary of a fat binary, and a byte either side.
    cuts = {0, 1, 15, 16, 17}
    for (p, hs, psz, _, _) in e:
        cuts |= {p - 1, p, p + 1, p + 7, p + 8, p + 40, p + hs - 1, p + hs, p + hs + 1, p + hs + psz - 1}
    for c in sorted(x for x in cuts if 0 <= x < len(fb)):
        put(BROKEN, "truncated-%05d.fatbin" % c, fb[:c])
    def patched(name, at, fmt, *values):
        data = bytearray(fb)
        struct.pack_into(fmt, data, at, *values)
        put(BROKEN, name, bytes(data))
    p0 = e[0][0]
    patched("container-size-2^64-1.fatbin", 8, "<Q", 2**64 - 1)
    patched("container-size-2^63.fatbin", 8, "<Q", 2**63)
    patched("container-size-2^32+16.fatbin", 8, "<Q", 2**32 + 16)
    patched("entry-header-0.fatbin", p0 + 4, "<I", 0)
    patched("entry-header-8.fatbin", p0 + 4, "<I", 8)
    patched("entry-header-past-section.fatbin", p0 + 4, "<I", 0xfffffff0)
    patched("entry-payload-2^64-1.fatbin", p0 + 8, "<Q", 2**64 - 1)
    patched("entry-payload-zero-loop.fatbin", p0 + 8, "<Q", 0)
    patched("compressed-size-past-end.fatbin", p0 + 16, "<I", 0xffffffff)
    patched("declared-size-terabytes.fatbin", p0 + 56, "<Q", 1 << 42)
    patched("identifier-past-header.fatbin", p0 + 32, "<II", 0xfffffff0, 64)
    patched("options-past-header.fatbin", p0 + 20, "<I", 0xffffff00)
    patched("version-7.fatbin", 4, "<H", 7)
    # Corrupt zstd and LZ4 streams, with the headers intact.
    data = bytearray(fb)
    p, hs, psz, flags, csz = e[0]
    for i in range(p + hs + 8, p + hs + csz, 7):
        data[i] ^= 0x5A
    put(BROKEN, "corrupt-zstd.fatbin", bytes(data))
    sp = fixture("compress_speed.fatbin")
    data = bytearray(sp)
    p, hs, psz, flags, csz = entries(sp)[1]
    for i in range(p + hs + 4, p + hs + csz, 5):
        data[i] = 0xFF
    put(BROKEN, "corrupt-lz4.fatbin", bytes(data))
    # Not ELF at all; empty; ELF with nonsense section tables; a damaged archive.
    put(BROKEN, "empty", b"")
    put(BROKEN, "text.txt", b"not a binary\n")
    put(BROKEN, "zeros", bytes(4096))
    elf = bytearray(fixture("libmulti.so"))
    bad = bytearray(elf); struct.pack_into("<Q", bad, 0x28, 2**63); put(BROKEN, "elf-shoff-huge.so", bytes(bad))
    bad = bytearray(elf); struct.pack_into("<H", bad, 0x3c, 0xffff); put(BROKEN, "elf-shnum-huge.so", bytes(bad))
    bad = bytearray(elf); struct.pack_into("<H", bad, 0x3e, 0xfffe); put(BROKEN, "elf-shstrndx-bad.so", bytes(bad))
    # the .nv_fatbin section header: its size made enormous
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shnum, = struct.unpack_from("<H", elf, 0x3c)
    for i in range(shnum):
        h = shoff + 64 * i
        if struct.unpack_from("<Q", elf, h + 24)[0] == 0x2028:  # sh_offset of .nv_fatbin
            bad = bytearray(elf); struct.pack_into("<Q", bad, h + 32, 2**62); put(BROKEN, "elf-section-past-end.so", bytes(bad))
            bad = bytearray(elf); struct.pack_into("<Q", bad, h + 24, 2**64 - 16); put(BROKEN, "elf-section-offset-wraps.so", bytes(bad))
    put(BROKEN, "elf-truncated.so", bytes(elf[:len(elf) // 2]))
    # No section table: a registration record leads to a container whose entry header is bad.
    bad = bytearray(fixture(os.path.join("noshdr", "libmulti.sstrip.so")))
    struct.pack_into("<I", bad, 0x2620 + 20, 8)
    put(BROKEN, "elf-sstrip-damaged-container.so", bytes(bad))
    pe_broken()
    ar = fixture("librdc.a")
    put(BROKEN, "archive-truncated.a", ar[: len(ar) - 100])
    bad = bytearray(ar); bad[8 + 48:8 + 58] = b"9999999999"; put(BROKEN, "archive-member-size-huge.a", bytes(bad))
    # ("!<arch>\n" alone is an archive of no members, as glibc ships libdl.a: not broken.)
    put(BROKEN, "archive-magic-and-byte.a", b"!<arch>\n\n")
    gz = fixture(os.path.join("packages", "libs.tar.gz"))
    put(BROKEN, "package-truncated.tar.gz", gz[: len(gz) // 2])
    bad = bytearray(gz); bad[40:80] = bytes(40); put(BROKEN, "package-corrupt.tar.gz", bytes(bad))
    # A tarball nested deeper than the limit, each level a tar holding the next.
    inner = fixture("libmulti.so")
    name = "libmulti.so"
    for level in range(6):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as t:
            info = tarfile.TarInfo(name)
            info.size = len(inner)
            t.addfile(info, io.BytesIO(inner))
        inner, name = buf.getvalue(), "level%d.tar" % level
    put(BROKEN, "nested-too-deep.tar", inner)


def pe_broken():
    """PE images and COFF objects with headers that point past the end of the file."""
    dll = fixture(os.path.join("pe", "libpe.dll"))
    lfanew, = struct.unpack_from("<I", dll, 0x3C)
    coff = lfanew + 4
    n_sections, = struct.unpack_from("<H", dll, coff + 2)
    opt_size, = struct.unpack_from("<H", dll, coff + 16)
    table = coff + 20 + opt_size
    def patched(name, at, fmt, *values, data=dll):
        bad = bytearray(data)
        struct.pack_into(fmt, bad, at, *values)
        put(BROKEN, name, bytes(bad))
    patched("pe-nsections-huge.dll", coff + 2, "<H", 0xFFFF)
    patched("pe-optional-header-huge.dll", coff + 16, "<H", 0xFFFF)
    patched("pe-optional-magic-rom.dll", coff + 20, "<H", 0x107)
    for i in range(n_sections):
        h = table + 40 * i
        if dll[h:h + 8] == b".nv_fatb":
            patched("pe-section-size-huge.dll", h + 16, "<II", 0xFFFFFFF0, 0x400)
            patched("pe-section-offset-wraps.dll", h + 20, "<I", 0xFFFFFE00)
            bad = bytearray(dll)
            bad[h:h + 8] = b"/9999999"
            put(BROKEN, "pe-long-name-without-string-table.dll", bytes(bad))
    put(BROKEN, "pe-truncated.dll", dll[:len(dll) // 2])
    obj = fixture(os.path.join("pe", "kernels.obj"))
    n_obj, = struct.unpack_from("<H", obj, 2)
    for i in range(n_obj):
        h = 20 + 40 * i
        if obj[h:h + 2] == b"/4":
            bad = bytearray(obj)
            bad[h:h + 8] = b"/99999\0\0"
            put(BROKEN, "coff-long-name-past-string-table.obj", bytes(bad))
    put(BROKEN, "coff-truncated.obj", obj[:len(obj) // 2])


ODD = os.path.join(os.path.dirname(HERE), "tests", "odd")


def odd():
    """Odd ELF files and archives (tests/odd/make.py, issue 17 item 8): those that are
    damaged into the broken corpus, the rest (compressed sections, BSD and long member names)
    into fuzz_scan's seeds, where mutations reach the new decoding."""
    damaged = ("libmulti.twice.so", "libmulti.class32.so", "libmulti.data-be.so", "libmulti.machine190.so",
               "bigendian.so", "longname-bad.a", "longnames-open.a", "longname-past.a")
    for name in damaged:
        put(BROKEN, "odd-" + name, open(os.path.join(ODD, name), "rb").read())
    for name in ("libmulti.zlib.so", "libmulti.zstd.so", "libmulti.znv.so", "bsd.a", "longnames.a",
                 "longnames-msvc.a", "libmulti.twice.so", "longname-bad.a"):
        put(os.path.join(CORPUS, "fuzz_scan"), name, open(os.path.join(ODD, name), "rb").read())


if __name__ == "__main__":
    seeds()
    broken()
    odd()

"""The small harness of the CLI test scripts that take FATCHECK FIXTURES_DIR FAKECUDA_DIR:
run fatcheck as bytes, with fixtures; registering and running tests is tap.py's."""
import os
import struct
import subprocess
import sys

from tap import eq, main, test  # noqa: F401  (the scripts take them from here)

FATCHECK, FIXTURES, FAKECUDA = (os.path.abspath(p) for p in sys.argv[1:4])
SOURCE_ROOT = os.path.dirname(FIXTURES)

# Every run sees the stand-in libcuda.so.1 and libnvidia-ml.so.1 (tests/fakecuda) with no GPU
# unless a test says so.
BASE_ENV = {k: v for k, v in os.environb.items()
            if not k.startswith((b"CUDA_", b"FAKE_CUDA_")) and k != b"LD_LIBRARY_PATH"}
BASE_ENV[b"LD_LIBRARY_PATH"] = os.fsencode(FAKECUDA + ":" + os.path.join(FAKECUDA, "nvml"))
# With no GPU and none named, every run says so first on standard error.
NO_GPU = (b"fatcheck: warning: not judging any GPU: the NVIDIA driver (CUDA 13.0) lists no GPU; "
          b"name target GPUs with --gpu or --arch-list\n")

def run(*args, cwd=None, env=None, timeout=60, preexec_fn=None):
    """Runs fatcheck; returns (exit status, stdout bytes, stderr bytes). Arguments and
    environment values may be str or bytes."""
    full = dict(BASE_ENV)
    for k, v in (env or {}).items():
        full[os.fsencode(k)] = os.fsencode(v)
    p = subprocess.run([FATCHECK] + [os.fsencode(a) for a in args], capture_output=True, cwd=cwd,
                       env=full, timeout=timeout, preexec_fn=preexec_fn)
    return p.returncode, p.stdout, p.stderr


def fx(name):
    return os.path.join(FIXTURES, name)


def without_section_table(data):
    """DATA (a 64-bit ELF file) as sstrip leaves it: e_shoff, e_shentsize, e_shnum and
    e_shstrndx zeroed, its section headers left as bytes no one points at."""
    data = bytearray(data)
    struct.pack_into("<Q", data, 0x28, 0)
    struct.pack_into("<HHH", data, 0x3a, 0, 0, 0)
    return bytes(data)


def docker_save(path, tree, tag):
    """Writes PATH, a `docker save` archive of one image TAG whose single layer holds the
    folder TREE (its contents at the image's root)."""
    import hashlib
    import io
    import json
    import tarfile
    layer = io.BytesIO()
    with tarfile.open(fileobj=layer, mode="w") as t:
        for name in sorted(os.listdir(tree)):
            t.add(os.path.join(tree, name), name)
    layer = layer.getvalue()
    config = json.dumps({"architecture": "amd64", "os": "linux", "config": {},
                         "rootfs": {"type": "layers",
                                    "diff_ids": ["sha256:" + hashlib.sha256(layer).hexdigest()]}}).encode()
    config_name = hashlib.sha256(config).hexdigest() + ".json"
    manifest = json.dumps([{"Config": config_name, "RepoTags": [tag], "Layers": ["layer.tar"]}]).encode()
    with tarfile.open(path, "w") as t:
        for name, data in ((config_name, config), ("layer.tar", layer), ("manifest.json", manifest)):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))


def with_more_sections(data, blob_size, more):
    """DATA (a 64-bit ELF file) with BLOB_SIZE zero bytes appended and a new section header
    table: the old headers, then MORE(blob_offset, names), a list of headers as tuples (name
    offset, type, flags, addr, offset, size, entsize); NAMES maps a section's name to its name
    offset."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shnum, shstrndx = struct.unpack_from("<HH", data, 0x3c)
    strtab_off, = struct.unpack_from("<Q", data, shoff + shstrndx * 64 + 24)
    names = {}
    for i in range(shnum):
        name, = struct.unpack_from("<I", data, shoff + i * 64)
        end = data.index(b"\0", strtab_off + name)
        names[data[strtab_off + name:end].decode()] = name
    blob = len(data) + (-len(data) % 8)
    table = bytearray(data[shoff:shoff + shnum * 64])
    for name, typ, flags, addr, off, size, entsize in more(blob, names):
        table += struct.pack("<IIQQQQIIQQ", name, typ, flags, addr, off, size, 0, 0, 8, entsize)
    out = bytearray(data) + bytes(blob - len(data)) + bytes(blob_size)
    struct.pack_into("<Q", out, 0x28, len(out))
    count = len(table) // 64
    struct.pack_into("<H", out, 0x3c, count if count < 0xff00 else 0)
    if count >= 0xff00:  # the count moves to section 0's sh_size
        struct.pack_into("<Q", table, 32, count)
    return bytes(out + table)


def kept_behind_pointers(data, junk=0):
    """DATA (libkept_deep.so of fixtures/rules) with a 2 MiB data section past its end that
    holds, behind relative relocations, one object of 64 KiB, 300 of 2,056 bytes, then a copy of
    its kept fat binary reaching 4,000 bytes to the next address pointed at: found only through
    the pointers (elf_pointers.c); JUNK relocations of another type (R_X86_64_GLOB_DAT) in a
    section before those. Returns the file's bytes and the copy's offset in them."""
    at = data.index(bytes([0x50, 0xED, 0x55, 0xBA]), 0x4000)
    size = 16 + struct.unpack_from("<Q", data, at + 8)[0]
    fatbin = data[at:at + size]
    base_addr, region = 1 << 40, 2 << 20
    addends = [base_addr + (1 << 20)] + [base_addr + (1 << 20) + (64 << 10) + 2056 * k for k in range(300)]
    container = addends[-1] + 2056 + (-(addends[-1] + 2056) % 16)
    addends += [container, container + 4000]  # the container's object reaches 4,000 bytes
    rela = b"".join(struct.pack("<QQq", 0, 8, a) for a in addends)  # R_X86_64_RELATIVE
    others = struct.pack("<QQq", 0, 6, 0) * junk

    def more(blob, names):
        yield (names[".rodata"], 1, 2, base_addr, blob, region, 0)
        if junk:
            yield (names[".rela.dyn"], 4, 2, 0, blob + region + len(rela), len(others), 24)
        yield (names[".rela.dyn"], 4, 2, 0, blob + region, len(rela), 24)
    out = bytearray(with_more_sections(data, region + len(rela) + len(others), more))
    blob = len(data) + (-len(data) % 8)
    out[blob + container - base_addr:blob + container - base_addr + size] = fatbin
    out[blob + region:blob + region + len(rela)] = rela
    out[blob + region + len(rela):blob + region + len(rela) + len(others)] = others
    return bytes(out), blob + container - base_addr

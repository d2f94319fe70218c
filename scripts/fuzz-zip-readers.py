#!/usr/bin/env python3
"""fuzz-zip-readers.py - differential fuzzing of fatcheck's zip reading against what installers write.

For each generated zip:
  * Python's zipfile as pip reads a wheel / an sdist zip: infolist(), then open(name) by name
    (the last entry of a name wins), copied in 64 KiB chunks; the first exception stops the
    install (what was copied before it stays written);
  * Info-ZIP `unzip -o -q X -d SCRATCH` (timeout), regular files read after lstat;
  * fatcheck --packages --strict --json on the zip (named .zip, named .whl, or piped on stdin).
A member "holds code" when its bytes hold the fat binary magic (50 ed 55 ba) or fatcheck finds
containers in them alone.  A finding: fatcheck exits 0/1 on the zip while an installer wrote a
member whose code (entry signatures kind/arch/size/uncompressed size, fatcheck run on the
member's bytes alone) is not among what fatcheck judged in the zip (class A), or a member
fatcheck alone cannot read (exit 3) while the zip passed (class B).

Usage: scripts/fuzz-zip-readers.py [--fatcheck PATH] [--minutes M] [--jobs N] [--seed S] [--out DIR]
       scripts/fuzz-zip-readers.py --check FILE.zip      (run the oracles once on FILE and print the comparison)
Findings go to OUT/findings/<class>-<hash>.zip with a .json beside; stats to OUT/stats.json.
"""
import argparse
import bz2
import hashlib
import io
import json
import os
import random
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib

MAGIC = bytes.fromhex("50ed55ba")
FIX = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures")
LIBS = {}


def libs():
    if not LIBS:
        LIBS["ptx"] = open(os.path.join(FIX, "ptx_only.fatbin"), "rb").read()
        LIBS["so"] = open(os.path.join(FIX, "libmulti.so"), "rb").read()
    return LIBS


# ----------------------------------------------------------------------------- model of a zip

def compress(method, data, rnd):
    if method == 0:
        return data
    if method in (8, 9):  # 9: deflate64; a stream of stored blocks or without length-258 codes decodes alike
        lvl = 0 if method == 9 else rnd.choice([1, 6, 9])
        c = zlib.compressobj(lvl, zlib.DEFLATED, -15)
        return c.compress(data) + c.flush()
    if method == 12:
        return bz2.compress(data)
    if method == 14:
        c = zipfile._get_compressor(zipfile.ZIP_LZMA)
        return c.compress(data) + c.flush()
    return data  # an unknown method: the bytes as they are


def z64extra(vals):
    body = b"".join(struct.pack("<Q", v) for v in vals)
    return struct.pack("<HH", 1, len(body)) + body


def XL(system, eattr):  # libarchive's 'xl' extra field: version made by and external attributes
    body = bytes([0x05, 0, system]) + struct.pack("<I", eattr)
    return struct.pack("<HH", 0x6c78, len(body)) + body


def UP(name):  # Info-ZIP Unicode path extra field (0x7075); CRC of a placeholder name
    body = b"\1" + struct.pack("<I", zlib.crc32(b"x")) + name
    return struct.pack("<HH", 0x7075, len(body)) + body


def member(name, data, rnd, method=None):
    m = dict(name=name, data=data,
             method=method if method is not None else rnd.choice([0, 8, 8, 8, 8, 12]),
             lh_name=None, lh_extra=b"", cd_extra=b"", cd_comment=b"", dd=0, zip64=False, zip64_off=False,
             ext_attr=0o100644 << 16, made_by=0x031e, flags=0, lh_over={}, cd_over={}, in_cd=True, gap=b"")
    m["comp"] = compress(m["method"], data, rnd)
    return m


def pack_masked(fmt, vals):
    return b"".join(struct.pack("<" + c, v & (0xffff if c == "H" else 0xffffffff)) for c, v in zip(fmt, vals))


def serialize(z):
    """z: dict(prefix, members, cd_order, post_cd, zip64, eocd_over, comment, suffix, base_from_file)."""
    out = bytearray(z["prefix"])
    base = 0 if z.get("base_from_file") else len(z["prefix"])
    offs = []
    for m in z["members"]:
        off = len(out) - base
        offs.append(off)
        crc = zlib.crc32(m["data"]) & 0xffffffff
        cs, us = len(m["comp"]), len(m["data"])
        flags = m["flags"] | (8 if m["dd"] else 0)
        name = m["lh_name"] if m["lh_name"] is not None else m["name"]
        extra = m["lh_extra"]
        lcrc, lcs, lus = crc, cs, us
        if m["dd"]:
            lcrc, lcs, lus = 0, 0, 0
        if m["zip64"]:
            extra = z64extra([us, cs]) + extra
            lcs = lus = 0xffffffff
        f = dict(ver=45 if m["zip64"] else 20, flags=flags, method=m["method"], time=0, date=0x21,
                 crc=lcrc, csize=lcs, usize=lus, nlen=len(name), xlen=len(extra))
        f.update(m["lh_over"])
        out += b"PK\3\4" + pack_masked("HHHHHIIIHH", [f[k] for k in ("ver", "flags", "method", "time", "date",
                                                                     "crc", "csize", "usize", "nlen", "xlen")])
        out += name + extra + m["comp"]
        if m["dd"]:
            if m["dd"] == 1:
                out += b"PK\7\x08"
            if m["zip64"]:
                out += struct.pack("<IQQ", crc, cs, us)
            else:
                out += struct.pack("<III", crc, cs, us)
        out += m["gap"]
    out += z.get("pre_cd", b"")
    def write_dir(order):
        cd_start = len(out)
        n = 0
        for i in order:
            m = z["members"][i]
            if not m["in_cd"]:
                continue
            n += 1
            crc = zlib.crc32(m["data"]) & 0xffffffff
            cs, us, off = len(m["comp"]), len(m["data"]), offs[i]
            extra = m["cd_extra"]
            vals = []
            if m["zip64"]:
                vals += [us, cs]
                cs = us = 0xffffffff
            if m["zip64_off"]:
                vals.append(off)
                off = 0xffffffff
            if vals:
                extra = z64extra(vals) + extra
            f = dict(made=m["made_by"], ver=45 if vals else 20, flags=m["flags"] | (8 if m["dd"] else 0),
                     method=m["method"], time=0, date=0x21, crc=crc, csize=cs, usize=us, nlen=len(m["name"]),
                     xlen=len(extra), clen=len(m["cd_comment"]), disk=0, iattr=0, eattr=m["ext_attr"], off=off)
            f.update(m["cd_over"])
            out.extend(b"PK\1\2" + pack_masked("HHHHHHIIIHHHHHII", [f[k] for k in (
                "made", "ver", "flags", "method", "time", "date", "crc", "csize", "usize", "nlen", "xlen", "clen",
                "disk", "iattr", "eattr", "off")]))
            out.extend(m["name"] + extra + m["cd_comment"])
        return cd_start, len(out) - cd_start, n

    dirs = z.get("dirs") or [z["cd_order"]]
    placed = []
    for k, order in enumerate(dirs):
        placed.append(write_dir(order))
        if k + 1 < len(dirs):
            out += z.get("between_dirs", b"")
    out += z.get("post_cd", b"")
    cd_start, cd_size, n = placed[z.get("eocd_dir", -1)]
    e = dict(disk=0, cddisk=0, ndisk=n, ntotal=n, cdsize=cd_size, cdoff=cd_start - base, clen=len(z["comment"]))
    if z["zip64"]:
        z_start, z_size, zn = placed[z.get("z64_dir", -1)]
        ext = z.get("z64_ext", b"")
        z64at = len(out) - base
        out += struct.pack("<4sQHHIIQQQQ", b"PK\6\6", 44 + len(ext), 45, 45, 0, 0, zn, zn, z_size, z_start - base)
        out += ext + z.get("z64_gap", b"")
        out += struct.pack("<4sIQI", b"PK\6\7", 0, (z64at + z.get("loc_delta", 0)) & (2**64 - 1), 1)
        if z.get("eocd_max", True):
            e.update(ndisk=0xffff, ntotal=0xffff, cdsize=0xffffffff, cdoff=0xffffffff)
    e.update(z["eocd_over"])
    out += b"PK\5\6" + pack_masked("HHHHIIH", [e[k] for k in ("disk", "cddisk", "ndisk", "ntotal", "cdsize", "cdoff",
                                                                "clen")])
    out += z["comment"] + z["suffix"]
    return bytes(out)


NAMES = [b"pkg/_C.so", b"pkg/lib/libx.so", b"pkg/kern.fatbin", b"x", b"pkg/data.bin"]


def gen_model(rnd):
    L = libs()
    lib = L["ptx"] if rnd.random() < 0.6 else L["so"]
    ms = []
    wheel = rnd.random() < 0.5
    if wheel:
        ms.append(member(b"pkg/__init__.py", b"", rnd, 8))
    libname = rnd.choice(NAMES)
    ms.append(member(libname, lib, rnd, rnd.choice([8, 8, 8, 8, 8, 0, 12, 14, 9])))
    code_i = len(ms) - 1
    for k in range(rnd.randint(0, 2)):
        ms.append(member(b"pkg/d%d.txt" % k, os.urandom(rnd.randint(0, 40)), rnd))
    if rnd.random() < 0.25:  # a decoy of the library's name
        ms.append(member(libname, b"decoy", rnd))
    if wheel:
        di = b"pkg-1.0.dist-info/"
        ms.append(member(di + b"METADATA", b"Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\n", rnd, 8))
        ms.append(member(di + b"WHEEL", b"Wheel-Version: 1.0\nGenerator: x\nRoot-Is-Purelib: false\nTag: py3-none-any\n", rnd, 8))
        ms.append(member(di + b"RECORD", b"", rnd, 8))
    if rnd.random() < 0.3:
        rnd.shuffle(ms)
        code_i = next(i for i, m in enumerate(ms) if m["data"] is lib)
    z = dict(prefix=b"", members=ms, cd_order=list(range(len(ms))), zip64=False, eocd_over={}, comment=b"",
             suffix=b"", base_from_file=False)
    # per-member variety
    for m in ms:
        r = rnd.random()
        if r < 0.15:
            m["dd"] = rnd.choice([1, 2])
        if rnd.random() < 0.1:
            m["zip64"] = True
        if rnd.random() < 0.08:
            m["zip64_off"] = True
        if rnd.random() < 0.1:
            m["lh_extra"] = rnd.choice([b"UT\5\0\1\0\0\0\0", b"\xfe\xca\0\0", b"ux\x0b\0\1\4\0\0\0\0\4\0\0\0\0",
                                        XL(0, 0x10), XL(3, 0o120777 << 16), XL(3, 0o010644 << 16), XL(3, 0),
                                        z64extra([len(m["data"]), len(m["comp"])]), UP(b"other.so")])
        if rnd.random() < 0.08:
            m["cd_comment"] = b"c" * rnd.randint(1, 10)
        if rnd.random() < 0.05:
            m["gap"] = rnd.choice([b"\0" * 7, b"junk", b"PK\7\x08" + b"\0" * 12])
    if rnd.random() < 0.15:
        z["zip64"] = True
    if rnd.random() < 0.2:
        z["comment"] = rnd.choice([b"hi", b"x" * 300, b"PK\5\6" + b"\0" * 18, b"c" * 17000])
    if rnd.random() < 0.15:
        z["prefix"] = rnd.choice([b"#!/usr/bin/env python3\n", b"\x7fELF" + b"\0" * 60, b"stub" * 30])
        z["base_from_file"] = rnd.random() < 0.5
    if rnd.random() < 0.08:
        z["suffix"] = rnd.choice([b"\0" * 10, b"trailing", b"PK\3\4" + b"\0" * 26])
    if rnd.random() < 0.05:
        z["pre_cd"] = b"gapgap"
    if rnd.random() < 0.05:
        z["post_cd"] = b"\0\0\0\0"
    if rnd.random() < 0.3:  # several directories, the end records naming different ones
        idx = list(range(len(ms)))
        a = [i for i in idx if rnd.random() < 0.5]
        b = [i for i in idx if i not in a or rnd.random() < 0.2]
        dirs = [a, b] if rnd.random() < 0.5 else [b, a]
        if rnd.random() < 0.2:
            dirs.append(rnd.sample(idx, rnd.randint(0, len(idx))))
        z["dirs"] = dirs
        z["eocd_dir"] = rnd.randrange(len(dirs))
        z["zip64"] = rnd.random() < 0.7
        z["z64_dir"] = rnd.randrange(len(dirs))
        z["eocd_max"] = rnd.random() < 0.4
        if rnd.random() < 0.2:
            z["z64_ext"] = rnd.choice([b"\0" * 4, b"x" * 20])
        if rnd.random() < 0.15:
            z["z64_gap"] = rnd.choice([b"\0" * 4, b"PK\6\6"])
        if rnd.random() < 0.15:
            z["loc_delta"] = rnd.choice([-56, -20, 4, 100, -len(z["prefix"])])
        if rnd.random() < 0.2:
            z["between_dirs"] = rnd.choice([b"\0" * 4, b"junk", b"PK\5\6" + b"\0" * 18])
        if rnd.random() < 0.3:
            z["eocd_over"]["cdsize"] = rnd.choice([0, 1, 46, 0xffffffff])
    elif z["zip64"]:
        z["eocd_max"] = rnd.random() < 0.7
        if rnd.random() < 0.15:
            z["z64_ext"] = rnd.choice([b"\0" * 4, b"x" * 20])
        if rnd.random() < 0.1:
            z["loc_delta"] = rnd.choice([-56, 4, -len(z["prefix"])])
    model_mutate(z, rnd, code_i, rnd.randint(0, 3))
    return z, code_i


LH_FIELDS = ["ver", "flags", "method", "crc", "csize", "usize", "nlen", "xlen"]
CD_FIELDS = ["made", "ver", "flags", "method", "crc", "csize", "usize", "nlen", "xlen", "clen", "disk", "iattr",
             "eattr", "off"]
EOCD_FIELDS = ["disk", "cddisk", "ndisk", "ntotal", "cdsize", "cdoff", "clen"]


def model_mutate(z, rnd, code_i, count):
    ms = z["members"]
    for _ in range(count):
        op = rnd.randrange(16)
        m = rnd.choice(ms)
        if op == 0:
            z["cd_order"].append(rnd.randrange(len(ms)))  # an entry twice
        elif op == 1 and len(z["cd_order"]) > 1:
            z["cd_order"].pop(rnd.randrange(len(z["cd_order"])))
        elif op == 2:
            rnd.shuffle(z["cd_order"])
        elif op == 3:
            m["in_cd"] = False
        elif op == 4:
            m["lh_name"] = rnd.choice([b"", b"other", m["name"] + b"/", m["name"].upper()])
        elif op == 5:
            m["lh_over"][rnd.choice(LH_FIELDS)] = rnd.choice([0, 1, 8, 0xffff, 0xffffffff, 12, 14, 99])
        elif op == 6:
            m["cd_over"][rnd.choice(CD_FIELDS)] = rnd.choice([0, 1, 8, 0xffff, 0xffffffff, 12, 14, 99])
        elif op == 7:
            z["eocd_over"][rnd.choice(EOCD_FIELDS)] = rnd.choice([0, 1, 2, 0xffff, 0xffffffff])
        elif op == 8:
            m["ext_attr"] = rnd.choice([0o040755 << 16 | 0x10, 0o120777 << 16, 0o020644 << 16, 0x10, 0o100755 << 16])
            m["made_by"] = rnd.choice([0x031e, 0x0014, 0x0b14, 0x0314])
        elif op == 9:
            m["method"] = rnd.choice([0, 8, 9, 12, 14, 6, 93, 99])
            m["comp"] = compress(m["method"], m["data"], rnd)
        elif op == 10:
            m["cd_extra"] = rnd.choice([z64extra([0]), z64extra([1, 2, 3]), b"\1\0\xff\0", b"UT\1\0\0",
                                        XL(0, 0x10), UP(b"pkg/_C.so"), UP(m["name"]) + UP(b"x"),
                                        z64extra([0xffffffff] * 3) + z64extra([len(m["data"]), len(m["comp"]), 0])])
        elif op == 11:
            m["name"] = rnd.choice([b"../evil.so", b"/abs.so", b"a\\b.so", b"pkg//x.so", b"./x.so", b"dir/",
                                    b"pkg/./_C.so", b"\xff\xfe.so", b"a" * 300])
        elif op == 12:
            # a member whose local header is shared by two directory entries, or one pointing elsewhere
            j = rnd.randrange(len(ms))
            m["cd_over"]["off"] = None  # resolved in serialize_with_refs
            m["ref"] = j
        elif op == 13:
            z["members"].insert(rnd.randrange(len(ms) + 1), member(rnd.choice(NAMES), b"decoy", rnd))
            z["cd_order"] = list(range(len(z["members"])))
        elif op == 14:
            m["flags"] |= rnd.choice([1, 8, 0x800, 0x40, 0x2000])
        elif op == 15:
            m["dd"] = rnd.choice([0, 1, 2])


def serialize_model(z):
    # resolve "ref" (a directory entry naming another member's local header) by two passes
    refs = [(m, m.pop("ref")) for m in z["members"] if "ref" in m]
    for m, _ in refs:
        m["cd_over"].pop("off", None)
    b = serialize(z)
    if refs:
        base = 0 if z.get("base_from_file") else len(z["prefix"])
        pos = [p for p in find_all(b, b"PK\3\4") if p >= len(z["prefix"])][:len(z["members"])]
        for m, j in refs:
            if j < len(pos):
                m["cd_over"]["off"] = pos[j] - base
        b = serialize(z)
    return b


def find_all(b, sig):
    out, i = [], b.find(sig)
    while i >= 0:
        out.append(i)
        i = b.find(sig, i + 1)
    return out


# ----------------------------------------------------------------------------- seeds from real writers

class Unseekable(io.RawIOBase):
    def __init__(self):
        self.buf = bytearray()

    def writable(self):
        return True

    def write(self, b):
        self.buf += b
        return len(b)


def writer_seeds(scratch):
    L = libs()
    seeds = []
    for method in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA):
        for z64 in (False, True):
            bio = io.BytesIO()
            with zipfile.ZipFile(bio, "w", method) as zf:
                zf.writestr("pkg/__init__.py", "")
                with zf.open("pkg/_C.so", "w", force_zip64=z64) as f:
                    f.write(L["so"])
                zf.writestr("pkg/k.fatbin", L["ptx"])
                zf.writestr("pkg-1.0.dist-info/RECORD", "")
                zf.comment = b"comment" if z64 else b""
            seeds.append(bio.getvalue())
    u = Unseekable()
    with zipfile.ZipFile(u, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("a.txt", "x")
        with zf.open("pkg/_C.so", "w") as f:
            f.write(L["ptx"])
    seeds.append(bytes(u.buf))
    d = os.path.join(scratch, "zsrc")
    os.makedirs(d + "/pkg", exist_ok=True)
    open(d + "/pkg/_C.so", "wb").write(L["ptx"])
    open(d + "/pkg/libm.so", "wb").write(L["so"])
    open(d + "/pkg/a.txt", "wb").write(b"hello")
    if shutil.which("zip"):
        for args in (["-q", "-r"], ["-q", "-r", "-0"], ["-q", "-r", "-fz"], ["-q", "-r", "-Z", "bzip2"]):
            out = os.path.join(scratch, "s.zip")
            if os.path.exists(out):
                os.unlink(out)
            subprocess.run(["zip"] + args + [out, "pkg"], cwd=d, check=False)
            if os.path.exists(out):
                seeds.append(open(out, "rb").read())
        p = subprocess.run("zip -q -r - pkg | cat", shell=True, cwd=d, capture_output=True)
        seeds.append(p.stdout)
    return seeds


# ----------------------------------------------------------------------------- raw mutations

LH_F = {4: 2, 6: 2, 8: 2, 14: 4, 18: 4, 22: 4, 26: 2, 28: 2}
CD_F = {4: 2, 6: 2, 8: 2, 10: 2, 16: 4, 20: 4, 24: 4, 28: 2, 30: 2, 32: 2, 34: 2, 36: 2, 38: 4, 42: 4}
EO_F = {4: 2, 6: 2, 8: 2, 10: 2, 12: 4, 16: 4, 20: 2}
Z64_F = {4: 8, 12: 2, 14: 2, 16: 4, 20: 4, 24: 8, 32: 8, 40: 8, 48: 8}
LOC_F = {4: 4, 8: 8, 16: 4}
SIGS = {b"PK\3\4": LH_F, b"PK\1\2": CD_F, b"PK\5\6": EO_F, b"PK\6\6": Z64_F, b"PK\6\7": LOC_F,
        b"PK\7\x08": {4: 4, 8: 4, 12: 4}}


def records(b):
    recs = []
    for sig, fields in SIGS.items():
        for p in find_all(b, sig):
            recs.append((p, sig, fields))
    recs.sort()
    return recs


def interesting(rnd, b, recs, cur, width):
    mx = (1 << (8 * width)) - 1
    c = rnd.randrange(9)
    if c == 0:
        return rnd.choice([0, 1, 2, 3, 8, 0x7f, 0x80, 0xff, mx, mx - 1, mx >> 1])
    if c == 1:
        return (cur + rnd.choice([-16, -4, -2, -1, 1, 2, 4, 16, 22, 30, 46])) & mx
    if c in (2, 3) and recs:  # an offset of another record, counted from the file or from the first LH
        p = rnd.choice(recs)[0]
        first = next((r[0] for r in recs if r[1] == b"PK\3\4"), 0)
        return rnd.choice([p, p - first, p + 30, len(b) - p]) & mx
    if c == 4:
        return len(b) & mx
    if c == 5:
        return rnd.getrandbits(8 * width)
    if c == 6:
        return cur ^ (1 << rnd.randrange(8 * width))
    if c == 7 and recs:  # a distance between two records
        a, bb = rnd.choice(recs)[0], rnd.choice(recs)[0]
        return abs(a - bb) & mx
    return rnd.choice([0, 8, 12, 14, 9, 93, 0x10, 0x45, 0x3f]) & mx


def raw_mutate(b, rnd, n):
    b = bytearray(b)
    ops = []
    for _ in range(n):
        recs = records(b)
        k = rnd.randrange(100)
        if k < 55 and recs:  # field rewrite
            p, sig, fields = rnd.choice(recs)
            off, w = rnd.choice(list(fields.items()))
            if p + off + w > len(b):
                continue
            cur = int.from_bytes(b[p + off:p + off + w], "little")
            v = interesting(rnd, b, recs, cur, w)
            b[p + off:p + off + w] = v.to_bytes(w, "little")
            ops.append(("set", p + off, v.to_bytes(w, "little").hex()))
        elif k < 70 and len(b):  # byte flips near a record
            if recs and rnd.random() < 0.8:
                p = rnd.choice(recs)[0] + rnd.randrange(46)
            else:
                p = rnd.randrange(len(b))
            if p < len(b):
                v = b[p] ^ (1 << rnd.randrange(8)) if rnd.random() < 0.7 else rnd.randrange(256)
                b[p] = v
                ops.append(("set", p, bytes([v]).hex()))
        elif k < 80 and recs:  # duplicate a record's first bytes somewhere else (another record)
            p, sig, fields = rnd.choice(recs)
            ln = {b"PK\3\4": 30, b"PK\1\2": 46, b"PK\5\6": 22, b"PK\6\6": 56, b"PK\6\7": 20}.get(sig, 16)
            chunk = bytes(b[p:p + ln + rnd.choice([0, 0, 8, 20])])
            q = rnd.choice([rnd.randrange(len(b) + 1), len(b), 0, rnd.choice(recs)[0]])
            b[q:q] = chunk
            ops.append(("ins", q, chunk.hex()))
        elif k < 88:  # insert / delete bytes
            q = rnd.randrange(len(b) + 1)
            if rnd.random() < 0.5 and len(b) > 4:
                ln = rnd.randint(1, 8)
                del b[q:q + ln]
                ops.append(("del", q, ln))
            else:
                chunk = rnd.choice([b"\0", b"PK", b"\0" * 4, b"PK\5\6", b"PK\1\2", b"PK\3\4", os.urandom(3)])
                b[q:q] = chunk
                ops.append(("ins", q, chunk.hex()))
        elif k < 94:  # prefix / suffix
            chunk = rnd.choice([b"\0" * 5, b"#!/bin/sh\n", b"PK00", b"PK\7\x08", b"x" * 100, b"PK\5\6" + b"\0" * 18,
                                b"\0" * 22])
            q = 0 if rnd.random() < 0.5 else len(b)
            b[q:q] = chunk
            ops.append(("ins", q, chunk.hex()))
        else:  # truncate the tail
            if len(b) > 30:
                ln = rnd.randint(1, min(30, len(b) - 1))
                del b[len(b) - ln:]
                ops.append(("del", len(b), ln))
    return bytes(b), ops


def apply_ops(b, ops):
    b = bytearray(b)
    for op in ops:
        if op[0] == "set":
            v = bytes.fromhex(op[2])
            if op[1] + len(v) <= len(b):
                b[op[1]:op[1] + len(v)] = v
        elif op[0] == "ins":
            b[op[1]:op[1]] = bytes.fromhex(op[2])
        elif op[0] == "del":
            del b[op[1]:op[1] + op[2]]
    return bytes(b)


# ----------------------------------------------------------------------------- oracles

def zipfile_writes(b):
    """What pip would write: {normpath: bytes}, and the error that stopped it."""
    out = {}
    try:
        zf = zipfile.ZipFile(io.BytesIO(b), allowZip64=True)
        infos = zf.infolist()
    except Exception as e:  # noqa
        return out, "open:%s" % type(e).__name__
    err = None
    for info in infos:
        name = info.filename
        if name.endswith("/") or name.endswith("\\"):
            continue
        key = os.path.normpath(name.lstrip("/"))
        got = bytearray()
        try:
            with zf.open(name) as f:
                while True:
                    c = f.read(65536)
                    if not c:
                        break
                    got += c
                    if len(got) > 64 << 20:
                        raise ValueError("too big")
        except Exception as e:  # noqa
            out[key] = bytes(got)
            err = "%s:%s" % (type(e).__name__, str(e)[:60])
            break
        out[key] = bytes(got)
    return out, err


def tar_writes(b):
    import tarfile
    out = {}
    try:
        with tarfile.open(fileobj=io.BytesIO(b), mode="r:*") as tf:
            for m in tf:
                if m.isfile():
                    out[os.path.normpath(m.name)] = tf.extractfile(m).read()
    except Exception as e:  # noqa
        return out, "tar:%s" % type(e).__name__
    return out, None


def unzip_writes(path, scratch):
    d = tempfile.mkdtemp(dir=scratch, prefix="u")
    out = {}
    try:
        p = subprocess.run(["unzip", "-o", "-q", "-P", "x", path, "-d", d], stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=3)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        rc = "timeout"
    total = 0
    for root, dirs, files in os.walk(d):
        for fn in files:
            fp = os.path.join(root, fn)
            st = os.lstat(fp)
            if stat.S_ISREG(st.st_mode) and total < (256 << 20):
                total += st.st_size
                with open(fp, "rb") as f:
                    out[os.path.relpath(fp, d)] = f.read(64 << 20)
    shutil.rmtree(d, ignore_errors=True)
    return out, rc


def fatcheck_run(fc, path, stdin_path=None, timeout=30):
    args = [fc, "--packages", "--strict", "--json", "--gpu", "9.0", "--driver", "13.0", "-" if stdin_path else path]
    try:
        if stdin_path:
            with open(stdin_path, "rb") as f:
                p = subprocess.run(args, stdin=f, capture_output=True, timeout=timeout)
        else:
            p = subprocess.run(args, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", set(), "", []
    sigs = set()
    files = []
    try:
        j = json.loads(p.stdout)
        for f in j.get("files", []):
            files.append(f.get("member"))
            for c in f.get("containers") or []:
                for e in c.get("entries") or []:
                    sigs.add((e.get("kind"), e.get("arch"), e.get("size"), e.get("uncompressed_size")))
    except Exception:  # noqa
        pass
    return p.returncode, sigs, p.stderr.decode("utf-8", "replace"), files


class Oracle:
    def __init__(self, fc, scratch):
        self.fc, self.scratch = fc, scratch
        self.cache = {}

    def alone(self, data):
        h = hashlib.sha1(data).hexdigest()
        if h not in self.cache:
            p = os.path.join(self.scratch, "m.bin")
            with open(p, "wb") as f:
                f.write(data)
            rc, sigs, err, _ = fatcheck_run(self.fc, p)
            self.cache[h] = (rc, sigs, err)
            if len(self.cache) > 20000:
                self.cache.clear()
        return self.cache[h]

    def holds_code(self, data):
        return MAGIC in data or data[:4] == b"PK\3\4" or b"\x7fELF" in data or b".version" in data

    def check(self, b, mode):
        """Returns a result dict."""
        ext = {"whl": ".whl", "tar": ".tar", "tgz": ".tgz"}.get(mode, ".zip")
        path = os.path.join(self.scratch, "in" + ext)
        with open(path, "wb") as f:
            f.write(b)
        if mode in ("tar", "tgz"):
            zw, zerr = tar_writes(b)
            uw, urc = {}, "n/a"
        else:
            zw, zerr = zipfile_writes(b)
            uw, urc = unzip_writes(path, self.scratch)
        rc, sigs, err, files = fatcheck_run(self.fc, path, stdin_path=path if mode == "stdin" else None)
        res = dict(rc=rc, zerr=zerr, urc=urc, nz=len(zw), nu=len(uw), findings=[], zcode=0, ucode=0)
        for who, w in (("zipfile", zw), ("unzip", uw)):
            for name, data in w.items():
                if not self.holds_code(data):
                    continue
                arc, asigs, aerr = self.alone(data)
                if not asigs and arc != 3:
                    continue
                res["zcode" if who == "zipfile" else "ucode"] += 1
                if rc not in (0, 1):
                    continue
                if asigs and not asigs <= sigs:
                    res["findings"].append(dict(cls="A", who=who, name=name, missing=sorted(map(str, asigs - sigs))))
                elif not asigs and arc == 3:
                    res["findings"].append(dict(cls="B", who=who, name=name, alone_err=aerr.strip()[-300:]))
        res["stderr"] = err.strip()[:600]
        res["fc_files"] = files
        return res


# ----------------------------------------------------------------------------- driver

def one(rnd, seeds):
    k = rnd.random()
    if k < 0.65:
        z, _ = gen_model(rnd)
        b = serialize_model(z)
        origin = "model"
    else:
        b = rnd.choice(seeds)
        origin = "writer"
    ops = []
    if rnd.random() < (0.5 if origin == "model" else 0.9):
        b, ops = raw_mutate(b, rnd, rnd.choice([1, 1, 1, 2, 2, 3, 5]))
    mode = rnd.choices(["zip", "whl", "stdin"], [0.6, 0.2, 0.2])[0]
    w = rnd.random()
    if w < 0.06:  # a zip inside a zip
        bio = io.BytesIO()
        with zipfile.ZipFile(bio, "w", rnd.choice([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])) as zf:
            zf.writestr("inner.whl", b)
            zf.writestr("a.txt", "a")
        b = bio.getvalue()
        origin += "+nested"
    elif w < 0.12:  # a zip inside a tar or a .tgz
        import tarfile
        bio = io.BytesIO()
        gz = rnd.random() < 0.5
        with tarfile.open(fileobj=bio, mode="w:gz" if gz else "w") as tf:
            for name, data in (("a.txt", b"a"), (rnd.choice(["inner.whl", "inner.zip", "lib.so"]), b)):
                ti = tarfile.TarInfo(name)
                ti.size = len(data)
                tf.addfile(ti, io.BytesIO(data))
        b = bio.getvalue()
        origin += "+tar"
        mode = "tgz" if gz else "tar"
    return b, mode, origin, ops


def worker(args):
    wid, fc, out, seconds, seed = args
    rnd = random.Random(seed)
    scratch = tempfile.mkdtemp(prefix="w%d-" % wid, dir=os.path.join(out, "scratch"))
    seeds = writer_seeds(scratch)
    oracle = Oracle(fc, scratch)
    stats = dict(runs=0, rc={}, zerr_none=0, urc={}, zcode=0, ucode=0, agree=0, findings=0, origins={})
    end = time.time() + seconds
    fdir = os.path.join(out, "findings")
    while time.time() < end:
        b, mode, origin, ops = one(rnd, seeds)
        try:
            r = oracle.check(b, mode)
        except Exception as e:  # noqa
            stats.setdefault("oracle_errors", 0)
            stats["oracle_errors"] += 1
            continue
        stats["runs"] += 1
        stats["rc"][str(r["rc"])] = stats["rc"].get(str(r["rc"]), 0) + 1
        stats["urc"][str(r["urc"])] = stats["urc"].get(str(r["urc"]), 0) + 1
        stats["origins"][origin] = stats["origins"].get(origin, 0) + 1
        stats["zerr_none"] += r["zerr"] is None
        stats["zcode"] += r["zcode"] > 0
        stats["ucode"] += r["ucode"] > 0
        # agreement: installers wrote code and fatcheck judged all of it (exit 0/1), or wrote none and
        # fatcheck judged; or fatcheck said it could not (3) and installers wrote code (a safe refusal)
        if not r["findings"]:
            stats["agree"] += 1
        key = "%s-%s-%s" % (r["rc"], "w" if (r["zcode"] or r["ucode"]) else "n", mode)
        stats.setdefault("matrix", {})
        stats["matrix"][key] = stats["matrix"].get(key, 0) + 1
        if r["findings"]:
            stats["findings"] += 1
            fk = "%s-%s-%s" % (r["findings"][0]["cls"], r["findings"][0]["who"],
                               "zfail" if (r["zerr"] or "").startswith("open") else "zok")
            stats.setdefault("finding_kinds", {})
            stats["finding_kinds"][fk] = stats["finding_kinds"].get(fk, 0) + 1
            if stats["finding_kinds"][fk] > 12:
                continue
            h = hashlib.sha1(b).hexdigest()[:12]
            cls = r["findings"][0]["cls"] + "-" + r["findings"][0]["who"]
            base = os.path.join(fdir, "%s-%s" % (cls, h))
            with open(base + {"whl": ".whl", "tar": ".tar", "tgz": ".tgz"}.get(mode, ".zip"), "wb") as f:
                f.write(b)
            with open(base + ".json", "w") as f:
                json.dump(dict(mode=mode, origin=origin, ops=ops, result=r), f, indent=1, default=str)
        if stats["runs"] % 200 == 0:
            with open(os.path.join(out, "stats-w%d.json" % wid), "w") as f:
                json.dump(stats, f, indent=1)
    shutil.rmtree(scratch, ignore_errors=True)
    with open(os.path.join(out, "stats-w%d.json" % wid), "w") as f:
        json.dump(stats, f, indent=1)
    return stats


def merge(all_stats):
    tot = {}
    for s in all_stats:
        for k, v in s.items():
            if isinstance(v, dict):
                d = tot.setdefault(k, {})
                for kk, vv in v.items():
                    d[kk] = d.get(kk, 0) + vv
            else:
                tot[k] = tot.get(k, 0) + v
    return tot


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fatcheck", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build", "fatcheck"))
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--out", default="fuzz-zip-out")
    ap.add_argument("--check", help="run the oracles on one file and print the comparison")
    ap.add_argument("--mode", default="zip", choices=["zip", "whl", "stdin"])
    a = ap.parse_args()
    if a.check:
        scratch = tempfile.mkdtemp(prefix="chk-")
        o = Oracle(a.fatcheck, scratch)
        b = open(a.check, "rb").read()
        r = o.check(b, a.mode)
        zw, zerr = zipfile_writes(b)
        print("zipfile:", {k: (len(v), MAGIC in v) for k, v in zw.items()}, zerr)
        print(json.dumps(r, indent=1, default=str))
        shutil.rmtree(scratch, ignore_errors=True)
        return
    os.makedirs(os.path.join(a.out, "findings"), exist_ok=True)
    os.makedirs(os.path.join(a.out, "scratch"), exist_ok=True)
    t0 = time.time()
    import multiprocessing
    with multiprocessing.Pool(a.jobs) as pool:
        stats = pool.map(worker, [(i, a.fatcheck, a.out, a.minutes * 60, a.seed * 100 + i) for i in range(a.jobs)])
    tot = merge(stats)
    tot["seconds"] = time.time() - t0
    tot["runs_per_s"] = tot["runs"] / tot["seconds"]
    tot["seed"] = a.seed
    with open(os.path.join(a.out, "stats.json"), "w") as f:
        json.dump(tot, f, indent=1)
    print(json.dumps(tot, indent=1))


if __name__ == "__main__":
    main()

#!/bin/sh
# Builds the driver-oracle images from tests/oracle/src: small modules that differ in one
# way each (what a relocatable image refers to, how it is packed, which PTX ISA), so that
# loading them with the real driver (scripts/driver-oracle/) tells which rule holds.
# Usage: tests/oracle/make.sh   (nvcc 13.0 at /usr/local/cuda/bin; CUDA 11.8's ptxas and
# fatbinary from Debian's nvidia-cuda-toolkit, unpacked by scripts/fetch-eras.sh, when
# present). The outputs are small and committed; docs/matching.md says what each showed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
BIN=$(dirname "$NVCC")
OLD=${CUDA118_BIN:-$here/../../.eras/root/usr/bin}
out="$here/images"
rm -rf "$out"
mkdir -p "$out"
cd "$here/src"
nv() { "$NVCC" -frandom-seed=fatcheck "$@"; }

# Relocatable (-rdc) builds of every source: PTX only (compute_80, JIT on sm_90), a cubin
# only (sm_90), both; the PTX text and the relocatable cubin on their own.
for s in ext_call ext_weak ext_uncalled ext_var ext_def printf malloc dynpar dynshared; do
    nv -rdc=true -fatbin -arch=compute_80 -o "$out/$s.rdc.compute_80.fatbin" $s.cu
    nv -rdc=true -fatbin -gencode arch=compute_90,code=sm_90 -o "$out/$s.rdc.sm_90.fatbin" $s.cu
    nv -rdc=true -ptx -arch=compute_80 -o "$out/$s.rdc.compute_80.ptx" $s.cu
    nv -rdc=true -cubin -arch=sm_90 -o "$out/$s.rdc.sm_90.cubin" $s.cu
    # The same PTX packed without the "--compile-only" ptxas option nvcc stores with it.
    "$BIN/fatbinary" -64 --create="$out/$s.rdc-noopt.compute_80.fatbin" \
        --image3=kind=ptx,sm=80,file="$out/$s.rdc.compute_80.ptx"
done
# Whole-program builds where the source allows one (device printf, malloc and assert refer
# to functions the driver itself supplies).
for s in printf malloc ext_def dynshared; do
    nv -fatbin -arch=compute_80 -o "$out/$s.whole.compute_80.fatbin" $s.cu
    nv -fatbin -gencode arch=compute_90,code=sm_90 -o "$out/$s.whole.sm_90.fatbin" $s.cu
done

# An older PTX ISA (7.5, CUDA 11.5's) for the same relocatable PTX: the text is the same
# apart from its .version line, so a different answer can only come from the ISA.
for s in ext_call ext_weak printf; do
    sed 's/^\.version .*/.version 7.5/' "$out/$s.rdc.compute_80.ptx" > "$out/$s.rdc.isa75.compute_80.ptx"
    "$BIN/fatbinary" -64 -c --cmdline=--compile-only --create="$out/$s.rdc.isa75.compute_80.fatbin" \
        --image3=kind=ptx,sm=80,file="$out/$s.rdc.isa75.compute_80.ptx"
done

# CUDA 11.8's own ptxas and fatbinary, when unpacked: relocatable sm_90 cubins and
# containers made by the older toolchain from the ISA 7.5 text.
if [ -x "$OLD/ptxas" ] && [ -x "$OLD/fatbinary" ]; then
    for s in ext_call ext_weak printf; do
        "$OLD/ptxas" -c -arch=sm_90 -o "$out/$s.cuda118.rdc.sm_90.cubin" "$out/$s.rdc.isa75.compute_80.ptx"
        "$OLD/fatbinary" -64 -c --create="$out/$s.cuda118.rdc.sm_90.fatbin" \
            --image3=kind=elf,sm=90,file="$out/$s.cuda118.rdc.sm_90.cubin"
        "$OLD/fatbinary" -64 -c --cmdline=--compile-only --create="$out/$s.cuda118.rdc.compute_80.fatbin" \
            --image3=kind=ptx,sm=80,file="$out/$s.rdc.isa75.compute_80.ptx"
    done
else
    echo "make.sh: no CUDA 11.8 ptxas/fatbinary at $OLD: its images are not rebuilt" >&2
fi
# A PTX file as Windows editors save it (a UTF-8 byte order mark first), and one with 140 KB
# of comment before .version: the fixtures' kernels.ptx, which loads as it is.
{ printf '\357\273\277'; cat "$here/../../fixtures/kernels.ptx"; } > "$out/kernels.bom.ptx"
{ printf '/*'; i=0; while [ $i -lt 10000 ]; do echo " licence text"; i=$((i + 1)); done; printf '*/\n'
  cat "$here/../../fixtures/kernels.ptx"; } > "$out/kernels.longcomment.ptx"
# A byte outside ASCII (UTF-8 é) in a comment between functions, in a comment inside a body,
# and in a .file string: ptxas 13.0 here rejects each ("Unexpected non-ASCII character").
K="$here/../../fixtures/kernels.ptx"
after() { awk -v n="$1" -v t="$2" '{ print } NR == n { print t }' "$K"; }
after 12 '// caf\303\251' > "$out/kernels.utf8comment.ptx"
after 22 '\t// caf\303\251' > "$out/kernels.utf8bodycomment.ptx"
after 12 '.file 1 "/home/jos\303\251/k.cu"' > "$out/kernels.utf8string.ptx"
# An uncompressed sm_90 cubin damaged in its ELF header (review 8, C2): the magic, the class
# (32-bit) and the machine (x86-64 for EM_CUDA), alone and with the same kernels' PTX beside
# it, which tells whether the driver falls back to the PTX.
nv -fatbin --compress-mode=none -gencode arch=compute_90,code=sm_90 -o "$out/c2.sm_90.fatbin" "$here/../../fixtures/src/kernels.cu"
nv -fatbin --compress-mode=none -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 \
    -o "$out/c2.sm_90+ptx.fatbin" "$here/../../fixtures/src/kernels.cu"
python3 - "$out" <<'PY'
import os, struct, sys
out = sys.argv[1]
for name in ("c2.sm_90", "c2.sm_90+ptx"):
    data = open(os.path.join(out, name + ".fatbin"), "rb").read()
    at = data.index(b"\x7fELF")
    for what, off, new in (("badmagic", 1, b"X"), ("badclass", 4, b"\x01"), ("badmachine", 18, b"\x3e\x00")):
        bad = bytearray(data)
        bad[at + off:at + off + len(new)] = new
        open(os.path.join(out, "kernels.%s.%s.fatbin" % (what, name[3:])), "wb").write(bytes(bad))
    # Review of 2026-12-03, F3: the cubin's own SM (e_flags) other than its entry header's
    # (sm_80), and the uncompressed cubin under the zstd and the LZ4 flag, its compressed and
    # declared sizes set as a compressed entry's.
    pos, end = 16, 16 + struct.unpack_from("<Q", data, 8)[0]
    while pos < end:
        hsize, psize = struct.unpack_from("<IQ", data, pos + 4)
        if struct.unpack_from("<H", data, pos)[0] == 2:
            break
        pos += hsize + psize
    bad = bytearray(data)
    flags = struct.unpack_from("<I", bad, at + 48)[0]
    flags = (flags & ~0xff00) | 80 << 8 if bad[at + 8] >= 8 else (flags & ~0xff) | 80
    struct.pack_into("<I", bad, at + 48, flags)
    open(os.path.join(out, "kernels.othersm.%s.fatbin" % name[3:]), "wb").write(bytes(bad))
    for what, flag in (("zstdflag", 0x8000), ("lz4flag", 0x2000)):
        bad = bytearray(data)
        struct.pack_into("<Q", bad, pos + 40, struct.unpack_from("<Q", bad, pos + 40)[0] | flag)
        struct.pack_into("<I", bad, pos + 16, psize)
        struct.pack_into("<Q", bad, pos + 56, psize)
        open(os.path.join(out, "kernels.%s.%s.fatbin" % (what, name[3:])), "wb").write(bytes(bad))
    os.remove(os.path.join(out, name + ".fatbin"))
PY
# Cubins stored as the driver cannot take them, each alone and with the same kernels' PTX
# (compute_90) beside it (pack writes NAME.fatbin and NAME+ptx.fatbin with fatbinary's FLAGS):
# - another SM than its entry header's: fatbinary compresses an sm_80 cubin (LZ4 with
#   --compress-mode=speed, zstd with size; it refuses an sm other than the cubin's own) and the
#   entry header's SM is set to 90 afterwards (othersm-lz4, othersm-zstd);
# - an LZ4 sm_90 cubin whose inflated ELF magic is broken (its first bytes are literals after
#   one token, so one stored byte changes one inflated byte: badmagic-lz4);
# - compressed sm_90 cubins that do not inflate to an ELF header: an LZ4 block whose first
#   match points before the start of the output (badmatch-lz4), an LZ4 entry whose compressed
#   size says 20 bytes (shortcsz-lz4), a zstd frame whose first block's type is the reserved
#   one (badblock-zstd); and an uncompressed cubin cut to 40 bytes, shorter than an ELF header
#   (tiny).
nv -cubin -arch=sm_80 -o "$out/k.sm_80.cubin" "$here/../../fixtures/src/kernels.cu"
nv -cubin -arch=sm_90 -o "$out/k.sm_90.cubin" "$here/../../fixtures/src/kernels.cu"
nv -ptx -arch=compute_90 -o "$out/k.compute_90.ptx" "$here/../../fixtures/src/kernels.cu"
pack() { # FLAGS NAME CUBIN SM
    "$BIN/fatbinary" -64 $1 --create="$out/$2.fatbin" --image3=kind=elf,sm=$4,file="$3"
    "$BIN/fatbinary" -64 $1 --create="$out/$2+ptx.fatbin" --image3=kind=elf,sm=$4,file="$3" \
        --image3=kind=ptx,sm=90,file="$out/k.compute_90.ptx"
}
pack "--compress-all --compress-mode=speed" kernels.othersm-lz4.sm_90 "$out/k.sm_80.cubin" 80
pack "--compress-all --compress-mode=size" kernels.othersm-zstd.sm_90 "$out/k.sm_80.cubin" 80
pack "--compress-all --compress-mode=speed" k.lz4 "$out/k.sm_90.cubin" 90
pack "--compress-all --compress-mode=size" k.zstd "$out/k.sm_90.cubin" 90
pack "--compress-mode=none" k.none "$out/k.sm_90.cubin" 90
python3 - "$out" <<'PY'
import os, struct, sys
out = sys.argv[1]
def cubin_at(data):
    """The cubin entry's header offset and its payload's."""
    pos = 16
    while struct.unpack_from("<H", data, pos)[0] != 2:
        pos += struct.unpack_from("<I", data, pos + 4)[0] + struct.unpack_from("<Q", data, pos + 8)[0]
    return pos, pos + struct.unpack_from("<I", data, pos + 4)[0]
def made(name, beside):
    return bytearray(open(os.path.join(out, "%s%s.fatbin" % (name, beside)), "rb").read())
def write(name, beside, data):
    open(os.path.join(out, "kernels.%s.sm_90%s.fatbin" % (name, beside)), "wb").write(bytes(data))
for beside in ("", "+ptx"):
    for what in ("lz4", "zstd"):
        data = made("kernels.othersm-%s.sm_90" % what, beside)
        pos, at = cubin_at(data)
        assert struct.unpack_from("<I", data, pos + 28)[0] == 80
        struct.pack_into("<I", data, pos + 28, 90)
        write("othersm-" + what, beside, data)
    data = made("k.lz4", beside)
    pos, at = cubin_at(data)
    assert data[at] >> 4 == 10 and data[at + 1:at + 5] == b"\x7fELF"  # a token: 10 literals, then the offset
    bad = bytearray(data)
    bad[at + 2] = ord("X")
    write("badmagic-lz4", beside, bad)
    bad = bytearray(data)
    bad[at + 11:at + 13] = b"\xff\xff"
    write("badmatch-lz4", beside, bad)
    bad = bytearray(data)
    struct.pack_into("<I", bad, pos + 16, 20)
    write("shortcsz-lz4", beside, bad)
    data = made("k.zstd", beside)
    pos, at = cubin_at(data)
    assert data[at:at + 4] == b"\x28\xb5\x2f\xfd"
    fhd = data[at + 4]
    single = fhd >> 5 & 1
    head = 5 + (0 if single else 1) + (0, 1, 2, 4)[fhd & 3] + ((1 if single else 0), 2, 4, 8)[fhd >> 6]
    data[at + head] |= 0x06  # Block_Type 3, reserved
    write("badblock-zstd", beside, data)
    data = made("k.none", beside)
    pos, at = cubin_at(data)
    psize = struct.unpack_from("<Q", data, pos + 8)[0]
    bad = bytearray(data[:at + 40] + data[at + psize:])
    struct.pack_into("<Q", bad, pos + 8, 40)
    struct.pack_into("<Q", bad, 8, struct.unpack_from("<Q", bad, 8)[0] - (psize - 40))
    write("tiny", beside, bad)
PY
rm "$out"/k.lz4*.fatbin "$out"/k.zstd*.fatbin "$out"/k.none*.fatbin
rm "$out/k.sm_80.cubin" "$out/k.sm_90.cubin" "$out/k.compute_90.ptx"
ls "$out" | wc -l

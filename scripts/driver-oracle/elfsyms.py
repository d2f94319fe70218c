#!/usr/bin/env python3
"""Prints, for each ELF cubin named, its type (REL/EXEC), its architecture from e_flags, and
the names of its undefined global symbols, one JSON line per file: what relocatable device
code still needs from a linker. Standard library only (runs on the device machine too).
    elfsyms.py FILE...
"""
import json, struct, sys


def syms(data):
    if data[:4] != b'\x7fELF' or data[4] != 2:
        return None
    e_type, e_machine = struct.unpack_from('<HH', data, 16)
    e_flags, = struct.unpack_from('<I', data, 48)
    e_shoff, = struct.unpack_from('<Q', data, 40)
    e_shentsize, e_shnum = struct.unpack_from('<HH', data, 58)
    secs = []
    for i in range(e_shnum):
        o = e_shoff + i * e_shentsize
        name, typ, flags, addr, off, size, link, info, align, entsize = struct.unpack_from('<IIQQQQIIQQ', data, o)
        secs.append((typ, off, size, link, entsize))
    und, weak_und = [], []
    for typ, off, size, link, entsize in secs:
        if typ != 2 or not entsize:  # SHT_SYMTAB
            continue
        stroff = secs[link][1]
        for k in range(1, size // entsize):
            st_name, st_info, st_other, st_shndx, st_value, st_size = struct.unpack_from('<IBBHQQ', data, off + k * entsize)
            bind = st_info >> 4
            if st_shndx == 0 and bind != 0:
                end = data.index(b'\0', stroff + st_name)
                n = data[stroff + st_name:end].decode('latin-1')
                if n:
                    (weak_und if bind == 2 else und).append(n)
    return {'type': {1: 'REL', 2: 'EXEC', 3: 'DYN'}.get(e_type, e_type), 'machine': e_machine,
            'e_flags': hex(e_flags), 'undefined': sorted(set(und)), 'weak_undefined': sorted(set(weak_und))}


for path in sys.argv[1:]:
    with open(path, 'rb') as f:
        data = f.read()
    r = syms(data)
    print(json.dumps({'file': path, **(r or {'error': 'not an ELF64 file'})}))

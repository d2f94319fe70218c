"""Raw tar headers, as no writer of layers writes them: for the images test (rv30 F1-F3) and the
Go-reading test (go_tar_test.py). Each header's checksum is made right."""


def raw_header(name, size, kind=b"0", link=b"", magic=b"ustar\x0000", prefix=b"", mtime=b"%011o\0" % 1700000000,
               star=False, size_field=None, extra=()):
    """EXTRA: (offset, bytes) written over the header before its checksum."""
    h = bytearray(512)
    h[0:len(name)] = name
    h[100:108], h[108:116], h[116:124] = b"0000644\0", b"0000000\0", b"0000000\0"
    h[124:136], h[136:148] = size_field or b"%011o\0" % size, mtime
    h[156:157] = kind
    h[157:157 + len(link)] = link
    h[257:257 + len(magic)] = magic
    h[345:345 + len(prefix)] = prefix
    if star:
        h[476:500] = b"00000000000\0" * 2
        h[508:512] = b"tar\0"
    for off, val in extra:
        h[off:off + len(val)] = val
    h[148:156] = b" " * 8
    h[148:156] = b"%06o\0 " % sum(h)
    return bytes(h)


def raw_member(name, data, kind=b"0", **kw):
    return raw_header(name, len(data), kind, **kw) + data + b"\0" * (-len(data) % 512)


def pax_record(k, v, plus=False):
    """One PAX record; PLUS: its length written with a leading '+' (Go's ParseInt takes it)."""
    rec = b" %s=%s\n" % (k, v)
    sign = b"+" if plus else b""
    n = len(rec) + 1
    while len(sign) + len(b"%d" % n) + len(rec) != n:
        n += 1
    return sign + b"%d" % n + rec


def pax_member(records, kind=b"x"):
    return raw_member(b"PaxHeaders/x", b"".join(pax_record(k, v) for k, v in records), kind)


def pad(data):
    return data + b"\0" * (-len(data) % 512)


def gnu_long_member(name, kind=b"L"):
    return raw_member(b"././@LongLink", name + b"\0", kind, magic=b"ustar  \0")


TAR_END = b"\0" * 1024

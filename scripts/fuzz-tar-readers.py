#!/usr/bin/env python3
"""fuzz-tar-readers.py - differential fuzzing of fatcheck's package tar reading against the
readers that install packages: Python's tarfile (pip's sdists, conda), GNU tar (dpkg-deb -x, the
shell) and node-tar (npm). Each mutant of a seed tar holding a small fat binary among other
entries is read by the three: what each would write (Python and node-tar through their APIs, in
memory; GNU tar by extracting into a scratch directory) is searched for the fat binary magic.
Then fatcheck reads the tar (`--packages --strict --json`, named or piped, plain or gzip). A
finding is fatcheck exiting 0 or 1 while a reader wrote a file holding code whose containers
fatcheck did not judge (each such file is read by fatcheck alone and its containers compared:
kind, arch, sizes); a crash (a signal) is one too. Findings are kept as OUT/findN.tar with
OUT/findN.txt saying what each reader wrote.

Usage: scripts/fuzz-tar-readers.py FATCHECK OUT SEED RUNS
  NODE_TAR=/usr/lib/node_modules/npm/node_modules/tar (npm's copy) by default; SEED_DIR=DIR adds
  DIR's *.tar to the seeds.
Last line: "RUNS runs N findings"."""
import collections, gzip, hashlib, io, json, os, random, shutil, stat, subprocess, sys, tarfile, time

FATCHECK, OUT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
random.seed(int(sys.argv[3]))
RUNS = int(sys.argv[4])
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NODE_TAR = os.environ.get('NODE_TAR', '/usr/lib/node_modules/npm/node_modules/tar')
LIB = open(os.path.join(HERE, 'fixtures', 'ptx_only.fatbin'), 'rb').read()
CUBIN = open(os.path.join(HERE, 'fixtures', 'kernels.sm_90.cubin'), 'rb').read()
PTX = open(os.path.join(HERE, 'fixtures', 'kernels.ptx'), 'rb').read()
MAGIC = b'\x50\xed\x55\xba'
ELF_CUBIN = b'\x7fELF'
LIMIT = 64 << 20
os.makedirs(OUT, exist_ok=True)
WORK = os.path.join(OUT, 'work')
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)


def holds_code(b):
    return MAGIC in b or (ELF_CUBIN in b and b'.nv.info' in b) or (b'.version' in b and b'.target' in b)


# ---- seeds -------------------------------------------------------------------------------
def seed_python(fmt, lib=LIB):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode='w', format=fmt) as t:
        def add(name, data=b'', typ=tarfile.REGTYPE, link=''):
            i = tarfile.TarInfo(name)
            i.type, i.linkname, i.size, i.mtime = typ, link, len(data), 1700000000
            t.addfile(i, io.BytesIO(data) if data else None)
        add('pkg', typ=tarfile.DIRTYPE)
        add('pkg/README.txt', b'hello\n' * 20)
        add('pkg/' + 'd' * 60 + '/' + 'long' * 20 + '.txt', b'x' * 700)
        add('pkg/link', typ=tarfile.SYMTYPE, link='README.txt')
        add('pkg/lib/libx.so', lib)
        add('pkg/hard', typ=tarfile.LNKTYPE, link='pkg/README.txt')
        add('pkg/z.txt', b'z' * 100)
    return buf.getvalue()


def seed_gnu(fmt, sparse=False):
    d = os.path.join(WORK, 'seedtree')
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, 'pkg', 'lib'))
    open(os.path.join(d, 'pkg', 'README.txt'), 'wb').write(b'hello\n' * 20)
    open(os.path.join(d, 'pkg', 'lib', 'libx.so'), 'wb').write(LIB)
    if sparse:
        with open(os.path.join(d, 'pkg', 'lib', 'sparse.so'), 'wb') as f:
            f.seek(20000)
            f.write(LIB)
            f.truncate(40000)
    os.symlink('README.txt', os.path.join(d, 'pkg', 'link'))
    open(os.path.join(d, 'pkg', 'z.txt'), 'wb').write(b'z' * 100)
    args = ['tar', '-c', '--format=' + fmt, '--owner=0', '--group=0', '--mtime=@1700000000', '-C', d, 'pkg']
    if sparse:
        args[2:2] = ['--sparse']
    return subprocess.run(args, capture_output=True, check=True).stdout


def seed_node():
    d = os.path.join(WORK, 'seednode')
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, 'package', 'lib'))
    open(os.path.join(d, 'package', 'package.json'), 'w').write('{"name":"x","version":"1.0.0"}')
    open(os.path.join(d, 'package', 'lib', 'libx.node'), 'wb').write(LIB)
    open(os.path.join(d, 'package', 'lib', 'y' * 120 + '.js'), 'w').write('x')
    js = ("const tar=require(%r);tar.c({file:%r,cwd:%r,sync:true,portable:true},['package'])"
          % (NODE_TAR, os.path.join(d, 'n.tar'), d))
    subprocess.run(['node', '-e', js], check=True)
    return open(os.path.join(d, 'n.tar'), 'rb').read()


SEEDS = [seed_python(tarfile.GNU_FORMAT), seed_python(tarfile.PAX_FORMAT), seed_python(tarfile.USTAR_FORMAT),
         seed_python(tarfile.PAX_FORMAT, CUBIN), seed_python(tarfile.GNU_FORMAT, PTX)]
SEEDS += [seed_gnu(f) for f in ('gnu', 'oldgnu', 'posix', 'ustar', 'v7')]
SEEDS += [seed_gnu('gnu', True), seed_gnu('posix', True), seed_gnu('oldgnu', True)]
SEEDS += [seed_node()]


def seed_member_in_data():
    """A program (/bin/true) whose bytes hold a tar member of the library 1 KiB in: data a
    reader that passes over a header block by block reads as headers."""
    elf = bytearray(open('/bin/true', 'rb').read())
    i = tarfile.TarInfo('package/lib.so')
    i.size, i.mtime = len(LIB), 1700000000
    inner = i.tobuf(tarfile.USTAR_FORMAT) + LIB + bytes(-len(LIB) % 512)
    elf[1024:1024 + len(inner)] = inner
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode='w', format=tarfile.USTAR_FORMAT) as t:
        for name, data in (('package/package.json', b'{}'), ('package/x.so', bytes(elf)), ('package/index.js', b'//')):
            i = tarfile.TarInfo(name)
            i.size, i.mtime = len(data), 1700000000
            t.addfile(i, io.BytesIO(data))
    return buf.getvalue()


SEEDS += [seed_member_in_data()]
EXTRA = os.environ.get('SEED_DIR')
if EXTRA:
    SEEDS += [open(os.path.join(EXTRA, f), 'rb').read() for f in sorted(os.listdir(EXTRA)) if f.endswith('.tar')]


def header_offsets(d):
    """Blocks that are headers in the seed (as Python reads it), and the data starts."""
    heads, datas = [], []
    try:
        with tarfile.open(fileobj=io.BytesIO(bytes(d))) as t:
            for m in t:
                heads += list(range(m.offset, m.offset_data, 512))
                datas.append((m.offset_data, m.size))
    except Exception:
        pass
    return heads or [0], datas


# ---- mutations ---------------------------------------------------------------------------
FIELDS = {'name': (0, 100), 'mode': (100, 8), 'uid': (108, 8), 'gid': (116, 8), 'size': (124, 12),
          'mtime': (136, 12), 'type': (156, 1), 'link': (157, 100), 'magic': (257, 6),
          'version': (263, 2), 'uname': (265, 32), 'devmajor': (329, 8), 'devminor': (337, 8),
          'prefix': (345, 155), 'gnu_offset': (369, 12), 'gnu_sparse': (386, 96),
          'gnu_isext': (482, 1), 'gnu_realsize': (483, 12), 'atime': (345, 12)}
TYPES = b'0123456789ADgxKLMNSVXIE\0'
PAX_KEYS = [b'size', b'path', b'linkpath', b'GNU.sparse.size', b'GNU.sparse.realsize', b'GNU.sparse.name',
            b'GNU.sparse.major', b'GNU.sparse.minor', b'GNU.sparse.map', b'GNU.sparse.numblocks',
            b'GNU.sparse.offset', b'GNU.sparse.numbytes', b'comment', b'hdrcharset', b'uid', b'mtime',
            b'SCHILY.filetype', b'LIBARCHIVE.xattr.x', b'SCHILY.realsize', b'SCHILY.dev', b'atime']


def number(kind, n, width):
    if kind == 0:
        return (b'%0*o' % (width - 1, n))[:width - 1] + b'\0'
    if kind == 1:
        return (b'%o' % n).rjust(width - 1, b' ') + b' '
    if kind == 2:  # base-256
        return bytes([0x80]) + n.to_bytes(width - 1, 'big', signed=False) if n < 1 << (8 * (width - 1)) else b'\x80' * width
    if kind == 3:
        return (b'\0' + b'%o' % n).ljust(width, b'\0')[:width]
    if kind == 4:
        return (b'+%o' % n).ljust(width, b'\0')[:width]
    if kind == 5:
        return (b'%0*o' % (width, n))[:width]
    return (b'%d' % n).ljust(width, b' ')[:width]


def fix_checksum(d, at, how=0):
    h = d[at:at + 512]
    if len(h) < 512:
        return
    h[148:156] = b' ' * 8
    s = sum(h) if how != 1 else sum(b - 256 if b > 127 else b for b in h)
    h[148:156] = b'%06o\0 ' % (s & 0o777777) if how != 2 else b'%07o\0' % (s & 0o7777777)
    d[at:at + 512] = h


def pax_block(typ, records, name=b'././@PaxHeader'):
    body = b''
    for k, v in records:
        rec = b' ' + k + b'=' + v + b'\n'
        n = len(rec) + 1
        while len(b'%d' % n) + len(rec) != n:
            n = len(b'%d' % n) + len(rec)
        body += b'%d' % n + rec
    h = bytearray(512)
    h[0:len(name)] = name
    h[100:108] = b'0000644\0'
    h[124:136] = b'%011o\0' % len(body)
    h[156] = typ
    h[257:265] = b'ustar\x0000'
    fix_checksum(h, 0)
    return bytes(h) + body + b'\0' * (-len(body) % 512)


def interesting(d, at, datas):
    vals = [0, 1, 511, 512, 513, 1024, len(LIB), len(d), 10 ** 6, (1 << 33) - 1, 1 << 33, (1 << 63)]
    for o, s in datas:
        vals += [o - at - 512, o - at, s, o + s - at - 512]
    return max(0, random.choice(vals))


def mutate(seed):
    d = bytearray(seed)
    heads, datas = header_offsets(d)
    touched = set()
    for _ in range(random.randint(1, 4)):
        r = random.random()
        at = random.choice(heads)
        if at + 512 > len(d):
            continue
        if r < 0.25:  # a byte of a header
            k = at + random.randrange(512)
            d[k] = random.choice([random.randrange(256), random.choice(b'0127 \0/xgLKS5+-.\n=')])
            touched.add(at)
        elif r < 0.55:  # a field set to an interesting value
            f = random.choice(list(FIELDS))
            o, w = FIELDS[f]
            if f == 'type':
                d[at + o] = random.choice(TYPES)
            elif f in ('name', 'link', 'prefix', 'uname'):
                v = random.choice([b'', b'pkg/lib/libx.so', b'./', b'x/', b'/abs', b'../up', b'a' * w, b'pkg/lib/',
                                   b'\0pkg', b'pkg//lib/libx.so', b'pkg/./lib/libx.so', b'PaxHeaders/x'])
                d[at + o:at + o + w] = v[:w].ljust(w, b'\0')
            elif f == 'magic':
                v = random.choice([b'ustar\0', b'ustar ', b'\0\0\0\0\0\0', b'ustar\0'])
                d[at + o:at + o + w] = v
                if random.random() < 0.5:
                    d[at + 263:at + 265] = random.choice([b'00', b' \0', b'\0\0'])
            else:
                d[at + o:at + o + w] = number(random.randrange(7), interesting(d, at, datas), w)
            touched.add(at)
        elif r < 0.75:  # a meta header inserted before a header
            typ = random.choice(b'xgxgLK')
            if typ in b'LK':
                body = random.choice([b'pkg/lib/libx.so', b'x' * 200, b'pkg/README.txt', b'\0', b'a/'])
                blk = bytearray(pax_block(typ, [], b'././@LongLink')[:512])
                blk[124:136] = b'%011o\0' % (len(body) + 1)
                fix_checksum(blk, 0)
                ins = bytes(blk) + body + b'\0' + b'\0' * (-(len(body) + 1) % 512)
            else:
                recs = []
                for _ in range(random.randint(1, 3)):
                    k = random.choice(PAX_KEYS)
                    v = random.choice([b'%d' % interesting(d, at, datas), b'pkg/lib/libx.so', b'0,512,512,512',
                                       b'1', b'0', b'', b'x\n12 size=0', b'pkg/README.txt', b'-1', b'1.0'])
                    recs.append((k, v))
                ins = pax_block(typ, recs)
            d[at:at] = ins
            heads = [h + len(ins) if h >= at else h for h in heads] + list(range(at, at + 512, 512))
            datas = [(o + len(ins) if o >= at else o, s) for o, s in datas]
            touched = {h + len(ins) if h >= at else h for h in touched} | {at}
        elif r < 0.85:  # a block duplicated, removed or zeroed
            q = random.random()
            if q < 0.4:
                d[at:at] = d[at:at + 512]
            elif q < 0.7:
                del d[at:at + 512]
            else:
                d[at:at + 512] = bytes(512)
            heads, datas = header_offsets(d)
            touched = set()
        elif r < 0.93:  # a record's length or a byte inside a meta body
            k = random.randrange(len(d))
            d[k] = random.choice(b'0123456789 =\n\0')
        else:  # anything
            d[random.randrange(len(d))] = random.randrange(256)
    if random.random() < 0.85:
        how = random.choice([0, 0, 0, 1, 2])
        for at in touched:
            fix_checksum(d, at, how)
    return bytes(d)


# ---- the readers ----------------------------------------------------------------------
def python_reads(path):
    found = []
    try:
        with tarfile.open(path) as t:
            for k, m in enumerate(t):
                if k > 10000:  # (a negative size sends Python 3.11's tarfile back over the same member for ever)
                    break
                if m.isreg() or m.islnk():
                    b = t.extractfile(m).read(LIMIT)
                    if holds_code(b):
                        found.append(('python', m.name, b))
    except Exception:
        pass
    return found


def scan_tree(who, top):
    found = []
    for root, dirs, files in os.walk(top):
        for f in files:
            p = os.path.join(root, f)
            st = os.lstat(p)
            if not stat.S_ISREG(st.st_mode):
                continue
            with open(p, 'rb') as fh:
                if st.st_size <= LIMIT:
                    b = fh.read()
                else:  # a sparse file: only its data
                    b, pos = b'', 0
                    try:
                        while len(b) < LIMIT:
                            pos = os.lseek(fh.fileno(), pos, os.SEEK_DATA)
                            end = os.lseek(fh.fileno(), pos, os.SEEK_HOLE)
                            fh.seek(pos)
                            b += fh.read(min(end - pos, LIMIT))
                            pos = end
                    except OSError:
                        pass
            if holds_code(b):
                found.append((who, os.path.relpath(p, top), b))
    return found


def gnu_reads(path):
    top = os.path.join(WORK, 'gnu')
    subprocess.run(['chmod', '-R', 'u+rwx', top], capture_output=True)
    shutil.rmtree(top, ignore_errors=True)
    os.makedirs(top)
    try:
        subprocess.run(['tar', '-xf', path, '-C', top, '--no-same-owner', '--no-same-permissions', '--warning=none'],
                       capture_output=True, timeout=30)
    except subprocess.TimeoutExpired:
        pass
    subprocess.run(['chmod', '-R', 'u+rwx', top], capture_output=True)
    return scan_tree('gnutar', top)


NODE = subprocess.Popen(['node', os.path.join(HERE, 'scripts', 'tar-readers-node.js'), NODE_TAR, WORK],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def node_reads(path):
    NODE.stdin.write(path.encode() + b'\n')
    NODE.stdin.flush()
    found = []
    for e in json.loads(NODE.stdout.readline()):
        if e.get('code'):
            found.append(('node', e['path'], open(e['code'], 'rb').read()))
            os.unlink(e['code'])
    return found


# ---- fatcheck ---------------------------------------------------------------------------
def fatcheck(path, piped=False, json_out=True):
    args = [FATCHECK, '--packages', '--strict', '--gpu', '9.0', '--driver', '13.0'] + (['--json'] if json_out else [])
    if piped:
        with open(path, 'rb') as f:
            return subprocess.run(args + ['-'], stdin=f, capture_output=True, timeout=60)
    return subprocess.run(args + [path], capture_output=True, timeout=60)


def signatures(doc):
    sigs = []
    for f in doc.get('files', []):
        for c in f.get('containers') or []:
            # (PTX found as text in bytes of no known format is measured without its last byte.)
            sigs.append(tuple(sorted((e.get('kind'), e.get('arch')) + (() if e.get('kind') == 'ptx' else
                                     (e.get('size'), e.get('uncompressed_size'))) for e in c.get('entries', []))))
    return sigs


SIG_CACHE = {}


def alone(b):
    """What fatcheck judges in these bytes read by themselves."""
    h = hashlib.sha256(b).hexdigest()
    if h not in SIG_CACHE:
        p = os.path.join(WORK, 'alone.bin')
        open(p, 'wb').write(b)
        r = fatcheck(p)
        if b'not an ELF file, archive, fat binary, cubin, PTX file or package' in r.stderr:
            SIG_CACHE[h] = (None, [])  # no format CUDA loads: a member fatcheck passes over too
        else:
            try:
                SIG_CACHE[h] = (r.returncode, signatures(json.loads(r.stdout)))
            except ValueError:
                SIG_CACHE[h] = (r.returncode, [])
    return SIG_CACHE[h]


def main():
    stats = collections.Counter()
    findings = 0
    t0 = time.time()
    for run in range(RUNS):
        data = mutate(random.choice(SEEDS))
        gz = random.random() < 0.15
        path = os.path.join(WORK, 'in.tar.gz' if gz else 'in.tar')
        open(path, 'wb').write(gzip.compress(data, 1) if gz else data)
        written = python_reads(path) + gnu_reads(path) + node_reads(path)
        piped = random.random() < 0.25
        r = fatcheck(path, piped)
        stats['rc%d' % r.returncode] += 1
        stats['readers_wrote_code'] += bool(written)
        why = None
        if r.returncode < 0 or r.returncode > 3:
            why = 'fatcheck ended with %d' % r.returncode
        elif r.returncode in (0, 1):
            try:
                judged = collections.Counter(signatures(json.loads(r.stdout)))
            except ValueError:
                judged, why = collections.Counter(), 'fatcheck printed no JSON'
            for who, name, b in written:
                rc, sigs = alone(b)
                if rc is None:
                    stats['code_in_no_format'] += 1
                    continue
                missing = collections.Counter(sigs) - judged
                if rc == 3:
                    # damaged code (a shifted or cut library, one fatcheck alone says it cannot
                    # read whole): kept apart for reading, not a finding
                    stats['damaged_code_written'] += 1
                    if stats['damaged_code_written'] <= 30:
                        keep = os.path.join(OUT, 'damaged%d' % stats['damaged_code_written'] + path[path.index('.tar'):])
                        open(keep, 'wb').write(open(path, 'rb').read())
                elif missing:
                    why = why or '%s writes %s (%d bytes) holding code fatcheck did not judge' % (who, name, len(b))
        if why:
            findings += 1
            stats['findings'] += 1
            base = os.path.join(OUT, 'find%d' % findings)
            open(base + ('.tar.gz' if gz else '.tar'), 'wb').write(open(path, 'rb').read())
            with open(base + '.txt', 'w') as f:
                f.write('%s\nfatcheck %s: exit %d\n%s\n' % (why, 'piped' if piped else 'named', r.returncode,
                                                           r.stderr.decode('latin1')[-800:]))
                for who, name, b in written:
                    f.write('%s wrote %r: %d bytes, sha256 %s\n' % (who, name, len(b), hashlib.sha256(b).hexdigest()[:16]))
            print('FINDING', findings, why, flush=True)
        if run % 200 == 199:
            print('%d runs, %.1f/s, %s' % (run + 1, (run + 1) / (time.time() - t0), dict(stats)), flush=True)
    NODE.stdin.close()
    print(dict(stats))
    print(RUNS, 'runs', findings, 'findings')


main()

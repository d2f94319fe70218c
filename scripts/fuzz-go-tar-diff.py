#!/usr/bin/env python3
"""fuzz-go-tar-diff.py - differential fuzzing of src/image/oci_tar_go.c against Go's own
archive/tar: mutations of fuzz/corpus/fuzz_go_tar and Go's test data (bytes changed, header
checksums fixed up so that mutated headers stay valid, bytes inserted), each listed by
tests/golist (built by scripts/compare-go-tar.sh's way: GO111MODULE=off go build) and by
build/tests/go_tar_list fed in random piece sizes. A difference before the point where Go stops
with an error is one; inputs are kept as OUT/diffN.tar.

Usage: scripts/fuzz-go-tar-diff.py GOLIST GO_TAR_LIST OUT SEED RUNS
Last line: "RUNS runs N diffs"."""
import os, random, subprocess, sys
GOLIST, LISTER, OUT = sys.argv[1:4]
random.seed(int(sys.argv[4]))
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDS = os.path.join(HERE, 'fuzz', 'corpus', 'fuzz_go_tar')
GO_DATA = '/usr/lib/go/src/archive/tar/testdata/'
seeds = [open(os.path.join(SEEDS, f), 'rb').read()[1:] for f in sorted(os.listdir(SEEDS))]
if os.path.isdir(GO_DATA):
    seeds += [open(f, 'rb').read() for f in [GO_DATA + n for n in sorted(os.listdir(GO_DATA)) if n.endswith('.tar')]
              if os.path.getsize(f) < 200000]
def norm(out):
    lines = out.decode('latin1').splitlines()
    return [('STOPPED' if l.startswith('STOPPED') else 'END' if l == 'NO END' else l) for l in lines]
diffs = 0
N = int(sys.argv[5])
for i in range(N):
    d = bytearray(random.choice(seeds))
    for _ in range(random.randint(1, 6)):
        k = random.randrange(len(d))
        r = random.random()
        if r < 0.5: d[k] = random.randrange(256)
        elif r < 0.7: d[k] = random.choice(b'0127 \x00/xgLKS5')
        elif r < 0.85:
            blk = k - k % 512
            # fix checksum of the block so the header stays valid
            h = d[blk:blk+512]
            if len(h) == 512:
                h[148:156] = b' ' * 8
                h[148:156] = b'%06o\x00 ' % sum(h)
                d[blk:blk+512] = h
        else:
            d[k:k] = bytes(random.randrange(256) for _ in range(random.randint(1, 40)))
    # fix checksums of all header-looking blocks sometimes
    if random.random() < 0.5:
        for blk in range(0, len(d) - 511, 512):
            h = d[blk:blk+512]
            if h[257:262] == b'ustar' or random.random() < 0.05:
                h[148:156] = b' ' * 8
                h[148:156] = b'%06o\x00 ' % sum(h)
                d[blk:blk+512] = h
    open(os.path.join(OUT, 'in.tar'), 'wb').write(d)
    g = subprocess.run([GOLIST, os.path.join(OUT, 'in.tar')], capture_output=True, timeout=20).stdout
    c = subprocess.run([LISTER, os.path.join(OUT, 'in.tar'), str(random.choice([1, 7, 512, 4096, 65536]))], capture_output=True, timeout=20).stdout
    gn, cn = norm(g), norm(c)
    # Go reports truncation errors we cannot see: compare up to Go's stop
    if gn != cn:
        if gn and gn[-1] == 'STOPPED' and cn[:len(gn)-1] == gn[:-1]:
            continue
        diffs += 1
        open(os.path.join(OUT, 'diff%d.tar' % diffs), 'wb').write(d)
        if diffs <= 5:
            import difflib
            print('DIFF', diffs, '\n'.join(list(difflib.unified_diff(gn, cn, lineterm=''))[:12]))
print(N, 'runs', diffs, 'diffs')

#!/usr/bin/env python3
"""Picks the containers to ask the driver about: from each file, one container per distinct
(section or origin, entries, prediction) class, the smallest, plus every container that may
hold relocatable code (link inputs: __nv_relfatbin, LTO-IR beside other images), up to a
byte budget. Writes each as a bare fat binary into OUTDIR and a manifest line per container.

    pick.py [--fatcheck build/fatcheck] [--budget MiB] [--per-class N] OUTDIR FILE...

The manifest (OUTDIR/manifest.jsonl) names the file (path, size, sha256), the container's
offset and size, its class, and fatcheck's prediction for sm_90 with a CUDA 13.0 driver at
the time of picking (what later rule changes are measured against).
"""
import argparse, hashlib, json, os, subprocess, sys


def sha256(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for block in iter(lambda: f.read(1 << 20), b''):
            h.update(block)
    return h.hexdigest()


def entry_key(e):
    v = e.get('ptx_isa') or e.get('code_version') or ''
    return '%s:%s:%s:%s%s' % (e['kind'], e['arch'], v, e['compression'], ':g' if e.get('debug') else '')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--fatcheck', default='build/fatcheck')
    ap.add_argument('--budget', type=float, default=40.0, help='MiB of containers at most')
    ap.add_argument('--per-class', type=int, default=1)
    ap.add_argument('--max-size', type=float, default=3.0, help='MiB: larger containers are left out (and said)')
    ap.add_argument('--link-inputs', type=int, default=40, help='relocatable containers per file at most')
    ap.add_argument('outdir')
    ap.add_argument('files', nargs='+')
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    budget = int(a.budget * 1024 * 1024)
    used = 0
    man = open(os.path.join(a.outdir, 'manifest.jsonl'), 'a')
    for path in a.files:
        out = subprocess.run([a.fatcheck, '--json', '--embedded', '--gpu', '9.0', '--driver', '13.0', path],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        doc = json.loads(out.stdout)
        digest = sha256(path)
        fsize = os.path.getsize(path)
        for obj in doc['files']:
            if obj.get('member'):
                continue  # archives: the members' offsets are not file offsets
            classes = {}
            link = []
            for c in obj.get('containers', []):
                kinds = sorted(entry_key(e) for e in c['entries'])
                pred = c['loads'][0]['result'] if c.get('loads') else '?'
                via = (c['loads'][0].get('via') or {}).get('image', '') if c.get('loads') else ''
                where = c.get('section') or c['origin']
                cls = '%s|%s|%s|%s|%s' % (c['origin'], where, ' '.join(kinds), pred, via)
                relocatable = where == '__nv_relfatbin' or any(e['kind'] == 'ltoir' for e in c['entries'])
                classes.setdefault(cls, []).append(c)
                if relocatable:
                    link.append((cls, c))
            chosen = {}
            for cls, cs in classes.items():
                for c in sorted(cs, key=lambda c: c['size'])[:a.per_class]:
                    chosen[c['offset']] = (cls, c)
            for cls, c in sorted(link, key=lambda x: x[1]['size'])[:a.link_inputs]:
                chosen.setdefault(c['offset'], (cls, c))
            with open(path, 'rb') as f:
                for off in sorted(chosen):
                    cls, c = chosen[off]
                    if c['size'] > a.max_size * 1048576 or used + c['size'] > budget:
                        print('pick: left out %s+0x%x (%d bytes, class %s)' % (path, off, c['size'], cls),
                              file=sys.stderr)
                        continue
                    f.seek(off)
                    data = f.read(c['size'])
                    name = '%s@%x.fatbin' % (os.path.basename(path), off)
                    with open(os.path.join(a.outdir, name), 'wb') as o:
                        o.write(data)
                    used += len(data)
                    man.write(json.dumps({'image': name, 'file': path, 'file_size': fsize, 'sha256': digest,
                                          'offset': off, 'size': c['size'], 'class': cls,
                                          'predicted_at_pick': c['loads'][0]['result'] if c.get('loads') else None})
                              + '\n')
    print('pick: %.1f MiB in %s' % (used / 1048576, a.outdir), file=sys.stderr)


main()

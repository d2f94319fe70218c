#!/bin/sh
# Records what NVIDIA's cuobjdump lists for each FILE, for golden tests.
# Usage: scripts/cuobjdump-golden.sh OUTDIR FILE...
# Writes OUTDIR/<name>.list-elf, .list-ptx (stdout, byte for byte), .stderr, and a line per
# file in OUTDIR/index.tsv: name, sha256, size, cuobjdump exit codes, seconds, peak RSS (KiB).
set -u
out=$1; shift
mkdir -p "$out"
CUOBJDUMP=${CUOBJDUMP:-cuobjdump}
for f in "$@"; do
    n=$(basename "$f")
    sum=$(sha256sum "$f" | cut -d' ' -f1)
    size=$(stat -L -c %s "$f")
    # python3 gives wall time and the child's peak RSS without needing GNU time.
    res=$(python3 - "$CUOBJDUMP" "$f" "$out/$n" <<'PY'
import resource, subprocess, sys, time
exe, f, base = sys.argv[1:4]
codes = []
t0 = time.perf_counter()
for opt, ext in (("--list-elf", "list-elf"), ("--list-ptx", "list-ptx")):
    with open(base + "." + ext, "wb") as o, open(base + "." + ext + ".stderr", "wb") as e:
        codes.append(subprocess.run([exe, opt, f], stdout=o, stderr=e).returncode)
t = time.perf_counter() - t0
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print("%s\t%s\t%.3f\t%d" % (codes[0], codes[1], t, rss))
PY
)
    printf '%s\t%s\t%s\t%s\n' "$n" "$sum" "$size" "$res" >> "$out/index.tsv"
done

#!/bin/sh
# compare-go-tar.sh - lists each tar given as Go's archive/tar reads it (tests/golist) and as
# src/image/oci_tar_go.c reads it (build/tests/go_tar_list, fed in pieces of 1, 511 and 65536
# bytes), and says where they differ. Needs Go (golang-go). Compressed tars (.gz, .xz, .zst,
# .bz2) are decompressed first.
#
# Usage: scripts/compare-go-tar.sh [BUILD] TAR...     Last line: "N same, N differ".
set -u
build=build
case "${1:-}" in */) build=${1%/}; shift ;; esac
[ -d "$build" ] || { echo "no build folder $build" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
(cd "$here/tests/golist" && GO111MODULE=off go build -o "$tmp/golist" main.go) || { echo "cannot build tests/golist" >&2; exit 2; }
same=0 differ=0
for f in "$@"; do
    case "$f" in
    *.gz|*.tgz) gzip -dc "$f" > "$tmp/t" 2>/dev/null ;;
    *.xz) xz -dc "$f" > "$tmp/t" 2>/dev/null ;;
    *.zst) zstd -qdc "$f" > "$tmp/t" 2>/dev/null ;;
    *.bz2) bzip2 -dc "$f" > "$tmp/t" 2>/dev/null ;;
    *) cp "$f" "$tmp/t" ;;
    esac
    # Go's "STOPPED: archive/tar: ..." and ours name the error differently: the line says that
    # each stopped. Go ends where the input ends without a block of zeros too.
    "$tmp/golist" "$tmp/t" | sed 's/^STOPPED:.*/STOPPED/' > "$tmp/go"
    ok=1
    for chunk in 1 511 65536; do
        "$here/$build/tests/go_tar_list" "$tmp/t" $chunk | sed 's/^STOPPED:.*/STOPPED/; s/^NO END$/END/' > "$tmp/c"
        if ! cmp -s "$tmp/go" "$tmp/c"; then
            ok=0
            echo "DIFFER ($chunk-byte pieces): $f"
            diff "$tmp/go" "$tmp/c" | head -6
            break
        fi
    done
    if [ $ok = 1 ]; then same=$((same + 1)); else differ=$((differ + 1)); fi
done
echo "$same same, $differ differ"

#!/bin/sh
# Fetches the real files of other CUDA releases that tests/oracle/real.jsonl holds the driver's
# answers for (CUDA 11.8 and 12.4 builds from Debian 12 and 13, NVIDIA's and third parties';
# a CUDA 12.2 build from npm), into .eras/lib/GROUP/FILE, where tests/oracle_test.py looks.
# Usage: sh scripts/fetch-eras.sh [--all] [--toolkit]
#   By default the largest package (libtorch-cuda-2.6, 480 MB) is left out; --all takes it.
#   --toolkit also unpacks CUDA 11.8's nvcc tools (ptxas, fatbinary) into .eras/root for
#   tests/oracle/make.sh.
# Needs apt-get (any Debian; its own package lists go into .eras/apt, the system's stay as
# they are) and, for the npm file, npm. A download that fails is said and left out: the tests
# then skip its records, saying so. Downloads are kept in .eras/cache and not fetched again.
set -u
cd "$(dirname "$0")/.."
all=0 toolkit=0
for a in "$@"; do
    case $a in --all) all=1 ;; --toolkit) toolkit=1 ;; *) echo "usage: $0 [--all] [--toolkit]" >&2; exit 2 ;; esac
done
E=$PWD/.eras
mkdir -p "$E/lib" "$E/apt"
apt_for() { # SUITE: apt-get options for a private list of that Debian suite with non-free
    d=$E/apt/$1
    if [ ! -f "$d/sources.list" ]; then
        mkdir -p "$d/lists/partial"
        echo "deb http://deb.debian.org/debian $1 main contrib non-free" > "$d/sources.list"
    fi
    echo "-o Dir::Etc::SourceList=$d/sources.list -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists=$d/lists -o Debug::NoLocking=1"
}
updated=""
fetch_deb() { # SUITE PACKAGE: prints the path of the downloaded .deb
    o=$(apt_for "$1")
    case " $updated " in *" $1 "*) ;; *) apt-get $o update >/dev/null 2>&1; updated="$updated $1" ;; esac
    mkdir -p "$E/cache/$1"
    f=$(ls "$E/cache/$1/$2"_*.deb 2>/dev/null | head -n 1)
    if [ -z "$f" ]; then
        (cd "$E/cache/$1" && apt-get $o download "$2" >/dev/null 2>&1)
        f=$(ls "$E/cache/$1/$2"_*.deb 2>/dev/null | head -n 1)
    fi
    echo "$f"
}
got=0 missed=0
while read -r group source pkg path; do
    case $group in ''|'#'*) continue ;; esac
    [ "$pkg" = libtorch-cuda-2.6 ] && [ $all = 0 ] && continue
    dest=$E/lib/$group/$(basename "$path")
    [ -s "$dest" ] && { got=$((got + 1)); continue; }
    mkdir -p "$E/lib/$group"
    tmp=$E/unpack.$$
    rm -rf "$tmp"; mkdir -p "$tmp"
    if [ "$source" = npm ]; then
        mkdir -p "$E/cache/npm"
        t=$(ls "$E/cache/npm/"*"$(echo "$pkg" | sed 's#^@##; s#/#-#; s#@#-#')".tgz 2>/dev/null | head -n 1)
        [ -n "$t" ] || t=$(cd "$E/cache/npm" && npm pack "$pkg" 2>/dev/null | tail -n 1 | sed "s#^#$E/cache/npm/#")
        [ -f "$t" ] && tar -xzf "$t" -C "$tmp" "$path" 2>/dev/null
    else
        d=$(fetch_deb "$source" "$pkg")
        [ -n "$d" ] && dpkg-deb --fsys-tarfile "$d" | tar -x -C "$tmp" "./$path" 2>/dev/null
    fi
    if [ -s "$tmp/$path" ]; then
        mv "$tmp/$path" "$dest"; got=$((got + 1))
    else
        echo "fetch-eras: could not fetch $path from $source $pkg" >&2; missed=$((missed + 1))
    fi
    rm -rf "$tmp"
done < tests/oracle/eras.list
if [ $toolkit = 1 ] && [ ! -x "$E/root/usr/bin/ptxas" ]; then
    d=$(fetch_deb bookworm nvidia-cuda-toolkit)
    [ -n "$d" ] && mkdir -p "$E/root" && dpkg-deb -x "$d" "$E/root"
fi
echo "fetch-eras: $got files in .eras/lib, $missed not fetched"

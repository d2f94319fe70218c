#!/bin/sh
# Installs what fatcheck needs on Debian 12 (as root) and builds it into build/.
# Usage: sh scripts/setup.sh        Skips apt-get when everything is already there.
set -eu
cd "$(dirname "$0")/.."
need=""
for p in meson ninja pkg-config cc clang python3 xz zstd lz4 gzip; do
    command -v "$p" >/dev/null 2>&1 || need=1
done
if [ -z "$need" ]; then
    pkg-config --exists libelf libzstd liblz4 libarchive liblzma jansson nettle liburing || need=1
    [ -f /usr/include/libiberty/demangle.h ] || need=1
    # The Python package: the headers to build it, pytest to test it (Debian's python3);
    # jsonschema validates the --json documents in the tests.
    /usr/bin/python3 -c 'import pytest, jsonschema, sysconfig, os, sys; sys.exit(not os.path.exists(
        os.path.join(sysconfig.get_paths()["include"], "Python.h")))' 2>/dev/null || need=1
fi
if [ -n "$need" ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "setup: missing build dependencies; run as root to install them with apt-get" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends \
        meson ninja-build pkg-config gcc libc6-dev libelf-dev libzstd-dev liblz4-dev zlib1g-dev \
        libarchive-dev liblzma-dev libjansson-dev nettle-dev libiberty-dev liburing-dev python3 python3-dev python3-pytest \
        python3-jsonschema xz-utils zstd lz4 gzip clang libclang-rt-14-dev >/dev/null
fi
if [ -d build ]; then
    meson setup --reconfigure build >/dev/null
else
    meson setup build >/dev/null
fi
ninja -C build >/dev/null
echo "setup: built build/fatcheck"

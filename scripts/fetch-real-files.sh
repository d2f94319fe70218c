#!/bin/sh
# Downloads the real files the golden tests beyond ELF check (tests/golden_real_test.py), into
# DIR (default: $FATCHECK_REAL_FILES, else ~/.cache/fatcheck/real), ~280 MB; scripts/test.sh runs it.
# Usage: scripts/fetch-real-files.sh [DIR]
#   node-llama-cpp-win-x64-cuda-3.21.1.tgz   npm's @node-llama-cpp/win-x64-cuda 3.21.1 (npm pack),
#   win-x64-cuda/ggml-cuda.dll               and its Windows CUDA DLL, unpacked from it
#   mumax3                                   Debian 12's mumax3 3.10-7 (contrib), /usr/bin/mumax3 from
#                                            the .deb (apt-get download with a private contrib source
#                                            list, so the system's apt configuration is not touched)
set -eu
dir=${1:-${FATCHECK_REAL_FILES:-$HOME/.cache/fatcheck/real}}
mkdir -p "$dir"
cd "$dir"
if [ ! -f node-llama-cpp-win-x64-cuda-3.21.1.tgz ]; then
    npm pack --silent @node-llama-cpp/win-x64-cuda@3.21.1 >/dev/null
fi
mkdir -p win-x64-cuda
tar -xzf node-llama-cpp-win-x64-cuda-3.21.1.tgz -O package/bins/win-x64-cuda/ggml-cuda.dll > win-x64-cuda/ggml-cuda.dll
if [ ! -f mumax3 ]; then
    apt=$(mktemp -d)
    trap 'rm -rf "$apt"' EXIT
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
    echo "deb http://deb.debian.org/debian bookworm contrib" > "$apt/sources.list"
    set -- -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
           -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o Debug::NoLocking=1 \
           -o APT::Sandbox::User=root
    apt-get "$@" -qq update
    (cd "$apt" && apt-get "$@" -qq download mumax3=3.10-7 && dpkg-deb -x mumax3_3.10-7_amd64.deb root)
    cp "$apt/root/usr/bin/mumax3" mumax3
fi
sha256sum node-llama-cpp-win-x64-cuda-3.21.1.tgz win-x64-cuda/ggml-cuda.dll mumax3

#!/bin/sh
# Builds the two CUDA libraries the image fixtures hold, with nvcc 13.0 (committed; the tests
# need no nvcc). Usage: tests/images/make-libs.sh
#   libsm90.so   kernels for sm_90 only: loads natively on an H100 (9.0)
#   libsm100.so  kernels for sm_100 only: no image for an H100, whose launches fail
# Both use the shared CUDA runtime (DT_NEEDED libcudart.so.13).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
src="$here/../../fixtures/src/kernels.cu"
for a in 90 100; do
    "$NVCC" -frandom-seed=fatcheck -shared -Xcompiler -fPIC -cudart shared \
        -gencode arch=compute_$a,code=sm_$a -o "$here/libsm$a.so" "$src"
done
strip --strip-unneeded "$here/libsm90.so" "$here/libsm100.so"
ls -l "$here"/libsm*.so

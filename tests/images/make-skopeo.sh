#!/bin/sh
# Converts whiteouts.tar (made by make.py) with skopeo, as users convert images, into:
#   oci-gzip/         an OCI image layout, layers tar+gzip (skopeo copy ... oci:DIR:TAG)
#   oci-zstd/         the same with tar+zstd layers (--dest-compress-format zstd)
#   oci-archive.tar   a tarball of an OCI layout (skopeo copy ... oci-archive:FILE:TAG)
# Debian 12's skopeo 1.9 works offline. The outputs are committed; tests need no skopeo.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
rm -rf oci-gzip oci-zstd oci-archive.tar
skopeo copy -q docker-archive:whiteouts.tar oci:oci-gzip:1.0
skopeo copy -q --dest-compress-format zstd docker-archive:whiteouts.tar oci:oci-zstd:1.0
skopeo copy -q docker-archive:whiteouts.tar oci-archive:oci-archive.tar:1.0
du -sh oci-gzip oci-zstd oci-archive.tar

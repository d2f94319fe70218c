/* oci_image.h - container images among the inputs: where the scan hands them over (oci_image.c). */
#ifndef FC_OCI_IMAGE_H
#define FC_OCI_IMAGE_H

#include <archive.h>
#include <archive_entry.h>

#include "archive_api.h"
#include "image.h"
#include "input.h"

/* Whether directory DIRFD is an OCI image layout (it has oci-layout and index.json). */
bool fc_oci_dir_is_layout(int dirfd);
/* Whether a folder named as an input is an image layout, read as one however damaged: an
 * oci-layout file, or index.json beside blobs/sha256/ (oci_image.c). */
bool fc_oci_dir_named_layout(int dirfd);
/* Scans the layout open as DIRFD, named PATH. */
int fc_oci_scan_dir(fc_scan_ctx *sc, int dirfd, const char *path);
/* Scans IMG (a file or memory) as a container image archive when it is one: an uncompressed
 * tar holding docker save's manifest.json or an OCI layout. Otherwise sets *NOT_IMAGE, reads
 * nothing and returns 0. */
int fc_oci_scan_tar(fc_scan_ctx *sc, const fc_image *img, const char *path, bool *not_image);
/* Whether a package's first member NAME is one an image archive starts with (docker save's
 * layer folders and configs, an OCI layout's files). */
bool fc_oci_member_looks_like_image(const char *name);
/* Scans the rest of the archive A (libarchive, at member E, the first) as an image archive,
 * read once as a stream. *FATAL when the archive cannot be read further. */
int fc_oci_scan_stream(fc_scan_ctx *sc, const fc_archive_api *la, struct archive *a, struct archive_entry *e,
                       const char *path, bool *fatal, const uint8_t *first, size_t first_n);
/* Whether HEAD, the first bytes of a member named manifest.json, can start docker's manifest:
 * a JSON list. A web application's manifest.json is an object (review of 2026-12-06, rv15 2). */
bool fc_oci_manifest_head_is_list(const uint8_t *head, size_t n);

#endif

/* tar_agree.h - a tar as libarchive reads it, checked entry by entry against Go's archive/tar's
 * reading of the same bytes (oci_tar_go.h).
 *
 * fatcheck reads tars with libarchive; what unpacks them for real reads them otherwise: Docker
 * and containerd a layer with Go's archive/tar, pip and conda with Python's tarfile, dpkg and
 * npm with their own readers. Where libarchive's reading is not Go's (a name, a type, a size, or
 * where an entry's bytes lie), libarchive is the odd one out or the tar is read two ways: what
 * was judged may not be what gets unpacked. The reader of the tar feeds this the bytes its
 * libarchive reader takes, asks for each entry libarchive returns whether Go returns the same
 * next, reads a file's data through it, and at libarchive's end asks whether Go ends there too.
 * WHO names, in the messages, the readers Go's reading stands for.
 */
#ifndef FC_TAR_AGREE_H
#define FC_TAR_AGREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "archive_api.h"
#include "oci_tar_go.h"

typedef struct fc_tar_agree {
    fc_go_tar *go;
    const char *who;   /* "Docker and containerd (Go's archive/tar)" */
    bool others;       /* what Python's tarfile, GNU tar or npm's reader read otherwise is said too */
    bool oom;          /* Go's reading could not be fed: nothing can be checked */
    char *buf_a, *buf_b; /* scratch for cleaned paths */
} fc_tar_agree;

/* What a check found. */
typedef enum fc_tar_verdict { FC_TAR_SAME, FC_TAR_DIFFERENT, FC_TAR_NOMEM } fc_tar_verdict;

/* False when out of memory. OTHERS: the tar is unpacked by other readers than Go (a package's:
 * Python's tarfile, GNU tar, dpkg, npm's), and an entry they are known to read otherwise than
 * Go and libarchive (fc_go_entry.odd) is not the same either. */
bool fc_tar_agree_init(fc_tar_agree *t, const char *who, bool others);
void fc_tar_agree_fini(fc_tar_agree *t);

/* N more bytes of the tar, as libarchive's reader takes them. */
void fc_tar_agree_feed(fc_tar_agree *t, const void *p, size_t n);

/* How many of the next N bytes Go would pass over unread, which may be skipped unread (then
 * fc_tar_agree_skipped). */
uint64_t fc_tar_agree_skippable(const fc_tar_agree *t, uint64_t n);
void fc_tar_agree_skipped(fc_tar_agree *t, uint64_t n);

/* Whether entry E, the INDEXth libarchive returned from A, is the next Go returns: the same
 * type, path (cleaned as containerd cleans it), link and size, its headers and data at the same
 * bytes of the tar, a file's fragments the same. SAME: *OUT is Go's (valid until the next
 * call). DIFFERENT: WHY says how. */
fc_tar_verdict fc_tar_agree_entry(fc_tar_agree *t, const fc_archive_api *la, struct archive *a, struct archive_entry *e,
                                  uint64_t index, fc_go_entry *out, char *why, size_t cap);

/* Gives the next block of the tar after libarchive's end (1), or 0 at the end of the bytes,
 * or -1 where they cannot be read. */
typedef int (*fc_tar_pull)(void *arg, const void **block, size_t *size);

/* At libarchive's end of the tar (A's ARCHIVE_EOF): whether Go's reading, fed on with PULL
 * (libarchive reads only what it needs) for MAX_MORE bytes at most, finds no entry more and ends
 * at the same byte. */
fc_tar_verdict fc_tar_agree_end(fc_tar_agree *t, const fc_archive_api *la, struct archive *a, fc_tar_pull pull,
                                void *arg, uint64_t max_more, char *why, size_t cap);

/* A file's bytes, read from libarchive's blocks, each checked to lie where Go's reading puts the
 * file's bytes (a plain file's from 0 to its size, a sparse one's in its fragments, holes
 * zeros). Only what is read is checked: what is not read is judged by neither. */
typedef struct fc_tar_placed {
    const fc_archive_api *la;
    struct archive *a;
    const char *who;
    const int64_t *map;   /* Go's fragments, offset and length pairs; NULL: one, the whole file */
    size_t n_map, frag;   /* and the one reached */
    int64_t size;         /* Go's size of the file */
    int64_t out;          /* bytes handed out */
    const uint8_t *block; /* what is left of libarchive's block */
    size_t left;
    char why[200];
} fc_tar_placed;

/* Starts reading the data of the entry G describes (the one fc_tar_agree_entry returned). */
void fc_tar_placed_start(fc_tar_placed *p, const fc_tar_agree *t, const fc_archive_api *la, struct archive *a,
                         const fc_go_entry *g);

/* Up to N bytes of the file into BUF: how many, or a negative libarchive status with *WHY
 * (libarchive's error where NULL). */
la_ssize_t fc_tar_placed_read(fc_tar_placed *p, uint8_t *buf, size_t n, const char **why);

#endif

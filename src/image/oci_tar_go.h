/* oci_tar_go.h - a layer's tar headers read as Go's archive/tar reads them.
 *
 * Docker and containerd apply a layer with Go's archive/tar; fatcheck reads it with libarchive.
 * Where the two read one tar differently (a regular file whose name ends in '/', a PAX path
 * beside a GNU long name, a GNU.sparse.name outside a sparse file, a prefix field one reads and
 * the other does not ...), the files judged would not be the files the container gets. This
 * reader is fed the layer's tar as libarchive takes it, finds the entries Go would return, and
 * the layer reader checks each entry libarchive returns against them (oci_layer.c).
 *
 * Only what places the entries is read: the headers, the PAX records and GNU long names that
 * rename them, their types and sizes. It follows Go 1.19's reader.go, strconv.go and
 * format.go (the same since Go 1.10 in these respects); a field Go would refuse that does not
 * move or rename an entry (a mode, a time) is not checked.
 */
#ifndef FC_OCI_TAR_GO_H
#define FC_OCI_TAR_GO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct fc_go_tar fc_go_tar;

/* An entry as Go's Reader.Next returns it (global 'g' headers, which Docker and containerd
 * pass over and libarchive does not return, are not listed). */
typedef struct fc_go_entry {
    uint8_t type;   /* Header.Typeflag: '\0' made '0', or '5' for a name ending in '/' */
    int64_t size;   /* Header.Size: a sparse file's logical size */
    uint64_t index; /* which entry of the tar, from 1 */
    uint64_t start; /* where its first header is (a PAX or GNU one before its own; after the
                     * last entry's data and padding, as libarchive's header position) */
    uint64_t data_at; /* where its data is: after its headers (and a sparse file's map) */
    bool sparse;    /* a GNU sparse file (old, 0.0, 0.1 or 1.0): MAP its data fragments */
    const int64_t *map; /* N_MAP offset, length pairs, as Go reads them */
    size_t n_map;
    const char *name, *link; /* valid until the next fc_go_tar_next */
    /* Where other tar readers (Python's tarfile, GNU tar, npm's node-tar) are known to read the
     * entry otherwise than Go and libarchive, why (the headers that make it so); else NULL. */
    const char *odd;
} fc_go_entry;

fc_go_tar *fc_go_tar_new(void);
void fc_go_tar_free(fc_go_tar *t);

/* Reads N more bytes of the tar. False when out of memory (the reader is then of no use). */
bool fc_go_tar_feed(fc_go_tar *t, const uint8_t *p, size_t n);

/* How many of the next N bytes Go would pass over unread (an entry's data and padding, or
 * anything after the tar's end or an error): those may be skipped with fc_go_tar_skip. */
uint64_t fc_go_tar_skippable(const fc_go_tar *t, uint64_t n);
void fc_go_tar_skip(fc_go_tar *t, uint64_t n);

/* The next entry read and not yet taken: true, or false when none is (yet). */
bool fc_go_tar_next(fc_go_tar *t, fc_go_entry *e);

/* Why Go's reader would stop with an error at the point reached ("invalid tar header" ...),
 * or NULL. Entries before that point are listed. */
const char *fc_go_tar_stopped(const fc_go_tar *t);

/* Whether the 512 bytes at P are a tar header Go reads (its checksum holds): a layer's first
 * block, whatever its format (a v7 tar has no "ustar" magic). */
bool fc_go_tar_is_header(const uint8_t *p);

/* Why other readers read more of the tar than Go where no entry has said it yet (a meta
 * header's body holding headers, fc_go_entry.odd), or NULL. */
const char *fc_go_tar_odd_left(const fc_go_tar *t);

/* Whether the end marker (a block of zeros) has been read. */
bool fc_go_tar_ended(const fc_go_tar *t);

/* Where Go's reading ends: the block of zeros, or the end of an input that stops where a
 * header would start. False while it is elsewhere. */
bool fc_go_tar_end_position(const fc_go_tar *t, uint64_t *at);

#endif

/* stream.h - bytes that arrive in order and are read once: standard input, a member of a
 * package, what a decompressor gives out.
 *
 * Such bytes cannot be mapped; a package among them is read through libarchive as they come
 * (package.c), and anything else is held whole, within a bound, so that it can be read like
 * a file (fc_hold).
 */
#ifndef FC_STREAM_H
#define FC_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fatcheck/common.h"
#include "image.h"

typedef struct fc_stream fc_stream;
struct fc_stream {
    /* Reads up to N bytes into BUF: how many, 0 at the end, -1 on an error (said in error). */
    ssize_t (*read)(fc_stream *s, uint8_t *buf, size_t n);
    /* Bytes read ahead to tell the format, given back: served before read is called again.
     * They belong to the caller and must outlive the stream's use. */
    const uint8_t *ahead;
    size_t ahead_len;
    char error[256];
};

/* Reads up to N bytes, the ones given back first; as read. */
ssize_t fc_stream_read(fc_stream *s, void *buf, size_t n);
/* Reads until BUF holds N bytes or the stream ends: how many, or -1 on an error. */
ssize_t fc_stream_fill(fc_stream *s, void *buf, size_t n);
/* Gives back the N bytes at BUF (the last ones read; nothing may be given back already). */
void fc_stream_unread(fc_stream *s, const uint8_t *buf, size_t n);

/* A descriptor read with read(2): a pipe, a socket, or a file from its current position. */
typedef struct fc_fd_stream {
    fc_stream s;
    int fd;
} fc_fd_stream;
void fc_fd_stream_init(fc_fd_stream *f, int fd);

/* Bytes in memory. */
typedef struct fc_memory_stream {
    fc_stream s;
    const uint8_t *p;
    size_t left;
} fc_memory_stream;
void fc_memory_stream_init(fc_memory_stream *m, const uint8_t *p, size_t n);

/* What a stream held is kept in memory up to this many bytes, and beyond in a temporary file. */
#define FC_HOLD_IN_MEMORY (64u << 20)

/* A stream's whole content, as an image that reads like a file. */
typedef struct fc_held {
    fc_image img;
    uint8_t *mem;  /* the bytes, when held in memory */
    void *map;     /* the mapping of the temporary file, when spooled */
    int fd;        /* the temporary file (unlinked), or -1 */
} fc_held;

/* Reads S to its end into *H: in memory while it is at most FC_HOLD_IN_MEMORY bytes; beyond
 * that, or when SIZE_HINT (the size a header declares, 0 if none) says so, in an unlinked
 * temporary file in $TMPDIR (else /tmp), runs of zeros left as holes, then mapped. Memory is
 * allocated as bytes arrive, never as SIZE_HINT claims. Returns FC_OK; FC_ERR_LIMIT past
 * LIMIT bytes; FC_ERR_IO when the stream or the temporary file failed, FC_ERR_NOMEM, with
 * the reason in WHY either way. On failure *H needs no fc_held_free. */
fc_status fc_hold(fc_stream *s, uint64_t size_hint, uint64_t limit, fc_held *h, char *why, size_t why_size);
/* As fc_hold, for bytes of no known format that will only be searched for what
 * fc_embedded_search finds (FIRST: fc_embedded_first_candidate). Held in a temporary file,
 * they are written only from the first place FIRST finds on (less the look-back the search
 * needs, FC_PTX_HEADER_BEFORE): what lies before reads as zeros, a hole that costs no disk.
 * So a large member holding nothing to find is read through without being kept anywhere. */
fc_status fc_hold_data(fc_stream *s, uint64_t size_hint, uint64_t limit, size_t (*first)(const uint8_t *p, size_t n),
                       fc_held *h, char *why, size_t why_size);
void fc_held_free(fc_held *h);

#endif

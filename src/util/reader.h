/* reader.h - reading the headers of an image without mapping its pages.
 *
 * Decoding a container needs its 16-byte header and each entry's header, a few hundred
 * bytes every tens of kilobytes. Read through a mapping, each one costs a page fault that
 * also maps the pages around it (fault-around) and counts them in the resident set; read
 * with pread into one small buffer, it costs a system call and nothing stays resident.
 * Images in memory (a caller's buffer, a package member) are read in place.
 */
#ifndef FC_READER_H
#define FC_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most one fc_reader_get can ask for: the largest entry header plus a container's. */
#define FC_READER_MIN_CAP ((64u << 10) + 64u)
/* What a refill reads by default: a container header and its first entry headers. */
#define FC_READER_SMALL_READ 1024u
/* Offsets are the object's: [lo, hi) may be read, and offset lo lies at MEM, or at file
 * position FILE_POS of FD. */
typedef struct fc_reader {
    const uint8_t *mem;    /* the byte at offset lo, for an image in memory; else NULL */
    int fd;
    uint64_t file_pos;
    uint64_t lo, hi;
    uint8_t *buf;          /* for a file: holds offsets [at, at + len) */
    size_t cap, len;
    uint64_t at;
    size_t read_size;      /* the least a refill reads (fc_reader_read_size) */
    size_t backed;         /* bytes of buf prefaulted, once large refills were asked for */
    int error;             /* errno of the first failed read, 0 if none */
} fc_reader;



/* A reader of memory: offset LO is MEM[0], and offsets up to HI may be read. */
void fc_reader_memory(fc_reader *r, const uint8_t *mem, uint64_t lo, uint64_t hi);
/* A reader of file FD, offset LO at position FILE_POS, with a buffer of CAP bytes (at least
 * FC_READER_MIN_CAP, or the region's size when smaller). False when out of memory. */
bool fc_reader_file(fc_reader *r, int fd, uint64_t file_pos, uint64_t lo, uint64_t hi, size_t cap);
void fc_reader_free(fc_reader *r);

/* The bytes from offset OFF: returns a pointer and sets *GOT to how many follow it, at least
 * min(WANT, hi - OFF) unless a read failed (r->error) or OFF >= hi (NULL, *GOT 0). WANT above
 * the buffer's capacity is cut to it. The pointer is valid until the next call. */
const uint8_t *fc_reader_get(fc_reader *r, uint64_t off, size_t want, size_t *got);

/* Sets the least a refill reads: scanning data reads large blocks, decoding headers small
 * ones. Clipped to the buffer's capacity. */
void fc_reader_read_size(fc_reader *r, size_t n);

#endif

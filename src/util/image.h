/* image.h - an input's bytes (image.c): a mapped file or a caller's buffer, readers over them,
 * and dropping the pages a scan has read. */
#ifndef FC_IMAGE_H
#define FC_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader.h"

/* An input's bytes: a mapping of a whole file (or a caller's buffer), and the file
 * descriptor when there is one, so that bulk scans can pread into a small buffer instead of
 * faulting the mapping in (which would count every page against the resident set). */
typedef struct fc_image {
    const uint8_t *data;
    size_t size;
    int fd;              /* -1 for memory images */
    bool own_mapping;    /* data is our mmap: pages behind the work may be released */
} fc_image;

/* Drops the pages of [off, off + len) from the resident set when the image is our own
 * mapping (the page cache keeps them; a later read faults them back). */
void fc_image_release(const fc_image *img, uint64_t off, uint64_t len);

/* A reader of offsets [LO, HI) of the object that starts at image position BASE: pread
 * into a buffer of CAP bytes for a mapped file, in place for memory. False when out of
 * memory (the reader then needs no fc_reader_free, though it may have one). */
bool fc_image_reader(const fc_image *img, uint64_t base, uint64_t lo, uint64_t hi, size_t cap, fc_reader *r);

/* Up to N bytes at image position POS (within the image): in place for memory, else read by
 * pread into the caller's BUF (N bytes), which a helper thread keeps on its stack and reuses
 * (a buffer allocated and faulted in for each read contends with other threads for the
 * process's memory map). *GOT: how many are there, fewer than N only where the file ends
 * first or a read fails. */
const uint8_t *fc_image_bytes(const fc_image *img, uint64_t pos, size_t n, uint8_t *buf, size_t *got);

#endif

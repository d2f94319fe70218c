/* prefault.h - asking the kernel to back a fresh buffer with pages in one call.
 *
 * A buffer about to be written whole (a block read by pread, an array reserved to its final
 * size) otherwise takes a page fault per 4 KiB on first write. On the development VM a page
 * written the first time costs 12 us (bench/floor); MADV_POPULATE_WRITE takes the same pages
 * in one system call. With it and the arrays sized once, cuBLASLt's summary took 291 faults
 * instead of 830 at -j 1, and 43.0 ms of CPU instead of 47.0 at -j 2 (docs/performance.md).
 */
#ifndef FC_PREFAULT_H
#define FC_PREFAULT_H

#include <stddef.h>

/* Buffers smaller than this are left to fault: a call costs more than a few faults. */
#define FC_PREFAULT_MIN (16u << 10)

/* Backs the whole pages inside [P, P + N) with memory, when N >= FC_PREFAULT_MIN. Only a
 * hint: contents are unchanged, and nothing happens where the kernel cannot (before Linux
 * 5.14, or on other systems). */
void fc_prefault(void *p, size_t n);
/* Backs the pages [P, P + N) touches, those at the ends of BUF (SIZE bytes, which holds it)
 * only where whole inside it: for a buffer written a part at a time, by several threads, each
 * part's pages taken in one call (a page two parts share is backed twice, harmlessly). */
void fc_prefault_part(void *buf, size_t size, void *p, size_t n);

#endif

/* prefault.h - asking the kernel to back a fresh buffer with pages in one call.
 *
 * A buffer about to be written whole (a block read by pread, an array reserved to its final
 * size) otherwise takes a page fault per 4 KiB on first write. On the development VM a fault
 * costs 12 us (bench/floor: "page written the first time"), a third of the CPU time of
 * cuBLASLt's summary; MADV_POPULATE_WRITE takes the same pages in one system call.
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

#endif

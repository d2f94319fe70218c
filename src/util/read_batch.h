/* read_batch.h - many small reads of one file in one system call, through io_uring.
 *
 * Decoding .nv_fatbin reads a kilobyte at each container's start: 2,782 in cuBLASLt 13, each
 * a pread of 1.5 to 2 us on the development VM, where a ring takes 64 at a time at 0.3 to
 * 0.6 us each. Setting a ring up costs about 110 us, so a thread keeps its ring once made,
 * until it ends or calls fc_read_batch_thread_end. Where io_uring is missing (not built in,
 * an old kernel, a seccomp filter) nothing is read, and the caller reads as it would have. */
#ifndef FC_READ_BATCH_H
#define FC_READ_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FC_READ_BATCH_MAX 64u /* reads in one submission */

/* Reads LEN[i] bytes at position POS[i] of FD into BUFS[i] for i < N (<= FC_READ_BATCH_MAX):
 * GOT[i] gets the bytes read (fewer at the end of the file) or a negative errno. FD must be
 * a regular file's (a read from a pipe could wait for ever). False when no ring can be used
 * here: nothing was read. */
bool fc_read_batch(int fd, const uint64_t *pos, const uint32_t *len, size_t n, uint8_t *const *bufs, int32_t *got);

/* Whether a batch can be read on this thread (a ring is here or can be made). */
bool fc_read_batch_usable(void);

/* Frees the calling thread's ring, if it has one (helper threads' rings go when they end). */
void fc_read_batch_thread_end(void);

#endif

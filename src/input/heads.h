/* heads.h - the first bytes of many files of one folder at once, through io_uring.
 *
 * A tree's survey (survey.c) reads the head of every file, on every thread. Opened and closed
 * with system calls, every file takes the process's descriptor table's lock twice, and at
 * 4 to 16 threads that table is all the threads wait on: on the H200, open, pread and close
 * of site-packages' 68,849 heads took 57-87 ms on 4 to 16 threads against 17-21 ms on 16
 * processes. io_uring opens into a table of the ring's own ("direct" descriptors), a batch
 * of files per system call: 32-37 ms on 16 threads. Where io_uring is missing (not built in,
 * an old kernel, a seccomp filter) the caller reads the heads itself. */
#ifndef FC_HEADS_H
#define FC_HEADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "walk.h"

#define FC_HEADS_BATCH 32 /* files read in one submission */

typedef struct fc_heads fc_heads;

/* A reader for one thread; NULL when io_uring cannot be used here. */
fc_heads *fc_heads_new(void);
/* Reads the first FC_HEAD_SIZE bytes of the N (<= FC_HEADS_BATCH) files NAMES of folder DIRFD
 * into BUFS: GOT[i] gets the bytes read, or a negative errno when the file could not be
 * opened or read. False when the ring failed: the caller reads them itself, and the reader
 * is not used again. */
bool fc_heads_read(fc_heads *h, int dirfd, const char *const *names, size_t n, uint8_t (*bufs)[FC_HEAD_SIZE],
                   ssize_t *got);
/* Accepts NULL. */
void fc_heads_free(fc_heads *h);

#endif

/* pread_full.h - a positioned read that goes on until it has all it asked for. */
#ifndef FC_PREAD_FULL_H
#define FC_PREAD_FULL_H

#include <stddef.h>
#include <stdint.h>

/* Reads N bytes of FD at offset OFF into BUF, again after a signal and after a short read;
 * returns how many it read: fewer than N where the file ends first (*ERR 0) or a read fails
 * (*ERR its errno). ERR may be NULL. */
size_t fc_pread_full(int fd, void *buf, size_t n, uint64_t off, int *err);

#endif

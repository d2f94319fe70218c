/* pipe_io.h - what the child processes that ask the driver use (pipe_io.c): whole reads and
 * writes on a pipe, and standard streams kept apart from ours. */
#ifndef FC_PIPE_IO_H
#define FC_PIPE_IO_H

#include <stdbool.h>
#include <stddef.h>

/* Reads or writes exactly N bytes on a pipe; false on end of file or an error. */
bool fc_read_all(int fd, void *buf, size_t n);
bool fc_write_all(int fd, const void *buf, size_t n);

/* In a child that loads the driver's libraries: their writes to standard output would land
 * in ours (a --json document) and their reads of standard input would take ours, so both
 * become /dev/null; standard error stays. KEEP, a descriptor the child needs, is moved
 * above 2 first if it sits at 0..2; returns where it is now. */
int fc_child_stdio(int keep);

#endif

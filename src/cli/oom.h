/* oom.h - allocations that failed while a report was being built or printed.
 *
 * The renderers and their helpers print to a FILE and return nothing: one that cannot allocate
 * what a line needs (a sentence's memory stream, an escaped name, a count's table) leaves the
 * line out or short. Each such place notes it here, and the front end fails the run for it:
 * the command says "fatcheck: out of memory" and exits 4 (main.c). (The Python package, which
 * shares the JSON code, does not check this record yet: not done.) Before, such a report could
 * lack a verdict line, a cubin listing or say
 * "driver (null)", and exit 0 (found with malloc failing at each call: oom_cli_test.py). */
#ifndef FC_OOM_H
#define FC_OOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* An allocation failed: what is being printed may lack something. Safe on any thread. */
void oom_note(void);
/* How many were noted in this process: a front end compares it before and after its run (it
 * never goes down, so that runs at once in one process never clear each other's). */
unsigned long oom_count(void);

/* A stream into memory, as open_memstream's: what is written to it is in *BUF (NUL-ended,
 * *LEN bytes) once memstream_close has closed it. NULL, noted, when out of memory. Not
 * open_memstream itself: when its buffer cannot grow, glibc's string streams drop what was
 * written without setting the stream's error flag, and the closing text was short with nothing
 * to tell it by. */
FILE *memstream_open(char **buf, size_t *len);
/* Closes S (memstream_open): true when everything written to it is in *BUF; else *BUF is
 * NULL and the failure noted. */
bool memstream_close(FILE *s, char **buf);
/* asprintf's string, or NULL with the failure noted. */
char *str_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif

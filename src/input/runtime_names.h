/* runtime_names.h - the names of driver functions a static CUDA runtime keeps, by which it is
 * dated (ELF: elf_needs.c; Windows: pe_runtime.c). */
#ifndef FC_RUNTIME_NAMES_H
#define FC_RUNTIME_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* NAME as a whole string of a string table, "\0NAME\0", into OUT (64 bytes); its length. */
size_t fc_whole_string(char out[64], const char *name);
/* Whether P[0, N) holds NAME (under 62 bytes) as a whole string. */
bool fc_holds_whole_string(const uint8_t *p, size_t n, const char *name);

/* The newest CUDA release (13000, 12000, 11000) among the driver functions that only a static
 * runtime of that release or later resolves, named as whole strings in P[0, N); 0 if none. */
int fc_runtime_names_newest(const uint8_t *p, size_t n);

/* The oldest of those names: every runtime that names any names it. */
const char *fc_runtime_names_oldest(void);

#endif

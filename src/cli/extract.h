/* extract.h - --extract DIR. */
#ifndef FC_EXTRACT_H
#define FC_EXTRACT_H

#include <stdio.h>

#include "cli.h"

/* Names written in this run, so that no image takes another's name. */
typedef struct name_set {
    char **slots;
    size_t n, cap;
} name_set;

typedef struct extractor {
    const char *dir;
    int dirfd;
    bool force;
    uint64_t limit;          /* largest image written */
    FILE *err;
    unsigned n_elf, n_ptx, n_other; /* numbering within the current input */
    size_t written, skipped, renamed;
    size_t name_max;         /* the longest file name DIR takes */
    unsigned temporaries;    /* temporary names made, for the next one */
    name_set taken;
} extractor;

/* Creates DIR if it does not exist. Returns -1 (having said why on ERR) on failure. */
int extractor_open(extractor *x, const char *dir, bool force, uint64_t limit, FILE *err);
/* Says on ERR what was written, then closes DIR and frees the extractor's memory. */
void extractor_close(extractor *x);
/* Numbering restarts with each input named on the command line, as with cuobjdump. */
void extractor_begin_input(extractor *x);
/* Writes OBJ's images; returns how many could not be written, and sets *BAD_INPUT when an
 * image could not be decompressed (a damaged input, not an output problem). KERNELS_READ, the
 * judgement with --kernels (or NULL), tells the images reported unreadable there already. */
int extract_object(extractor *x, const fc_object *obj, const fc_judgement *kernels_read, int *bad_input);

#endif

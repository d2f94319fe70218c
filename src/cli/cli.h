/* cli.h - what the fatcheck command's files share: output modes and the renderers. */
#ifndef FC_CLI_H
#define FC_CLI_H

#include <stdio.h>

#include "fatcheck.h"

/* Exit codes (documented in --help, README.md and docs/cli.md). */
enum {
    EXIT_OK = 0,          /* every input was read and decoded */
    EXIT_LOAD_RISK = 1,   /* reserved for the matcher: a target GPU cannot load some code */
    EXIT_USAGE = 2,       /* bad command line */
    EXIT_INPUT = 3,       /* some input could not be read or decoded (the rest was reported) */
    EXIT_INTERNAL = 4,    /* out of memory, or the output could not be written */
};

typedef enum output_mode {
    OUT_SUMMARY,   /* default: a few lines per file */
    OUT_ENTRIES,   /* -l: a line per entry */
    OUT_JSON,      /* --json */
    OUT_CUOBJDUMP, /* --list-elf / --list-ptx */
} output_mode;

typedef struct renderer renderer;

/* Every renderer gets the objects in scan order, then finish. Each input named on the
 * command line is announced with begin_input before its objects. */
struct renderer {
    void (*begin_input)(renderer *r, const char *path);
    void (*object)(renderer *r, const fc_object *obj);
    void (*error)(renderer *r, const fc_error *err);
    void (*finish)(renderer *r);
    FILE *out;
    FILE *err;
    void *state;
};

renderer *render_summary_new(FILE *out, FILE *err);
renderer *render_entries_new(FILE *out, FILE *err);
renderer *render_json_new(FILE *out, FILE *err);
renderer *render_cuobjdump_new(FILE *out, FILE *err, int list_elf, int list_ptx);
void render_free(renderer *r);

/* Formatting helpers (format.c). */
const char *fmt_count(unsigned long long n, char *buf, size_t size); /* 12,345 */
void json_string(FILE *out, const char *s);                          /* "..." or null */
/* The cuobjdump-style stem of a path: its last component without the last extension. */
void path_stem(const char *path, char *buf, size_t size);

#endif

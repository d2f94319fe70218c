/* tally.h - what a run's objects and errors amount to, and so its exit status: for every
 * front end (the command's exit code, the Python package's exit_status). */
#ifndef FC_TALLY_H
#define FC_TALLY_H

#include <stdbool.h>
#include <stddef.h>

#include "fatcheck.h"

typedef struct tally {
    size_t input_errors;    /* inputs, members or images that could not be read or decoded */
    size_t load_failures;   /* files with a verdict of none (with --strict: or partial) */
    size_t arch_mismatches; /* files that do not hold what --arch-list builds */
    size_t unseen;          /* with --strict: files with parts not seen or judged (exit 3) */
    bool internal;          /* out of memory, or output that could not be written */
} tally;

/* fc_options.on_skip for a config (cli.h) as CTX: counts what directory walks pass over unread,
 * for the closing note and the JSON document. */
void tally_skip(void *ctx, fc_skip_kind kind, const char *path);
/* At the run's end: what walks passed over that --strict fails (skipped_fails, cli.h). */
struct config;
void tally_skipped(tally *t, const struct config *cfg);
/* Counts an object's fc_problem bits (fc_judgement_problems). */
void tally_object(tally *t, unsigned problems);
/* The exit status (cli.h): internal, then no targets when they are required (NO_TARGETS), then
 * unreadable input (with --strict, or not fully seen), then load failures, then arch-list mismatches. */
int tally_exit_status(const tally *t, bool no_targets);

#endif

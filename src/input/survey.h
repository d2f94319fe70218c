/* survey.h - a first look at a whole tree on every thread, before the walk (walk.c).
 *
 * The walk goes in name order on one thread, so that objects and messages come in an order
 * that does not depend on timing. Most of its time went to files with nothing to say: a
 * site-packages of 68,849 files holds 44 with CUDA code, and the other .so files cost a scan
 * each. The survey lists the folders and reads the files on all threads first; the walk then
 * takes each folder's listing from it and passes over the files it found to have nothing to
 * say. What the survey did not reach (past its memory budget, symlinks, folders it could not
 * open) the walk lists and reads itself, as it always did. */
#ifndef FC_SURVEY_H
#define FC_SURVEY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "input.h"

/* What is known of a folder's entry before the walk reaches it. */
typedef enum fc_seen {
    FC_SEEN_NOT,     /* nothing: the walk looks at it itself */
    FC_SEEN_NOTHING, /* a regular file whose head shows nothing to read */
    FC_SEEN_QUIET,   /* a regular file read whole that gave no object, error or skip (KEPT: its stat) */
    FC_SEEN_KEPT,    /* a regular file read whole: its stat and what it said are KEPT */
    FC_SEEN_LISTED,  /* a folder opened as the walk opens it, and listed */
} fc_seen;

/* What a file read whole said, in order, kept for the walk to tell (fc_survey_tell). */
typedef struct fc_kept fc_kept;
/* A folder's listing, as the survey made it. */
typedef struct fc_listing fc_listing;

/* An entry of a folder, as readdir gave it, and what the survey saw of it. */
typedef struct fc_dir_entry {
    char *name;
    unsigned char type; /* d_type: DT_UNKNOWN where the file system does not say */
    unsigned char seen; /* fc_seen */
    fc_kept *kept;      /* FC_SEEN_QUIET, FC_SEEN_KEPT */
    fc_listing *listing; /* FC_SEEN_LISTED */
} fc_dir_entry;

/* Orders entries by name (strcmp), as qsort and bsearch take it: the walk's name order. */
int fc_dir_entry_cmp(const void *a, const void *b);

typedef struct fc_survey fc_survey;

/* Surveys the tree under ROOTFD (a folder named PATH; closed here) on SC's threads, down to
 * SC->opts->max_depth as the walk counts it. NULL when there is one thread, or when out of
 * memory: the walk then does without. */
fc_survey *fc_survey_run(fc_scan_ctx *sc, int rootfd, const char *path);
/* Whether E's file (FC_SEEN_QUIET or FC_SEEN_KEPT) is still the one the survey read, by what
 * the walk finds under its name now (NOW: its lstat): the same inode, size, modification and
 * change times. A file replaced, rewritten or cut since is read again. */
bool fc_survey_still(const fc_dir_entry *e, const struct stat *now);
/* Whether what E's file said was said under the name PATH: a folder reached through a symlink
 * (-L) has other names, which the walk reads under their own. */
bool fc_survey_kept_as(const fc_dir_entry *e, const char *path);
/* Hands SC's callbacks what E's file (FC_SEEN_KEPT) said when the survey read it, in the order
 * it was said, as if it were read now, and then closes the file. Returns what the first
 * callback to stop returned, else 0. Once per entry. */
int fc_survey_tell(fc_scan_ctx *sc, const fc_dir_entry *e);
/* The listing of the folder that NOW (its stat, taken by the walk) describes, sorted by name,
 * when the survey made one and the folder has not changed since (the same modification and
 * change times: a file added, removed or renamed in it changes them). */
bool fc_survey_listing(const fc_survey *s, const struct stat *now, const char *path, const fc_dir_entry **entries,
                       size_t *n);
/* When the survey ends, every folder it listed and every file it read is looked up again
 * under its name, on all threads: what is unchanged then (the same inode, and times, and a
 * file's size) is fresh, and the walk takes it without a system call of its own. What
 * changed, or could not be looked up, the walk looks at itself, through the calls above. */
/* Whether folder E (FC_SEEN_LISTED) has a fresh listing: then *ENTRIES and *N get it and *ST
 * the folder's stat. */
bool fc_survey_fresh_listing(const fc_dir_entry *e, const char *path, const struct stat **st,
                             const fc_dir_entry **entries, size_t *n);
/* File E's stat when the survey read it (FC_SEEN_QUIET or FC_SEEN_KEPT) and it is fresh;
 * else NULL. */
const struct stat *fc_survey_fresh_file(const fc_dir_entry *e, const char *path);
/* Accepts NULL. */
void fc_survey_free(fc_survey *s);

#endif

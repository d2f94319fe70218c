/* walk.h - directory trees. */
#ifndef FC_WALK_H
#define FC_WALK_H

#include <sys/stat.h>
#include <sys/types.h>

#include "input.h"

/* Scans every regular file under directory PATH, in name order, each file and directory once
 * however many links lead to it. Symlinks to files are read; symlinks to directories are
 * followed only with opts->follow_symlinks (PATH itself always is). An image layout in it is
 * one image, and the rest of its folder files like any; LAYOUT_READ: PATH is one, read
 * already, whose blobs/ is left out. */
int fc_walk(fc_scan_ctx *sc, const char *path, bool layout_read);
/* Opens, maps and scans one regular file (scan.c). */
int fc_scan_file(fc_scan_ctx *sc, const char *path);
/* The same for NAME in directory DIRFD (or AT_FDCWD); PATH names it in objects and messages. */
int fc_scan_file_at(fc_scan_ctx *sc, int dirfd, const char *name, const char *path);

/* The deepest folder nesting a walk follows: OPTS->max_depth, and never more than
 * FC_WALK_DEPTH_MAX, past which the walk's recursion (about 1.2 KiB a level) would outgrow a
 * thread's stack (review 5, G3: 7,000 levels crashed on an 8 MiB stack). Deeper folders are
 * said, as any past max_depth are. */
#define FC_WALK_DEPTH_MAX 2048u
static inline unsigned fc_walk_max_depth(const fc_options *opts)
{
    return opts->max_depth < FC_WALK_DEPTH_MAX ? opts->max_depth : FC_WALK_DEPTH_MAX;
}

/* Writes DIR and NAME joined by one '/' to OUT (room for strlen(DIR) + strlen(NAME) + 2) and
 * returns OUT: the one way a walk names what it finds. */
char *fc_path_join_to(char *out, const char *dir, const char *name);

/* Files found in a directory are told apart by their first FC_HEAD_SIZE bytes (scan.c), and
 * by NAME (the file's name or path; NULL when none is known) where the head cannot tell: a
 * PyInstaller archive kept beside its program ("app.pkg") starts with its first entry's
 * bytes and is told by its end. */
#define FC_HEAD_SIZE 4096
typedef enum fc_head { FC_HEAD_NOTHING, FC_HEAD_PACKAGE, FC_HEAD_READ } fc_head;
fc_head fc_head_decide(const char *name, const uint8_t *head, ssize_t n);
/* fc_head_decide, with the file open on FD for a script's end: a shell or Python script whose
 * head shows nothing but whose last bytes are a zip's end record is a self-extracting zip,
 * which Python runs (python3 install.sh) and unzip extracts: a package (review of 2026-12-06,
 * rt13 F2: one with a preamble of more than a #! line was passed over in walks, exit 0). */
fc_head fc_head_decide_fd(const char *name, const uint8_t *head, ssize_t n, int fd);
/* Whether NAME in DIRFD, opened and its head read, shows nothing to read: false when it
 * cannot be opened or read (said when it is opened in turn). Safe on any thread. */
bool fc_head_shows_nothing(int dirfd, const char *name);

#endif

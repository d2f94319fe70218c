/* walk.h - directory trees. */
#ifndef FC_WALK_H
#define FC_WALK_H

#include <sys/stat.h>

#include "internal.h"

/* Scans every regular file under directory PATH, in name order, each file and directory once
 * however many links lead to it. Symlinks to files are read; symlinks to directories are
 * followed only with opts->follow_symlinks (PATH itself always is). */
int fc_walk(fc_scan_ctx *sc, const char *path);
/* Opens, maps and scans one regular file (scan.c). */
int fc_scan_file(fc_scan_ctx *sc, const char *path);
/* The same for NAME in directory DIRFD (or AT_FDCWD); PATH names it in objects and messages. */
int fc_scan_file_at(fc_scan_ctx *sc, int dirfd, const char *name, const char *path);

#endif

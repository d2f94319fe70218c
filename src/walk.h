/* walk.h - directory trees. */
#ifndef FC_WALK_H
#define FC_WALK_H

#include <sys/stat.h>

#include "internal.h"

/* Scans every regular file under directory PATH (whose stat is ST), in name order, each
 * file and directory once however many links lead to it. */
int fc_walk(fc_scan_ctx *sc, const char *path, const struct stat *st);
/* Opens, maps and scans one regular file (scan.c). */
int fc_scan_file(fc_scan_ctx *sc, const char *path);

#endif

/* progress.h - progress on standard error while scanning, only at a terminal. */
#ifndef FC_PROGRESS_H
#define FC_PROGRESS_H

#include <stdbool.h>

void progress_enable(bool on);
/* An fc_options.on_file callback. */
void progress_file(void *ctx, const char *name);
/* Erases the progress line, if shown; call before writing anything else. */
void progress_clear(void);

#endif

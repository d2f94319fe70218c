/* progress.c - a one-line progress report on standard error, for long scans at a terminal:
 * redrawn at most ten times a second, and erased before anything else is written. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "escape.h"
#include "progress.h"

static struct {
    bool on;
    bool visible;
    unsigned long files;
    double last;
} state;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void progress_enable(bool on)
{
    state.on = on;
}

void progress_clear(void)
{
    if (state.visible) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        state.visible = false;
    }
}

void progress_file(void *ctx, const char *name)
{
    (void)ctx;
    state.files++;
    if (!state.on)
        return;
    double t = now();
    if (t - state.last < 0.1)
        return;
    state.last = t;
    /* Keep within 80 columns: the end of a long path says most (cut at a character). */
    name = escaped(name);
    size_t len = strlen(name);
    const char *tail = len > 56 ? name + len - 56 : name;
    while ((*tail & 0xc0) == 0x80)
        tail++;
    fprintf(stderr, "\r\033[Kfatcheck: %lu files... %s%s", state.files, len > 56 ? "..." : "", tail);
    fflush(stderr);
    state.visible = true;
}

/* progress.c - a one-line progress report on standard error, for long scans at a terminal:
 * redrawn at most ten times a second, never wider than the terminal, and erased before
 * anything else is written. */
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
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

/* The terminal's width; 80 when it does not say. Asked at each redraw: it may be resized. */
static size_t terminal_columns(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
        return ws.ws_col;
    return 80;
}

/* Columns S may take: a character outside ASCII is counted as two, which no character
 * exceeds, so that the line never wraps (a wrapped line would stay on screen). */
static size_t columns_of(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xc0) != 0x80)
            n += (unsigned char)*s < 0x80 ? 1 : 2;
    return n;
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
    /* One line short of the terminal's last column; the end of a long path says most. */
    char head[64];
    snprintf(head, sizeof head, "fatcheck: %lu files... ", state.files);
    size_t width = terminal_columns() - 1, used = strlen(head);
    size_t room = width > used + 8 ? width - used : 0;
    name = escaped(name);
    const char *tail = name;
    size_t cols = columns_of(tail);
    bool cut = cols > room;
    while (cut && *tail && cols > room - 3) {
        unsigned char c = (unsigned char)*tail++;
        if ((c & 0xc0) != 0x80)
            cols -= c < 0x80 ? 1 : 2;
    }
    while ((*tail & 0xc0) == 0x80) /* at a character */
        tail++;
    fprintf(stderr, "\r\033[K%.*s%s%s", (int)(used < width ? used : width), head, cut && room ? "..." : "",
            room ? tail : "");
    fflush(stderr);
    state.visible = true;
}

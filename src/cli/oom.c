/* oom.c - allocations that failed while a report was built (oom.h). */
#include "oom.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static atomic_ulong noted;

void oom_note(void)
{
    atomic_fetch_add(&noted, 1);
}

unsigned long oom_count(void)
{
    return atomic_load(&noted);
}

/* The stream's buffer, handed to *buf and *len when it closes. */
typedef struct memstream {
    char **buf;
    size_t *len;
    char *p;
    size_t n, cap;
    bool failed; /* a write did not fit: the stream's error flag is set too (glibc's cookie
                    streams set it on a short write), and closing it fails */
} memstream;

static ssize_t memstream_write(void *cookie, const char *data, size_t size)
{
    memstream *m = cookie;
    if (m->failed)
        return -1;
    if (size >= m->cap - m->n) {
        size_t cap = m->cap;
        while (cap && size >= cap - m->n)
            cap = cap <= ((size_t)-1) / 2 ? cap * 2 : 0;
        char *p = cap ? realloc(m->p, cap) : NULL;
        if (!p) {
            m->failed = true;
            return -1;
        }
        m->p = p;
        m->cap = cap;
    }
    memcpy(m->p + m->n, data, size);
    m->n += size;
    m->p[m->n] = '\0';
    return (ssize_t)size;
}

static int memstream_finish(void *cookie)
{
    memstream *m = cookie;
    int rc = m->failed ? -1 : 0;
    if (m->failed) {
        free(m->p);
        m->p = NULL;
        m->n = 0;
    }
    *m->buf = m->p;
    *m->len = m->n;
    free(m);
    return rc;
}

FILE *memstream_open(char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    memstream *m = malloc(sizeof *m);
    char *p = malloc(128);
    FILE *s = NULL;
    if (m && p) {
        *p = '\0';
        *m = (memstream){buf, len, p, 0, 128, false};
        s = fopencookie(m, "w", (cookie_io_functions_t){.write = memstream_write, .close = memstream_finish});
    }
    if (!s) {
        free(m);
        free(p);
        oom_note();
    }
    return s;
}

bool memstream_close(FILE *s, char **buf)
{
    bool ok = !ferror(s);
    ok &= fclose(s) == 0;
    ok &= *buf != NULL;
    if (!ok) {
        free(*buf);
        *buf = NULL;
        oom_note();
    }
    return ok;
}

char *str_printf(const char *fmt, ...)
{
    char *s = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0) {
        oom_note();
        return NULL;
    }
    return s;
}

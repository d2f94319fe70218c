/* json_writer.c - JSON text into a buffer, written out in blocks (see json_writer.h). */
#include <stdarg.h>
#include <stdlib.h>

#include "json_writer.h"

void jw_flush(jw *w)
{
    if (w->n)
        fwrite(w->buf, 1, w->n, w->out);
    w->n = 0;
}

void jw_write(jw *w, const char *s, size_t len)
{
    if (len > w->cap - w->n) {
        jw_flush(w);
        if (len > w->cap) {
            fwrite(s, 1, len, w->out);
            return;
        }
    }
    memcpy(w->buf + w->n, s, len);
    w->n += len;
}

void jw_printf(jw *w, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        jw_write(w, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big)
        return;
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    jw_write(w, big, (size_t)n);
    free(big);
}

void jw_u64(jw *w, uint64_t v)
{
    char digits[24];
    size_t n = sizeof digits;
    do
        digits[--n] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    jw_write(w, digits + n, sizeof digits - n);
}

void jw_hex(jw *w, uint64_t v)
{
    char digits[16];
    size_t n = sizeof digits;
    do
        digits[--n] = "0123456789abcdef"[v & 15];
    while ((v >>= 4) != 0);
    jw_write(w, digits + n, sizeof digits - n);
}

/* Length of the valid UTF-8 sequence at S, or 0. */
static size_t utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    size_t n = (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (!n || (n == 2 && s[0] < 0xc2))
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

void jw_string(jw *w, const char *s)
{
    if (!s) {
        jw_write(w, "null", 4);
        return;
    }
    jw_putc(w, '"');
    const unsigned char *p = (const unsigned char *)s, *run = p;
    /* Runs of characters that need no escaping are copied at once: kernel names are long,
     * and --kernels --json writes millions of bytes of them. */
    while (*p) {
        unsigned char c = *p;
        size_t n = c >= 0x20 && c != '"' && c != '\\' && c != 0x7f ? utf8_len(p) : 0;
        if (n) {
            p += n;
            continue;
        }
        jw_write(w, (const char *)run, (size_t)(p - run));
        if (c == '"' || c == '\\') {
            jw_putc(w, '\\');
            jw_putc(w, (char)c);
        } else if (c == '\n') {
            jw_write(w, "\\n", 2);
        } else if (c == '\t') {
            jw_write(w, "\\t", 2);
        } else { /* control characters, and bytes that are not UTF-8 (file names can hold any) */
            jw_printf(w, "\\u%04x", c);
        }
        run = ++p;
    }
    jw_write(w, (const char *)run, (size_t)(p - run));
    jw_putc(w, '"');
}

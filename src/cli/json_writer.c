/* json_writer.c - JSON text into a buffer, written out in blocks (see json_writer.h). */
#include <stdarg.h>
#include <stdlib.h>

#include "escape.h"
#include "json_writer.h"
#include "oom.h"

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
    if (!big) { /* the document lacks it: the run fails (oom.h) */
        oom_note();
        return;
    }
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

bool jw_string(jw *w, const char *s)
{
    if (!s) {
        jw_write(w, "null", 4);
        return true;
    }
    bool valid = true;
    jw_putc(w, '"');
    const unsigned char *p = (const unsigned char *)s, *run = p;
    /* Runs of characters that need no escaping are copied at once: kernel names are long,
     * and --kernels --json writes millions of bytes of them. */
    while (*p) {
        unsigned char c = *p;
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            p++;
            continue;
        }
        uint32_t cp;
        size_t n = c >= 0x80 ? utf8_char(p, 4, &cp) : 0; /* a NUL ends a short sequence */
        if (n && !is_control(cp)) {
            p += n;
            continue;
        }
        jw_write(w, (const char *)run, (size_t)(p - run));
        if (n) { /* C1 and bidirectional controls as \u escapes too: a document shown raw stays inert */
            jw_printf(w, "\\u%04x", (unsigned)cp);
            run = p += n;
            continue;
        }
        if (c == '"' || c == '\\') {
            jw_putc(w, '\\');
            jw_putc(w, (char)c);
        } else if (c == '\n') {
            jw_write(w, "\\n", 2);
        } else if (c == '\t') {
            jw_write(w, "\\t", 2);
        } else if (c < 0x80) { /* control characters */
            jw_printf(w, "\\u%04x", c);
        } else { /* a byte that is not UTF-8 (names can hold any): U+FFFD, the exact bytes beside */
            jw_write(w, "\xef\xbf\xbd", 3);
            valid = false;
        }
        run = ++p;
    }
    jw_write(w, (const char *)run, (size_t)(p - run));
    jw_putc(w, '"');
    return valid;
}

void jw_base64(jw *w, const char *s)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const unsigned char *p = (const unsigned char *)s;
    size_t len = strlen(s);
    jw_putc(w, '"');
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < len ? (uint32_t)p[i + 1] << 8 : 0) | (i + 2 < len ? p[i + 2] : 0);
        char q[4] = {digits[v >> 18], digits[(v >> 12) & 63], i + 1 < len ? digits[(v >> 6) & 63] : '=',
                     i + 2 < len ? digits[v & 63] : '='};
        jw_write(w, q, 4);
    }
    jw_putc(w, '"');
}

void jw_bytes_field(jw *w, const char *name, const char *s)
{
    /* NAME ends in "KEY": */
    size_t len = strlen(name);
    if (len < 3 || name[len - 1] != ':' || name[len - 2] != '"')
        return;
    const char *end = name + len - 2, *key = end;
    while (key > name && key[-1] != '"')
        key--;
    if (key == name)
        return;
    jw_write(w, ",\"", 2);
    jw_write(w, key, (size_t)(end - key));
    jw_write(w, "_bytes\":", 8);
    jw_base64(w, s);
}

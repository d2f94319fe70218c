/* json_writer.h - JSON text into a buffer, written out in blocks.
 *
 * A --json document for a large library runs to megabytes in hundreds of thousands of small
 * pieces. Through stdio each piece is a call that takes the stream's lock (the scan's helper
 * threads make every call lock) and, for numbers, a trip through printf; here a piece is a
 * copy into the buffer. */
#ifndef FC_JSON_WRITER_H
#define FC_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct jw {
    FILE *out;
    char *buf;
    size_t cap, n;
} jw;

/* A writer into OUT through BUF[0..cap). */
static inline jw jw_make(FILE *out, char *buf, size_t cap)
{
    return (jw){out, buf, cap, 0};
}

void jw_flush(jw *w);
void jw_write(jw *w, const char *s, size_t len);
void jw_printf(jw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* V in decimal, and in lower-case hexadecimal without a prefix. */
void jw_u64(jw *w, uint64_t v);
void jw_hex(jw *w, uint64_t v);
/* S as a JSON string, or null. Bytes that are not UTF-8 are written as U+FFFD, so that the
 * document is always UTF-8; returns false when there were any. */
bool jw_string(jw *w, const char *s);
/* S's bytes in base64 (RFC 4648, with padding), as a JSON string. */
void jw_base64(jw *w, const char *s);
/* After a field NAME (ending in "KEY":) whose string S is not UTF-8: ,"KEY_bytes":BASE64. */
void jw_bytes_field(jw *w, const char *name, const char *s);

static inline void jw_puts(jw *w, const char *s)
{
    jw_write(w, s, strlen(s));
}

/* NAME (a member name with its quotes and colon, and any comma before it) then a value. */
static inline void jw_field_u64(jw *w, const char *name, uint64_t v)
{
    jw_puts(w, name);
    jw_u64(w, v);
}

/* Strings that are not UTF-8 get a KEY_bytes sibling with their exact bytes (docs/json.md). */
static inline void jw_field_string(jw *w, const char *name, const char *s)
{
    jw_puts(w, name);
    if (!jw_string(w, s))
        jw_bytes_field(w, name, s);
}

static inline void jw_putc(jw *w, char c)
{
    if (w->n == w->cap)
        jw_flush(w);
    w->buf[w->n++] = c;
}

#endif

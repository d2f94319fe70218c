/* format.c - small formatting helpers: grouped numbers, JSON strings, file stems. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

const char *fmt_count(unsigned long long n, char *buf, size_t size)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%llu", n);
    size_t k = 0;
    for (int i = 0; i < len && k + 2 < size; i++) {
        if (i && (len - i) % 3 == 0)
            buf[k++] = ',';
        buf[k++] = digits[i];
    }
    buf[k] = '\0';
    return buf;
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

void json_field_u64(FILE *out, const char *name, uint64_t v)
{
    char digits[24];
    size_t n = sizeof digits;
    do
        digits[--n] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    fputs(name, out);
    fwrite(digits + n, 1, sizeof digits - n, out);
}

void json_string(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    putc('"', out);
    const unsigned char *p = (const unsigned char *)s, *run = p;
    /* Runs of characters that need no escaping are written at once: kernel names are
     * long, and --kernels --json writes millions of bytes of them. */
    while (*p) {
        unsigned char c = *p;
        size_t n = c >= 0x20 && c != '"' && c != '\\' && c != 0x7f ? utf8_len(p) : 0;
        if (n) {
            p += n;
            continue;
        }
        fwrite(run, 1, (size_t)(p - run), out);
        if (c == '"' || c == '\\') {
            putc('\\', out);
            putc(c, out);
        } else if (c == '\n') {
            fputs("\\n", out);
        } else if (c == '\t') {
            fputs("\\t", out);
        } else { /* control characters, and bytes that are not UTF-8 (file names can hold any) */
            fprintf(out, "\\u%04x", c);
        }
        run = ++p;
    }
    fwrite(run, 1, (size_t)(p - run), out);
    putc('"', out);
}

void path_stem(const char *path, char *buf, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(buf, size, "%s", base);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf)
        *dot = '\0';
}

/* Columns TEXT takes on a terminal: ANSI colour sequences take none. */
static size_t visible(const char *s, size_t n)
{
    size_t cols = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\033') {
            while (i < n && s[i] != 'm')
                i++;
            continue;
        }
        cols++;
    }
    return cols;
}

/* Prints one sentence (ending in a newline) wrapped at 80 columns, continuation lines
 * indented by four; a quoted message or a parenthesis is never split. */
void wrap_print(FILE *out, const char *s)
{
    size_t col = 0;
    bool first = true;
    while (*s == ' ') { /* the sentence's own indent */
        fputc(' ', out);
        s++;
        col++;
    }
    while (*s && *s != '\n') {
        const char *w = s;
        bool quoted = false;
        int depth = 0;
        while (*s && *s != '\n' && (quoted || depth > 0 || *s != ' ')) {
            if (*s == '"')
                quoted = !quoted;
            else if (*s == '(' && !quoted)
                depth++;
            else if (*s == ')' && !quoted && depth > 0)
                depth--;
            s++;
        }
        size_t len = (size_t)(s - w), cols = visible(w, len);
        if (!first && col + 1 + cols > 80 && col > 4) {
            fputs("\n    ", out);
            col = 4;
        } else if (!first) {
            fputc(' ', out);
            col++;
        }
        fwrite(w, 1, len, out);
        col += cols;
        first = false;
        while (*s == ' ')
            s++;
    }
    fputc('\n', out);
}


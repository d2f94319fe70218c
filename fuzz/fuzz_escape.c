/* fuzz_escape.c - the CLI's escaping (src/cli/escape.c) and JSON strings (json_writer.c) on
 * arbitrary names: no crash, and each output checked against the scheme. Text is UTF-8 with
 * no control character and gives back the exact bytes (quoted names, shell words); a JSON
 * string is UTF-8, reads back as the input with U+FFFD for bytes that are not UTF-8, and its
 * _bytes sibling decodes to the input. A broken promise aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "json_writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)              \
    do {                      \
        if (!(c))             \
            __builtin_trap(); \
    } while (0)

/* S is UTF-8 without a control character (escape.c's list). */
static void check_clean(const char *s, size_t len, bool allow_newline_tab)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = utf8_char(p + i, len - i, &cp);
        CHECK(n);
        bool control = cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
                       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
        CHECK(!control || (allow_newline_tab && (cp == '\n' || cp == '\t')));
        i += n;
    }
}

static int octal(char c)
{
    return c >= '0' && c <= '7' ? c - '0' : -1;
}

/* C escapes of S[0..len) undone into OUT; returns its length, or -1 on a malformed escape. */
static long unescape_c(const char *s, size_t len, char *out)
{
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] != '\\') {
            out[k++] = s[i];
            continue;
        }
        if (++i == len)
            return -1;
        const char *letters = "abtnvfr", *at = strchr(letters, s[i]);
        if (s[i] == '"' || s[i] == '\\') {
            out[k++] = s[i];
        } else if (at && *at) {
            out[k++] = (char)(7 + (at - letters));
        } else if (i + 2 < len && octal(s[i]) >= 0 && octal(s[i + 1]) >= 0 && octal(s[i + 2]) >= 0) {
            out[k++] = (char)(octal(s[i]) << 6 | octal(s[i + 1]) << 3 | octal(s[i + 2]));
            i += 2;
        } else {
            return -1;
        }
    }
    return (long)k;
}

/* A shell word as escape.c writes it: '...' and $'...' runs, '\'' for a quote. */
static long unshell(const char *s, size_t len, char *out)
{
    size_t k = 0, i = 0;
    while (i < len) {
        if (s[i] == '\'') {
            size_t j = i + 1;
            while (j < len && s[j] != '\'')
                j++;
            if (j == len)
                return -1;
            memcpy(out + k, s + i + 1, j - i - 1);
            k += j - i - 1;
            i = j + 1;
        } else if (s[i] == '$' && i + 1 < len && s[i + 1] == '\'') {
            size_t j = i + 2;
            while (j < len && s[j] != '\'')
                j++;
            if (j == len)
                return -1;
            long n = unescape_c(s + i + 2, j - i - 2, out + k);
            if (n < 0)
                return -1;
            k += (size_t)n;
            i = j + 1;
        } else if (s[i] == '\\' && i + 1 < len && s[i + 1] == '\'') {
            out[k++] = '\'';
            i += 2;
        } else {
            return -1;
        }
    }
    return (long)k;
}

/* A JSON string's escapes undone (the ones jw_string writes: \" \\ \n \t \uXXXX, no
 * surrogate pairs: only control characters are escaped). */
static long unjson(const char *s, size_t len, char *out)
{
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] != '\\') {
            out[k++] = s[i];
            continue;
        }
        if (++i == len)
            return -1;
        if (s[i] == '"' || s[i] == '\\')
            out[k++] = s[i];
        else if (s[i] == 'n')
            out[k++] = '\n';
        else if (s[i] == 't')
            out[k++] = '\t';
        else if (s[i] == 'u' && i + 4 < len) {
            long cp = strtol((char[]){s[i + 1], s[i + 2], s[i + 3], s[i + 4], 0}, NULL, 16);
            if (cp < 0x80) {
                out[k++] = (char)cp;
            } else if (cp < 0x800) {
                out[k++] = (char)(0xc0 | cp >> 6);
                out[k++] = (char)(0x80 | (cp & 0x3f));
            } else {
                out[k++] = (char)(0xe0 | cp >> 12);
                out[k++] = (char)(0x80 | ((cp >> 6) & 0x3f));
                out[k++] = (char)(0x80 | (cp & 0x3f));
            }
            i += 4;
        } else
            return -1;
    }
    return (long)k;
}

static long unbase64(const char *s, size_t len, char *out)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (len % 4)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < len; i += 4) {
        uint32_t v = 0;
        int pad = 0;
        for (int j = 0; j < 4; j++) {
            const char *d = s[i + j] == '=' ? NULL : strchr(digits, s[i + j]);
            if (!d && s[i + j] != '=')
                return -1;
            pad += !d;
            v = v << 6 | (d ? (uint32_t)(d - digits) : 0);
        }
        out[k++] = (char)(v >> 16);
        if (pad < 2)
            out[k++] = (char)(v >> 8);
        if (pad < 1)
            out[k++] = (char)v;
    }
    return (long)k;
}

/* The input as jw_string should show it: bytes that are not UTF-8 as U+FFFD. */
static size_t replaced(const char *s, size_t len, char *out)
{
    size_t k = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = utf8_char((const unsigned char *)s + i, len - i, &cp);
        if (!n) {
            memcpy(out + k, "\xef\xbf\xbd", 3);
            k += 3;
            i++;
        } else {
            memcpy(out + k, s + i, n);
            k += n;
            i += n;
        }
    }
    return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Names hold no NUL: the input up to the first one. */
    size_t len = strnlen((const char *)data, size);
    char *s = malloc(len + 1), *back = malloc(4 * len + 16);
    CHECK(s && back);
    memcpy(s, data, len);
    s[len] = '\0';

    /* A quoted name: clean, and its escapes give back the bytes. */
    const char *q = quoted(s);
    size_t qlen = strlen(q);
    check_clean(q, qlen, false);
    if (escape_plain(s, len, ESCAPE_NAME)) {
        CHECK(q == s);
    } else {
        CHECK(qlen >= 2 && q[0] == '"' && q[qlen - 1] == '"');
        long n = unescape_c(q + 1, qlen - 2, back);
        CHECK(n == (long)len && memcmp(back, s, len) == 0);
    }
    /* Text: clean; escape_into agrees with the const char * form and counts like snprintf. */
    const char *t = escaped(s);
    size_t tlen = strlen(t);
    check_clean(t, tlen, false);
    CHECK(escape_into(NULL, 0, s, len, ESCAPE_TEXT) == tlen);
    char small[7];
    size_t want = escape_into(small, sizeof small, s, len, ESCAPE_TEXT);
    CHECK(want == tlen && strncmp(small, t, sizeof small - 1) == 0 && strlen(small) == (tlen < 6 ? tlen : 6));
    /* Cut text: within the limit, clean, a prefix of the whole. */
    for (size_t max = 3; max < 64; max += 13) {
        const char *c = escaped_cut(s, max);
        size_t clen = strlen(c);
        check_clean(c, clen, false);
        t = escaped(s); /* the ring may have reused its slot */
        tlen = strlen(t);
        if (tlen <= max) {
            CHECK(strcmp(c, t) == 0);
        } else {
            CHECK(clen <= max && clen >= 3 && strcmp(c + clen - 3, "...") == 0 && strncmp(c, t, clen - 3) == 0);
        }
    }
    /* A shell word: clean, and the shell would read back the bytes. */
    const char *w = shell_quoted(s);
    size_t wlen = strlen(w);
    check_clean(w, wlen, false);
    CHECK(unshell(w, wlen, back) == (long)len && memcmp(back, s, len) == 0);

    /* JSON: UTF-8 always, the input with U+FFFD, and the exact bytes beside. */
    char *doc = NULL, buf[64];
    size_t doc_len = 0;
    FILE *f = open_memstream(&doc, &doc_len);
    CHECK(f);
    jw jwr = jw_make(f, buf, sizeof buf);
    jw_field_string(&jwr, "{\"k\":", s);
    jw_putc(&jwr, '}');
    jw_flush(&jwr);
    fclose(f);
    check_clean(doc, doc_len, false);
    CHECK(strncmp(doc, "{\"k\":\"", 6) == 0);
    const char *end = doc + 6; /* the closing quote: the first one not escaped */
    while (*end != '"') {
        CHECK(*end);
        end += *end == '\\' ? 2 : 1;
    }
    char *expect = malloc(3 * len + 1);
    CHECK(expect);
    size_t elen = replaced(s, len, expect);
    long n = unjson(doc + 6, (size_t)(end - doc - 6), back);
    CHECK(n == (long)elen && memcmp(back, expect, elen) == 0);
    bool valid = elen == len && memcmp(expect, s, len) == 0;
    if (valid) {
        CHECK(strcmp(end, "\"}") == 0);
    } else {
        CHECK(strncmp(end, "\",\"k_bytes\":\"", 13) == 0);
        const char *b64 = end + 13, *b64_end = strchr(b64, '"');
        CHECK(b64_end && strcmp(b64_end, "\"}") == 0);
        CHECK(unbase64(b64, (size_t)(b64_end - b64), back) == (long)len && memcmp(back, s, len) == 0);
    }
    free(expect);
    free(doc);
    free(s);
    free(back);
    return 0;
}

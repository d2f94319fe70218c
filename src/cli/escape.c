/* escape.c - untrusted names and text made safe to print (the scheme: escape.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "oom.h"

size_t utf8_char(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned char c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t len;
    uint32_t v, min;
    if (c >= 0xc2 && c <= 0xdf)
        len = 2, v = c & 0x1f, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef)
        len = 3, v = c & 0x0f, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4)
        len = 4, v = c & 0x07, min = 0x10000;
    else
        return 0;
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3f);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return len;
}

bool is_control(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
           cp == 0x2028 || cp == 0x2029 || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* One byte as a C escape: \n and its kind by letter, anything else in three octal digits. */
static size_t byte_escape(unsigned char c, char out[4])
{
    static const char letters[] = "abtnvfr"; /* 7 to 13 */
    out[0] = '\\';
    if (c == '"' || c == '\\') {
        out[1] = (char)c;
        return 2;
    }
    if (c >= 7 && c <= 13) {
        out[1] = letters[c - 7];
        return 2;
    }
    out[1] = (char)('0' + (c >> 6));
    out[2] = (char)('0' + ((c >> 3) & 7));
    out[3] = (char)('0' + (c & 7));
    return 4;
}

/* The next unit of S (N > 0 bytes): how many bytes it takes, and whether they need escapes. */
static size_t next_unit(const unsigned char *s, size_t n, escape_mode mode, bool *escape)
{
    uint32_t cp;
    size_t len = utf8_char(s, n, &cp);
    if (!len) {
        *escape = true;
        return 1; /* a byte that starts no valid sequence: escaped alone, the next one looked at afresh */
    }
    *escape = is_control(cp) || (mode == ESCAPE_NAME && (cp == '"' || cp == '\\'));
    return len;
}

bool escape_plain(const char *s, size_t len, escape_mode mode)
{
    if (mode == ESCAPE_SHELL)
        return false;
    /* A name that starts with "::" would start a line as a GitHub Actions workflow command
     * ("::warning::", "::add-mask::"), which a runner acts on: quoted (rt12 F7) */
    if (mode == ESCAPE_NAME && len >= 2 && s[0] == ':' && s[1] == ':')
        return false;
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        unsigned char c = p[i];
        /* the common case, printable ASCII, without decoding */
        if (c >= 0x20 && c < 0x7f && (mode != ESCAPE_NAME || (c != '"' && c != '\\'))) {
            i++;
            continue;
        }
        bool esc;
        i += next_unit(p + i, len - i, mode, &esc);
        if (esc)
            return false;
    }
    return true;
}

/* Appends LEN bytes of S to DST (CAP bytes) at *K, counting what does not fit. */
static void put(char *dst, size_t cap, size_t *k, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++, (*k)++)
        if (*k + 1 < cap)
            dst[*k] = s[i];
}

size_t escape_into(char *dst, size_t cap, const char *s, size_t len, escape_mode mode)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t k = 0;
    bool plain = escape_plain(s, len, mode);
    if (mode == ESCAPE_NAME && !plain)
        put(dst, cap, &k, "\"", 1);
    if (mode == ESCAPE_SHELL)
        put(dst, cap, &k, "'", 1);
    bool in_dollar = false; /* ESCAPE_SHELL: inside a $'...' run */
    for (size_t i = 0; i < len;) {
        bool esc;
        size_t n = next_unit(p + i, len - i, mode, &esc);
        if (mode == ESCAPE_SHELL) {
            if (esc != in_dollar) /* close one kind of quotes, open the other */
                put(dst, cap, &k, esc ? "'$'" : "''", esc ? 3 : 2);
            in_dollar = esc;
            if (!esc && p[i] == '\'') {
                put(dst, cap, &k, "'\\''", 4);
                i++;
                continue;
            }
        }
        if (!esc) {
            put(dst, cap, &k, (const char *)p + i, n);
        } else {
            for (size_t b = 0; b < n; b++) {
                char e[4];
                put(dst, cap, &k, e, byte_escape(p[i + b], e));
            }
        }
        i += n;
    }
    if (mode == ESCAPE_SHELL)
        put(dst, cap, &k, "'", 1);
    if (mode == ESCAPE_NAME && !plain)
        put(dst, cap, &k, "\"", 1);
    if (cap)
        dst[k < cap ? k : cap - 1] = '\0';
    return k;
}

/* The ring of buffers the const char * functions return. */
static struct {
    char *p;
    size_t cap;
} slots[ESCAPE_SLOTS];
static unsigned next_slot;

static char *slot(size_t need)
{
    unsigned i = next_slot++ % ESCAPE_SLOTS;
    if (slots[i].cap < need) {
        char *p = realloc(slots[i].p, need);
        if (!p)
            return NULL;
        slots[i].p = p;
        slots[i].cap = need;
    }
    return slots[i].p;
}

static const char *escape_with(const char *s, escape_mode mode)
{
    if (!s) /* no caller passes none; were one to, no "(null)" reads as a name */
        return "(none)";
    size_t len = strlen(s);
    if (escape_plain(s, len, mode))
        return s;
    size_t need = escape_into(NULL, 0, s, len, mode) + 1;
    char *buf = slot(need);
    if (!buf) { /* said, and the run fails for it (oom.h) */
        oom_note();
        return "(name not shown: out of memory)";
    }
    escape_into(buf, need, s, len, mode);
    return buf;
}

const char *quoted(const char *name)
{
    return escape_with(name, ESCAPE_NAME);
}

const char *escaped(const char *text)
{
    return escape_with(text, ESCAPE_TEXT);
}

const char *shell_quoted(const char *word)
{
    return escape_with(word, ESCAPE_SHELL);
}

const char *escaped_cut(const char *text, size_t max)
{
    const char *e = escaped(text);
    size_t elen = strlen(e);
    if (elen <= max)
        return e;
    /* Whole units of the original while they and "..." fit. */
    const unsigned char *p = (const unsigned char *)text;
    size_t len = strlen(text), i = 0, used = 0, budget = max > 3 ? max - 3 : 0;
    while (i < len) {
        bool esc;
        size_t n = next_unit(p + i, len - i, ESCAPE_TEXT, &esc);
        size_t w = 0;
        for (size_t b = 0; b < n; b++) {
            char tmp[4];
            w += esc ? byte_escape(p[i + b], tmp) : 1;
        }
        if (used + w > budget)
            break;
        used += w;
        i += n;
    }
    char *buf = slot(used + 4);
    if (!buf) {
        oom_note();
        return "(name not shown: out of memory)";
    }
    escape_into(buf, used + 1, text, i, ESCAPE_TEXT);
    memcpy(buf + used, "...", 4);
    return buf;
}

/* Length of the label MSG starts with ("LABEL: reason"), or 0. */
static size_t label_length(const char *msg, const char *path, const char *member)
{
    if (!path)
        return 0;
    size_t p = strlen(path);
    if (strncmp(msg, path, p) != 0)
        return 0;
    if (member) {
        size_t m = strlen(member);
        if ((msg[p] == '!' || msg[p] == '(') && strncmp(msg + p + 1, member, m) == 0) {
            size_t end = p + 1 + m + (msg[p] == '(');
            if ((msg[p] == '!' || msg[p + 1 + m] == ')') && msg[end] == ':')
                return end;
        }
    }
    return msg[p] == ':' ? p : 0;
}

void print_message_as(FILE *out, const char *kind, const char *msg, const char *path, const char *member,
                      const char *tail)
{
    size_t n = msg ? label_length(msg, path, member) : 0;
    char *label = n ? malloc(n + 1) : NULL;
    if (n && !label)
        oom_note(); /* the message is said whole, its label unquoted: the run fails (oom.h) */
    if (!label) {
        fprintf(out, "fatcheck: %s%s%s\n", kind, escaped(msg), tail);
        return;
    }
    memcpy(label, msg, n);
    label[n] = '\0';
    fprintf(out, "fatcheck: %s%s%s%s\n", kind, quoted(label), escaped(msg + n), tail);
    free(label);
}

void print_message(FILE *out, const char *msg, const char *path, const char *member)
{
    print_message_as(out, "", msg, path, member, "");
}

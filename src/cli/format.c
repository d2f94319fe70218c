/* format.c - small formatting helpers: grouped numbers, JSON strings, file stems. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json_writer.h"

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

const char *skipped_sentence(const config *cfg, fc_skip_kind kind, char *buf, size_t size)
{
    char n[32];
    size_t count = kind == FC_SKIP_SYMLINKED_DIRECTORY ? cfg->skipped_links : cfg->skipped_packages;
    if (!count)
        return NULL;
    if (kind == FC_SKIP_SYMLINKED_DIRECTORY)
        snprintf(buf, size, "%s symlinked director%s not followed (-L follows)", fmt_count(count, n, sizeof n),
                 count == 1 ? "y" : "ies");
    else
        snprintf(buf, size, "%s package%s not opened (--packages opens them)%s", fmt_count(count, n, sizeof n),
                 count == 1 ? "" : "s", skipped_fails(cfg, kind) ? "; --strict fails it" : "");
    return buf;
}

const char *cc_text(unsigned cc, char *buf, size_t size)
{
    snprintf(buf, size, "%u.%u", cc / 10, cc % 10);
    return buf;
}

void json_string(FILE *out, const char *s)
{
    char buf[256];
    jw w = jw_make(out, buf, sizeof buf);
    jw_string(&w, s);
    jw_flush(&w);
}

void json_field(FILE *out, const char *name, const char *s)
{
    char buf[256];
    jw w = jw_make(out, buf, sizeof buf);
    jw_field_string(&w, name, s);
    jw_flush(&w);
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
    if (!s) { /* the sentence's memory stream ran out: the line is left out, and the run
                 fails for it (oom.h) */
        oom_note();
        return;
    }
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


void print_no_code(FILE *out, const fc_object *o)
{
    size_t n = o->sections_searched_in_part;
    if (o->appended_size) {
        char count[32];
        fprintf(out, "no CUDA code in the %s image, but %s bytes appended after it (at 0x%llx) were not read "
                     "%s\n",
                o->format == FC_FORMAT_PE ? "PE" : "ELF", fmt_count(o->appended_size, count, sizeof count),
                (unsigned long long)o->appended_offset,
                o->appended_zip ? "(a zip: --packages reads it)"
                                : "(an AppImage's or snap's squashfs? unpack it and check the folder)");
        return;
    }
    if (!n) {
        fputs("no CUDA code\n", out);
        return;
    }
    char count[32];
    /* The command never changes fc_options.embedded_probe_size from its 1 MiB. */
    fprintf(out, "no CUDA code in the parts searched (%s data section%s searched only in %s first MiB; "
                 "--embedded searches them whole)\n",
            fmt_count(n, count, sizeof count), n == 1 ? "" : "s", n == 1 ? "its" : "their");
}

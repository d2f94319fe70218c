/* ar_name.c - static archive member names, as the member's header writes them (ar_name.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ar_name.h"

/* Digits from P (at most N bytes), then only spaces: true with *VALUE. */
static bool decimal_field(const uint8_t *p, size_t n, uint64_t *value)
{
    size_t i = 0;
    uint64_t v = 0;
    for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
        if (v > (UINT64_MAX - 9) / 10)
            return false;
        v = v * 10 + (uint64_t)(p[i] - '0');
    }
    if (i == 0)
        return false;
    for (; i < n; i++)
        if (p[i] != ' ')
            return false;
    *value = v;
    return true;
}

/* Copies N bytes of S to OUT, up to a NUL, cut to fit. */
static void copy_name(char *out, size_t out_size, const uint8_t *s, size_t n)
{
    const uint8_t *nul = memchr(s, '\0', n);
    if (nul)
        n = (size_t)(nul - s);
    if (n >= out_size)
        n = out_size - 1;
    memcpy(out, s, n);
    out[n] = '\0';
}

static fc_ar_name_kind bad(char *why, size_t why_size, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static fc_ar_name_kind bad(char *why, size_t why_size, const char *field, const char *fmt, ...)
{
    char reason[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    snprintf(why, why_size, "the member name \"%s\" %s", field, reason);
    return FC_AR_NAME_BAD;
}

/* For a name that leads nowhere, the member is still named, by what its header says. */
static fc_ar_name_kind bad_named(char *out, size_t out_size, const char *field, fc_ar_name_kind kind)
{
    if (kind == FC_AR_NAME_BAD)
        copy_name(out, out_size, (const uint8_t *)field, strlen(field));
    return kind;
}

static fc_ar_name_kind member_name(const uint8_t *hdr, const uint8_t *data, uint64_t size, const uint8_t *names,
                                   uint64_t names_size, char *out, size_t out_size, uint64_t *skip, char *why,
                                   size_t why_size, char *field, size_t field_size);

fc_ar_name_kind fc_ar_member_name(const uint8_t *hdr, const uint8_t *data, uint64_t size, const uint8_t *names,
                                  uint64_t names_size, char *out, size_t out_size, uint64_t *skip, char *why,
                                  size_t why_size)
{
    char field[17];
    fc_ar_name_kind k = member_name(hdr, data, size, names, names_size, out, out_size, skip, why, why_size, field,
                                    sizeof field);
    return bad_named(out, out_size, field, k);
}

static fc_ar_name_kind member_name(const uint8_t *hdr, const uint8_t *data, uint64_t size, const uint8_t *names,
                                   uint64_t names_size, char *out, size_t out_size, uint64_t *skip, char *why,
                                   size_t why_size, char *field, size_t field_size)
{
    *skip = 0;
    out[0] = '\0';
    /* The name field as text, trimmed, for messages. */
    copy_name(field, field_size, hdr, 16);
    for (size_t n = strlen(field); n && field[n - 1] == ' ';)
        field[--n] = '\0';
    if (memcmp(hdr, "/               ", 16) == 0 || memcmp(hdr, "//              ", 16) == 0 ||
        memcmp(hdr, "/SYM64/         ", 16) == 0) {
        copy_name(out, out_size, (const uint8_t *)field, strlen(field));
        return FC_AR_NAME_TABLE;
    }
    uint64_t v;
    if (hdr[0] == '/') { /* GNU: an offset into the long-name table */
        if (!decimal_field(hdr + 1, 15, &v))
            return bad(why, why_size, field, "is neither a long-name reference (\"/\" and an offset) nor a name");
        if (!names)
            return bad(why, why_size, field, "refers to a long-name table (\"//\") the archive does not have before it");
        if (v >= names_size)
            return bad(why, why_size, field, "refers past the end of the long-name table (offset %llu of %llu bytes)",
                       (unsigned long long)v, (unsigned long long)names_size);
        /* Each name ends with "/\n" (GNU), "\n", or a NUL (Microsoft's .lib files). */
        const uint8_t *start = names + v, *end = start;
        while (end < names + names_size && *end != '\n' && *end != '\0')
            end++;
        if (end == names + names_size)
            return bad(why, why_size, field,
                       "refers to offset %llu of the long-name table, where no name ends before the table does "
                       "(%llu bytes)",
                       (unsigned long long)v, (unsigned long long)names_size);
        size_t n = (size_t)(end - start);
        if (n && start[n - 1] == '/')
            n--;
        if (!n)
            return bad(why, why_size, field, "refers to offset %llu of the long-name table, where there is no name",
                       (unsigned long long)v);
        copy_name(out, out_size, start, n);
        return FC_AR_NAME_LONG;
    }
    if (memcmp(hdr, "#1/", 3) == 0) { /* BSD: the name leads the member's data */
        if (!decimal_field(hdr + 3, 13, &v))
            return bad(why, why_size, field, "is not a BSD long name (\"#1/\" and a length)");
        if (v > size)
            return bad(why, why_size, field, "gives a name of %llu bytes to a member of %llu", (unsigned long long)v,
                       (unsigned long long)size);
        copy_name(out, out_size, data, (size_t)v);
        if (!out[0])
            return bad(why, why_size, field, "gives an empty name");
        *skip = v;
        return FC_AR_NAME_BSD;
    }
    /* In the header: up to a '/' (GNU, System V), or padded with spaces (BSD). */
    size_t n = 0;
    while (n < 16 && hdr[n] != '/')
        n++;
    if (n == 16)
        while (n && hdr[n - 1] == ' ')
            n--;
    copy_name(out, out_size, hdr, n);
    if (!out[0])
        return bad(why, why_size, field, "is empty");
    return FC_AR_NAME_PLAIN;
}

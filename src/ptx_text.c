/* ptx_text.c - standalone PTX files: the .version and .target directives at their top. */
#include <string.h>

#include "internal.h"

/* PTX must open with .version (comments and blank space aside); a file whose first
 * directive is not within this many bytes is not treated as PTX. */
#define PTX_HEADER_WINDOW 65536u

/* Skips blanks and comments; returns the position of the next token. */
static size_t skip_space(const uint8_t *s, size_t n, size_t i)
{
    while (i < n) {
        if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n') {
            i++;
        } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n')
                i++;
        } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
            i += 2;
            while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'))
                i++;
            i += 2;
        } else {
            break;
        }
    }
    return i < n ? i : n;
}

static bool starts(const uint8_t *s, size_t n, size_t i, const char *word)
{
    size_t k = strlen(word);
    return i + k <= n && memcmp(s + i, word, k) == 0;
}

static size_t parse_uint(const uint8_t *s, size_t n, size_t i, unsigned *out)
{
    unsigned v = 0;
    size_t start = i;
    while (i < n && s[i] >= '0' && s[i] <= '9' && i - start < 6)
        v = v * 10 + (unsigned)(s[i++] - '0');
    *out = v;
    return i - start;
}

bool fc_ptx_text_probe(const uint8_t *buf, size_t size)
{
    size_t n = size < PTX_HEADER_WINDOW ? size : PTX_HEADER_WINDOW;
    size_t i = skip_space(buf, n, 0);
    return starts(buf, n, i, ".version") && i + 8 < n && (buf[i + 8] == ' ' || buf[i + 8] == '\t');
}

fc_status fc_ptx_text_decode(fc_builder *b, const uint8_t *buf, size_t size)
{
    size_t n = size < PTX_HEADER_WINDOW ? size : PTX_HEADER_WINDOW;
    fc_entry e;
    memset(&e, 0, sizeof e);
    e.kind = FC_IMAGE_PTX;
    e.raw_kind = 1;
    e.payload_size = e.stored_size = e.uncompressed_size = size;
    size_t i = skip_space(buf, n, 0);
    if (!starts(buf, n, i, ".version"))
        return fc_builder_fail(b, FC_ERR_FORMAT, "no .version directive at the top of the PTX");
    i = skip_space(buf, n, i + 8);
    unsigned major = 0, minor = 0;
    size_t k = parse_uint(buf, n, i, &major);
    if (!k || i + k >= n || buf[i + k] != '.' || !parse_uint(buf, n, i + k + 1, &minor))
        return fc_builder_fail(b, FC_ERR_FORMAT, "malformed .version directive");
    e.version_major = (uint16_t)major;
    e.version_minor = (uint16_t)minor;
    /* .target follows .version, perhaps after other directives; it may list options
     * after the architecture (".target sm_89, debug"). */
    i += k;
    for (int directives = 0; directives < 16; directives++) {
        while (i < n && buf[i] != '\n')
            i++;
        i = skip_space(buf, n, i);
        if (i >= n || buf[i] != '.')
            break;
        if (!starts(buf, n, i, ".target"))
            continue;
        i = skip_space(buf, n, i + 7);
        size_t digits = starts(buf, n, i, "sm_") ? i + 3 : starts(buf, n, i, "compute_") ? i + 8 : n;
        unsigned arch = 0;
        size_t d = digits < n ? parse_uint(buf, n, digits, &arch) : 0;
        if (d) {
            size_t end = digits + d;
            e.arch = arch;
            if (end < n && buf[end] == 'a')
                e.variant = FC_VARIANT_ARCH_SPECIFIC;
            else if (end < n && buf[end] == 'f')
                e.variant = FC_VARIANT_FAMILY;
        }
        break;
    }
    if (!e.arch)
        return fc_builder_fail(b, FC_ERR_FORMAT, "no .target directive after .version");
    fc_status st = fc_builder_add_container(b, 0, FC_ORIGIN_PTX_FILE, NULL);
    if (st == FC_OK)
        st = fc_builder_add_entry(b, &e);
    fc_builder_set_container_size(b, size);
    return st;
}

/* ptx_text.c - PTX text: standalone PTX files, and PTX modules kept as text inside programs. */
#include <gelf.h>
#include <string.h>

#include "decode.h"
#include "reader.h"

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

/* Where a PTX file's text starts: after a UTF-8 byte order mark, which editors on Windows
 * write. It is no part of PTX (ptxas: "Unexpected non-ASCII character"), so the module keeps
 * it and the load is judged with it (link_state.c). */
static size_t after_bom(const uint8_t *buf, size_t size)
{
    return size >= 3 && buf[0] == 0xef && buf[1] == 0xbb && buf[2] == 0xbf ? 3 : 0;
}

/* Comments before .version are read to their end, however long (ptxas reads them too). */
bool fc_ptx_text_probe(const uint8_t *buf, size_t size)
{
    size_t i = skip_space(buf, size, after_bom(buf, size));
    return starts(buf, size, i, ".version") && i + 8 < size && (buf[i + 8] == ' ' || buf[i + 8] == '\t');
}

bool fc_ptx_text_undecided(const uint8_t *buf, size_t size)
{
    size_t from = after_bom(buf, size);
    if (size <= from)
        return false;
    /* Comments and space to the end, or cut on the '/' that may open one, or within
     * ".version" and the blank after it: only more of the file tells (review 8, B1: a walk
     * left such a file out unsaid, its head cut after the first '/' of a "//"). */
    size_t i = skip_space(buf, size, from), left = size - i;
    return left == 0 || (left == 1 && buf[i] == '/') || (left <= 8 && memcmp(buf + i, ".version", left) == 0);
}

/* What the directives at BUF[i..n) say, I at ".version": the PTX ISA version and the
 * target of E. NULL on success, or why the header is not one. */
static const char *parse_header(const uint8_t *buf, size_t n, size_t i, fc_entry *e)
{
    i = skip_space(buf, n, i + 8);
    unsigned major = 0, minor = 0;
    size_t k = parse_uint(buf, n, i, &major);
    if (!k || i + k >= n || buf[i + k] != '.' || !parse_uint(buf, n, i + k + 1, &minor))
        return "malformed .version directive";
    e->version_major = (uint16_t)major;
    e->version_minor = (uint16_t)minor;
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
            e->arch = arch;
            if (end < n && buf[end] == 'a')
                e->variant = FC_VARIANT_ARCH_SPECIFIC;
            else if (end < n && buf[end] == 'f')
                e->variant = FC_VARIANT_FAMILY;
        }
        break;
    }
    return e->arch ? NULL : "no .target directive after .version";
}

static void ptx_entry(fc_entry *e, uint64_t offset, uint64_t size)
{
    memset(e, 0, sizeof *e);
    e->kind = FC_IMAGE_PTX;
    e->raw_kind = 1;
    e->offset = e->payload_offset = offset;
    e->payload_size = e->stored_size = e->uncompressed_size = size;
}

fc_status fc_ptx_text_decode(fc_builder *b, const uint8_t *buf, size_t size)
{
    size_t n = size;
    fc_entry e;
    ptx_entry(&e, 0, size);
    size_t i = skip_space(buf, n, after_bom(buf, size));
    if (!starts(buf, n, i, ".version"))
        return fc_builder_fail(b, FC_ERR_FORMAT, "no .version directive at the top of the PTX");
    const char *why = parse_header(buf, n, i, &e);
    if (why)
        return fc_builder_fail(b, FC_ERR_FORMAT, "%s", why);
    fc_status st = fc_builder_add_container(b, 0, FC_ORIGIN_PTX_FILE, NULL);
    if (st == FC_OK)
        st = fc_builder_add_entry(b, &e);
    fc_builder_set_container_size(b, size);
    return st;
}

/* ---- PTX kept as text inside a program ------------------------------------------------
 *
 * Programs that load their own modules (cuModuleLoadData) often keep the PTX as a string:
 * Debian's mumax3, a Go program, holds 638 modules back to back in its .rodata, not
 * NUL-terminated. The embedded search notes where ".version" occurs in the data it reads
 * (embedded.c); here each place is checked to open a module: ".version" at the start of a
 * line, a .target in the directives after it, and at least one function. The module starts
 * at the comment lines before ".version" (compilers open PTX with "// Generated by ...")
 * and ends after the last closing brace of its last function, before the next module's
 * ".version" or the first byte that is not text. */

#define HEADER_BEFORE FC_PTX_HEADER_BEFORE  /* comment lines before .version looked at */
#define HEADER_AFTER 4096u   /* directives after it */
#define SCAN_STEP (64u << 10)

static bool is_text(uint8_t c)
{
    return (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t' || c == '\r';
}

/* Where the module whose ".version" line starts at P[at] begins: there, or earlier at the
 * first of the "//" comment lines just before it (blank lines among them). P[0] is the
 * lowest byte that may be looked at; FIRST says whether it is where the data starts (else it
 * may be inside a line). */
static size_t module_start(const uint8_t *p, size_t at, bool first)
{
    size_t s = at, start = at;
    while (s > 0 && p[s - 1] == '\n') {
        size_t line = s - 1; /* the line before: [line, s - 1) */
        while (line > 0 && p[line - 1] != '\n' && is_text(p[line - 1]))
            line--;
        if (line == 0 && !first)
            break; /* where that line starts is out of sight */
        size_t k = line;
        while (k < s - 1 && (p[k] == ' ' || p[k] == '\t' || p[k] == '\r'))
            k++;
        bool comment = k + 1 < s - 1 && p[k] == '/' && p[k + 1] == '/';
        if (k < s - 1 && !comment)
            break;
        s = line;
        if (comment)
            start = line;
        if (line == 0 || p[line - 1] != '\n')
            break; /* the text starts there */
    }
    return start;
}

/* True when [lo, hi) of R holds NEEDLE (N bytes). */
static bool range_holds(fc_reader *r, uint64_t lo, uint64_t hi, const char *needle, size_t n)
{
    for (uint64_t pos = lo; pos + n <= hi;) {
        size_t got;
        const uint8_t *p = fc_reader_get(r, pos, SCAN_STEP, &got);
        if (!p || got < n)
            return false;
        size_t len = hi - pos < got ? (size_t)(hi - pos) : got;
        if (memmem(p, len, needle, n))
            return true;
        pos += len - (n - 1); /* a needle cut by the window's end is met again */
        if (len <= n - 1)
            break;
    }
    return false;
}

uint64_t fc_ptx_text_module(fc_builder *b, fc_reader *r, uint64_t at, uint64_t limit, const char *section)
{
    uint64_t lo = at - r->lo > HEADER_BEFORE ? at - HEADER_BEFORE : r->lo;
    size_t got;
    const uint8_t *p = fc_reader_get(r, lo, (size_t)(at - lo) + HEADER_AFTER, &got);
    size_t i = (size_t)(at - lo);
    if (!p || got < i + 9 || memcmp(p + i, ".version", 8) != 0 || (p[i + 8] != ' ' && p[i + 8] != '\t'))
        return at;
    /* ".version" opens its line (after blanks), or follows bytes that are not text. */
    size_t k = i;
    while (k > 0 && (p[k - 1] == ' ' || p[k - 1] == '\t'))
        k--;
    if (k > 0 && p[k - 1] != '\n' && is_text(p[k - 1]))
        return at;
    if (k == 0 && lo != r->lo)
        return at; /* thousands of blanks before it: no PTX compiler writes that */
    fc_entry e;
    ptx_entry(&e, 0, 0);
    if (parse_header(p, got, i, &e))
        return at;
    uint64_t start = lo + module_start(p, k, lo == r->lo);
    /* The end: the first byte that is not text, the next line that starts with ".version",
     * or a line outside every brace that PTX would not start (its top level is directives,
     * comments, parameter lists and function bodies: ".", "/", "(", ")", "{", "}"); then back to just after the last
     * brace that closes a function. Text that follows the module (Go keeps strings back to
     * back: mumax3's next one is an HTML page) ends it so. */
    uint64_t pos = at + 8, close = 0;
    long depth = 0;
    bool head = false; /* at the start of a line, before its first character but blanks */
    while (pos < limit) {
        p = fc_reader_get(r, pos, SCAN_STEP, &got);
        if (!p || !got)
            break;
        size_t n = limit - pos < got ? (size_t)(limit - pos) : got, j = 0;
        for (; j < n; j++) {
            uint8_t c = p[j];
            if (!is_text(c))
                break;
            if (head && c != ' ' && c != '\t') {
                head = false;
                if (depth == 0 && !strchr("./{}()\r\n", c))
                    break;
                if (c == '.' && (j + 8 <= n ? memcmp(p + j, ".version", 8) == 0
                                            : range_holds(r, pos + j, pos + j + 8, ".version", 8)))
                    break;
            }
            if (c == '\n')
                head = true;
            if (c == '{')
                depth++;
            else if (c == '}' && depth > 0 && --depth == 0)
                close = pos + j + 1;
        }
        if (j < n)
            break;
        pos += n;
    }
    if (!close)
        return at;
    /* A newline after the closing brace belongs to the module. */
    if (close < limit && (p = fc_reader_get(r, close, 1, &got)) && got && *p == '\n')
        close++;
    if (!range_holds(r, start, close, ".entry", 6) && !range_holds(r, start, close, ".func", 5))
        return at;
    e.offset = e.payload_offset = start;
    e.payload_size = e.stored_size = e.uncompressed_size = close - start;
    if (fc_builder_add_container(b, start, FC_ORIGIN_PTX_TEXT, section) == FC_OK) {
        fc_builder_add_entry(b, &e);
        fc_builder_set_container_size(b, close - start);
    }
    return close;
}

bool fc_ptx_text_program(Elf *elf, Elf_Scn *dynamic)
{
    GElf_Shdr sh;
    Elf_Data *d = gelf_getshdr(dynamic, &sh) ? elf_getdata(dynamic, NULL) : NULL;
    if (!d || !sh.sh_entsize)
        return false;
    for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
        GElf_Dyn dyn;
        if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag == DT_NULL)
            break;
        const char *name = dyn.d_tag == DT_NEEDED ? elf_strptr(elf, sh.sh_link, dyn.d_un.d_val) : NULL;
        if (name && strncmp(name, "libcuda.so", 10) == 0)
            return true;
    }
    return false;
}

/* ptx_text.c - PTX text: standalone PTX files, and PTX modules kept as text inside programs. */
#include <gelf.h>
#include <string.h>

#include "decode.h"
#include "reader.h"

size_t fc_ptx_skip_trivia(const uint8_t *t, size_t i, size_t n)
{
    while (i < n) {
        if (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n') {
            i++;
        } else if (t[i] == '/' && i + 1 < n && t[i + 1] == '/') {
            while (i < n && t[i] != '\n')
                i++;
        } else if (t[i] == '/' && i + 1 < n && t[i + 1] == '*') {
            const uint8_t *close = NULL;
            for (size_t k = i + 2; k + 1 < n && !close; k++)
                if (t[k] == '*' && t[k + 1] == '/')
                    close = t + k + 2;
            i = close ? (size_t)(close - t) : n;
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

static bool is_ident(uint8_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$' || c == '%' || c == '.';
}

/* Whether the word at T[I..N) is W, ending there (not a longer word). */
static bool word_at(const uint8_t *t, size_t i, size_t n, const char *w)
{
    size_t len = strlen(w);
    return i <= n && n - i >= len && memcmp(t + i, w, len) == 0 && (n - i == len || !is_ident(t[i + len]));
}

/* Reads the unsigned number at T[*I..N), moving *I past it; false when there is none. */
static bool number_at(const uint8_t *t, size_t *i, size_t n, unsigned *v)
{
    size_t j = *i;
    unsigned x = 0;
    while (j < n && t[j] >= '0' && t[j] <= '9' && x < 100000)
        x = x * 10 + (unsigned)(t[j++] - '0');
    if (j == *i)
        return false;
    *i = j;
    *v = x;
    return true;
}

/* The architecture a word of .target names: "sm_90", "sm_90a", "sm_100f", "compute_80"
 * (ptxas 13.0 takes it); false for any other word ("debug", "texmode_independent"). */
static bool arch_word(const uint8_t *t, size_t j, size_t k, unsigned *arch, fc_variant *variant)
{
    size_t d = k - j > 3 && memcmp(t + j, "sm_", 3) == 0 ? j + 3 : k - j > 8 && memcmp(t + j, "compute_", 8) == 0 ? j + 8 : k;
    if (d == k || !number_at(t, &d, k, arch))
        return false;
    *variant = d == k ? FC_VARIANT_NONE : d + 1 == k && t[d] == 'a' ? FC_VARIANT_ARCH_SPECIFIC
             : d + 1 == k && t[d] == 'f'                           ? FC_VARIANT_FAMILY
                                                                   : (fc_variant)-1;
    return *variant != (fc_variant)-1;
}

/* The words of the .target statement from T[I] to the end of its line (names, commas,
 * comments): the first that names an architecture into H. Returns where they end. */
static size_t target_words(const uint8_t *t, size_t i, size_t n, fc_ptx_head *h)
{
    while (i < n && t[i] != '\n') {
        size_t j = i;
        while (j < n && (t[j] == ' ' || t[j] == '\t' || t[j] == ',' || t[j] == '\r'))
            j++;
        if (j + 1 < n && t[j] == '/' && (t[j + 1] == '*' || t[j + 1] == '/')) {
            if (t[j + 1] == '/')
                return j;
            i = fc_ptx_skip_trivia(t, j, n); /* a block comment (which may end past the line) */
            continue;
        }
        size_t k = j;
        while (k < n && is_ident(t[k]))
            k++;
        if (k == j)
            return j;
        unsigned arch;
        fc_variant v;
        if (!h->arch && arch_word(t, j, k, &arch, &v))
            h->arch = arch, h->variant = v;
        else if (k - j == 5 && memcmp(t + j, "debug", 5) == 0)
            h->debug = true;
        i = k;
    }
    return i;
}

void fc_ptx_head_read(const uint8_t *t, size_t n, fc_ptx_head *h)
{
    memset(h, 0, sizeof *h);
    size_t i = fc_ptx_skip_trivia(t, 0, n);
    if (!word_at(t, i, n, ".version"))
        return;
    i = fc_ptx_skip_trivia(t, i + 8, n);
    if (!number_at(t, &i, n, &h->isa_major) || i >= n || t[i] != '.' || (i++, !number_at(t, &i, n, &h->isa_minor)))
        return;
    h->version = true;
    /* .target: next, as ptxas requires, or after other statements, one a line. */
    for (int statement = 0; statement < 16; statement++) {
        i = fc_ptx_skip_trivia(t, i, n);
        if (word_at(t, i, n, ".target")) {
            h->target = true;
            h->target_next = statement == 0;
            i = fc_ptx_skip_trivia(t, target_words(t, i + 7, n, h), n);
            unsigned bits;
            if (word_at(t, i, n, ".address_size") && (i = fc_ptx_skip_trivia(t, i + 13, n), number_at(t, &i, n, &bits)))
                h->address_size = bits;
            return;
        }
        if (statement > 0 && (i >= n || t[i] != '.'))
            return;
        while (i < n && t[i] != '\n')
            i++;
    }
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
    size_t i = fc_ptx_skip_trivia(buf, after_bom(buf, size), size);
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
    size_t i = fc_ptx_skip_trivia(buf, from, size), left = size - i;
    return left == 0 || (left == 1 && buf[i] == '/') || (left <= 8 && memcmp(buf + i, ".version", left) == 0);
}

/* What the statements at BUF[i..n) say, I at ".version": the PTX ISA version and the
 * target of E. NULL on success, or why the head is not one. */
static const char *parse_header(const uint8_t *buf, size_t n, size_t i, fc_entry *e)
{
    fc_ptx_head h;
    fc_ptx_head_read(buf + i, n - i, &h);
    if (!h.version)
        return "malformed .version directive";
    e->version_major = (uint16_t)h.isa_major;
    e->version_minor = (uint16_t)h.isa_minor;
    e->arch = h.arch;
    e->variant = h.variant;
    return h.arch ? NULL : "no .target directive after .version";
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
    size_t i = fc_ptx_skip_trivia(buf, after_bom(buf, size), n);
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

/* oci_tar_go.c - a layer's tar headers read as Go's archive/tar reads them (oci_tar_go.h).
 *
 * A state machine fed the tar in pieces of any size: a header is gathered, then the bodies of
 * the headers that describe the next one ('x' PAX records, 'L'/'K' GNU long names) are
 * gathered too, and a file's data is only counted past. Each entry Go would return is queued
 * until the layer reader takes it.
 */
#include "oci_tar_go.h"

#include "grow.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 512u
/* Go's maxSpecialFileSize: a PAX or GNU long name body larger is ErrFieldTooLong. */
#define SPECIAL_MAX (1u << 20)

typedef enum state { HEAD, DATA, SPECIAL, SPARSE_EXT, SPARSE_MAP, ENDED, STOPPED } state;

/* A string Go would hold: bytes and a length (PAX values may not hold NUL, names are cut at
 * one, so a NUL-terminated copy says it whole). */
typedef struct str {
    char *s;
    size_t n;
    bool set; /* a record or long name gave it (an empty one too) */
} str;

typedef struct queued {
    fc_go_entry e;
    char *name, *link;
    int64_t *map;      /* a sparse file's fragments: offset, length pairs */
    size_t n_map, cap_map;
} queued;

struct fc_go_tar {
    state st;
    const char *why;   /* STOPPED: Go's error */
    uint8_t blk[BLOCK];
    size_t have;       /* bytes of blk gathered */
    uint64_t skip;     /* DATA: bytes of the current body and its padding left */
    uint64_t look;     /* DATA: of those, the ones to look through for headers (read_entry) */
    uint8_t look_blk[BLOCK];
    size_t look_have;

    /* SPECIAL: the body of an 'x', 'g', 'L' or 'K' header being gathered. */
    uint8_t type;
    char *body;
    size_t body_len, body_want;
    uint64_t body_pad;

    /* What the meta headers read so far say of the next entry (Go's next() locals). */
    bool pax;          /* an 'x' header was read: its records below */
    str path, linkpath, size, sp_major, sp_minor, sp_name, sp_size, sp_realsize;
    str sp_numblocks, sp_map; /* GNU.sparse.map: as given, or as Go joins the offset/numbytes pairs */
    str long_name, long_link;

    uint64_t pos;      /* bytes of the tar read */
    uint64_t start;    /* where the next entry's first header is (after the last one's data) */
    uint64_t end_at;   /* ENDED: where the block of zeros is */

    /* SPARSE_EXT, SPARSE_MAP: the sparse entry waiting for its old GNU extension blocks, or
     * for its GNU 1.0 map at the head of its data (gathered in body). */
    queued pending;
    uint64_t pending_data; /* its data, the map's blocks included */
    uint64_t map_newlines;

    uint64_t entries;  /* returned so far, 'g' headers not counted */
    /* What makes the next entry, or every later one, read otherwise by other readers (odd). */
    const char *odd_next, *odd_global;
    unsigned x_headers; /* 'x' headers since the last entry */
    size_t sparse_records; /* GNU.sparse.* records of the last 'x' or 'g' body parsed */
    const char *odd_unsaid; /* an odd read in a body or data, where no entry has carried it yet */
    queued *q;
    size_t head, n, cap;
    queued taken;      /* the last entry handed out: its strings live until the next */
};

/* ---- Go's parsers (strconv.go) ------------------------------------------------------------ */

typedef struct parser {
    bool err;
} parser;

/* strconv.ParseUint(s, 8, 64) on bytes.Trim(b, " \x00") cut at its first NUL. */
static int64_t parse_octal(parser *p, const uint8_t *b, size_t n)
{
    while (n && (b[0] == ' ' || b[0] == 0))
        b++, n--;
    while (n && (b[n - 1] == ' ' || b[n - 1] == 0))
        n--;
    if (!n)
        return 0;
    n = strnlen((const char *)b, n);
    if (!n) {
        p->err = true;
        return 0;
    }
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        if (b[i] < '0' || b[i] > '7' || (x >> 61)) {
            p->err = true;
            return 0;
        }
        x = x << 3 | (uint64_t)(b[i] - '0');
    }
    return (int64_t)x;
}

/* Base-256 (first bit set: two's complement, big-endian) or octal. */
static int64_t parse_numeric(parser *p, const uint8_t *b, size_t n)
{
    if (n && (b[0] & 0x80)) {
        uint8_t inv = (b[0] & 0x40) ? 0xff : 0;
        uint64_t x = 0;
        for (size_t i = 0; i < n; i++) {
            uint8_t c = b[i] ^ inv;
            if (i == 0)
                c &= 0x7f;
            if (x >> 56) {
                p->err = true;
                return 0;
            }
            x = x << 8 | c;
        }
        if (x >> 63) {
            p->err = true;
            return 0;
        }
        return inv ? (int64_t)~x : (int64_t)x;
    }
    return parse_octal(p, b, n);
}

/* strconv.ParseInt(s, 10, 64): an optional sign, then decimal digits, in range. */
static bool parse_decimal(const char *s, size_t n, int64_t *out)
{
    bool neg = false;
    if (n && (s[0] == '+' || s[0] == '-')) {
        neg = s[0] == '-';
        s++, n--;
    }
    if (!n)
        return false;
    uint64_t x = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        unsigned d = (unsigned)(s[i] - '0');
        if (x > (limit - d) / 10)
            return false;
        x = x * 10 + d;
    }
    *out = neg ? (int64_t)(0 - x) : (int64_t)x;
    return true;
}

/* ---- The block (format.go) ----------------------------------------------------------------- */

enum format { UNKNOWN, V7, USTAR, STAR, GNU };

static enum format block_format(const uint8_t *b)
{
    parser p = {false};
    int64_t value = parse_octal(&p, b + 148, 8);
    int64_t unsigned_sum = 0, signed_sum = 0;
    for (size_t i = 0; i < BLOCK; i++) {
        uint8_t c = (i >= 148 && i < 156) ? ' ' : b[i];
        unsigned_sum += c;
        signed_sum += (int8_t)c;
    }
    if (p.err || (value != unsigned_sum && value != signed_sum))
        return UNKNOWN;
    bool ustar_magic = memcmp(b + 257, "ustar\0", 6) == 0;
    if (ustar_magic && memcmp(b + 508, "tar\0", 4) == 0)
        return STAR;
    if (ustar_magic)
        return USTAR;
    if (memcmp(b + 257, "ustar ", 6) == 0 && memcmp(b + 263, " \0", 2) == 0)
        return GNU;
    return V7;
}

static bool all_zero(const uint8_t *b)
{
    for (size_t i = 0; i < BLOCK; i++)
        if (b[i])
            return false;
    return true;
}

static bool is_ascii(const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] >= 0x80)
            return false;
    return true;
}

static bool header_only(uint8_t type)
{
    return type >= '1' && type <= '6';
}

/* Whether node-tar takes the 512 bytes at B for a header: its checksum field, cut at a NUL and
 * trimmed, read as octal as far as it goes (parseInt), is the bytes' sum with the field as
 * spaces (rv35 F2: "%06o" then 'x', which Go refuses). */
static bool node_tar_header(const uint8_t *b)
{
    size_t i = 148, end = 160;
    for (size_t k = 148; k < 160; k++)
        if (!b[k]) {
            end = k;
            break;
        }
    while (i < end && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r' || b[i] == '\v' || b[i] == '\f'))
        i++;
    uint64_t want = 0;
    size_t digits = 0;
    for (; i < end && b[i] >= '0' && b[i] <= '7' && digits < 12; i++, digits++)
        want = want * 8 + (uint64_t)(b[i] - '0');
    if (!digits)
        return false;
    uint64_t sum = 8 * ' ';
    for (size_t k = 0; k < BLOCK; k++)
        if (k < 148 || k >= 156)
            sum += b[k];
    return sum == want;
}

/* Whether node-tar reads a string field of N bytes at B otherwise than Go: a NUL, then a line
 * terminator (JavaScript's: LF, CR, U+2028, U+2029), which it keeps (helper review rv37 F4: a
 * name field 'package/x.so', NUL, newline, then 'a/': a directory to node-tar, which read the
 * file's data as headers). */
static bool node_string_differs(const uint8_t *b, size_t n)
{
    const uint8_t *nul = memchr(b, 0, n);
    if (!nul)
        return false;
    for (size_t i = (size_t)(nul - b); i < n; i++)
        if (b[i] == '\n' || b[i] == '\r' || (i + 2 < n && b[i] == 0xe2 && b[i + 1] == 0x80 && (b[i + 2] == 0xa8 || b[i + 2] == 0xa9)))
            return true;
    return false;
}

/* Whether node-tar reads a string field of N bytes at B as set: it cuts from the first NUL to
 * the line's end (JavaScript's /\0.* /, whose '.' stops at a line terminator), so a field of
 * NULs then a newline holds the newline (fuzz-tar-readers.py: a file's link name so written,
 * empty to the others, made node-tar refuse its header). */
static bool node_string_set(const uint8_t *b, size_t n)
{
    /* (One that starts with NUL keeps what follows its first line end.) */
    return n && (b[0] || node_string_differs(b, n));
}

/* Whether Go's reading (any format) or node-tar's takes the 512 bytes at B for a header. */
static bool a_reader_s_header(const uint8_t *b)
{
    return block_format(b) != UNKNOWN || node_tar_header(b);
}

/* Whether node-tar reads the number field of N bytes at B without throwing (then it refuses the
 * header): base-256 only after 0x80 (positive) or 0xff (negative), and within JavaScript's safe
 * integers (fuzz-tar-readers.py: a gid field led by 0xa6, which Go and libarchive read). */
static bool node_number_ok(const uint8_t *b, size_t n)
{
    if (!(b[0] & 0x80))
        return true; /* parseInt: NaN at worst, no throw */
    if (b[0] != 0x80 && b[0] != 0xff)
        return false;
    uint64_t x = 0;
    for (size_t i = 1; i < n; i++) {
        uint8_t c = b[0] == 0xff ? (uint8_t)~b[i] : b[i];
        if (x >> 53)
            return false;
        x = x << 8 | c;
    }
    return b[0] == 0xff ? x + 1 <= (1ull << 53) - 1 : x <= (1ull << 53) - 1;
}

/* The number fields node-tar's header decodes (devices, and access and change times after a
 * short prefix, only in a POSIX ustar header), each read unless a PAX record gave it. */
static bool node_numbers_ok(const uint8_t *b)
{
    static const uint16_t at[][2] = {{100, 8}, {108, 8}, {116, 8}, {124, 12}, {136, 12}, {148, 12}};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
        if (!node_number_ok(b + at[i][0], at[i][1]))
            return false;
    if (memcmp(b + 257, "ustar\0" "00", 8) != 0)
        return true;
    if (!node_number_ok(b + 329, 8) || !node_number_ok(b + 337, 8))
        return false;
    return b[475] || (node_number_ok(b + 476, 12) && node_number_ok(b + 488, 12));
}

/* Whether node-tar refuses the header at B (parse.js): its checksum or a number field read
 * otherwise, no path (NAME_EMPTY: as node-tar takes it), a link with no link name or another
 * entry with one (the header's own field, as node-tar decodes it). It then passes over the
 * header block by block, and keeps the PAX records before it for the next one it takes. */
static bool node_refuses_header(const uint8_t *b, uint8_t type, bool name_empty)
{
    bool link = node_string_set(b + 157, 100);
    return !node_tar_header(b) || !node_numbers_ok(b) || name_empty || ((type == '1' || type == '2') ? !link : link);
}

/* ---- What other tar readers read otherwise ----------------------------------------------------
 * Headers Go and libarchive read alike that Python's tarfile, GNU tar or npm's node-tar read
 * otherwise (rv33, a review against them: each put a CUDA library where one of them unpacks it
 * and neither Go nor libarchive sees it). No writer of packages writes them. */
static const char ODD_TWO_PAX[] = "given two PAX headers, both of which Python's tarfile and npm's reader apply, where "
                                  "libarchive and Go apply the last";
static const char ODD_SPARSE_RECORDS[] = "given GNU sparse records that Python's tarfile reads otherwise than "
                                         "libarchive and Go";
static const char ODD_SPARSE[] = "a GNU sparse file whose map ends at another entry for Python's tarfile or GNU tar "
                                 "than for libarchive and Go";
static const char ODD_GLOBAL[] = "after a global PAX header that sets a path, link, size or sparse record, which "
                                 "Python's tarfile, GNU tar and npm's reader apply and libarchive and Go do not";
static const char ODD_META_BODY[] = "after a PAX or GNU long-name header whose body holds a tar header: npm's "
                                    "reader, refusing such a header (an empty name, a signed checksum ...), reads "
                                    "its body as the next members";
static const char ODD_META_CODE[] = "after a PAX or GNU long-name header whose body holds an ELF, a fat binary or "
                                    "PTX, which a reader that takes its headers otherwise (npm's) may unpack as a file";
static const char ODD_PAX_LINES[] = "given a PAX record whose value holds a line that npm's reader takes for a record "
                                    "of its own";
static const char ODD_REFUSED_DATA[] = "after a file whose header npm's reader refuses (a checksum it reads "
                                       "otherwise, an empty name, a link name on a file ...) and whose data holds a "
                                       "tar header, which npm's reader reads as the next member";
static const char ODD_SLASHED[] = "a file whose name ends with '/', which GNU tar and npm's reader take for a "
                                  "directory, reading its data as the next members";
static const char ODD_NODE_CARRIES[] = "after a header npm's reader refuses, which keeps the PAX records before it "
                                       "for this entry";
static const char ODD_META_REFUSED[] = "after a PAX or GNU long-name header npm's reader refuses (an empty name, a "
                                       "checksum or number it reads otherwise), reading this entry without it";
static const char ODD_NODE_NAME[] = "named by a field that holds a NUL and then a line end, which npm's reader keeps "
                                    "(it cuts from the NUL to the line's end)";
static const char ODD_PY_DIR[] = "a file whose name field ends with '/' under type NUL, which Python's tarfile takes "
                                 "for a directory, reading its data as the next members";
static const char ODD_SIZED[] = "a link, directory, device or FIFO given a size, whose data npm's reader reads and "
                                "the others pass over";

/* ---- State ----------------------------------------------------------------------------------- */

static void stop(fc_go_tar *t, const char *why)
{
    t->st = STOPPED;
    t->why = why;
}

static void str_clear(str *s)
{
    free(s->s);
    s->s = NULL;
    s->n = 0;
    s->set = false;
}

static bool str_set(str *s, const char *p, size_t n)
{
    char *c = malloc(n + 1);
    if (!c)
        return false;
    memcpy(c, p, n);
    c[n] = '\0';
    free(s->s);
    s->s = c;
    s->n = n;
    s->set = true;
    return true;
}

static void clear_pax(fc_go_tar *t)
{
    t->pax = false;
    str *all[] = {&t->path,    &t->linkpath, &t->size,        &t->sp_major,     &t->sp_minor,
                  &t->sp_name, &t->sp_size,  &t->sp_realsize, &t->sp_numblocks, &t->sp_map};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        str_clear(all[i]);
}

static void queued_free(queued *e)
{
    free(e->name);
    free(e->link);
    free(e->map);
    *e = (queued){0};
}

/* A fragment of a sparse file's map, as Go reads it. False when out of memory. */
static bool add_fragment(queued *e, int64_t offset, int64_t length)
{
    if (!fc_grow_array((void **)&e->map, &e->cap_map, e->n_map + 2, sizeof *e->map, 16))
        return false;
    e->map[e->n_map++] = offset;
    e->map[e->n_map++] = length;
    return true;
}

/* validateSparseEntries: in order, apart, within SIZE. */
static bool valid_map(const queued *e, int64_t size)
{
    if (size < 0)
        return false;
    int64_t end = 0;
    for (size_t i = 0; i < e->n_map; i += 2) {
        int64_t off = e->map[i], len = e->map[i + 1];
        if (off < 0 || len < 0 || off > INT64_MAX - len || off + len > size || end > off)
            return false;
        end = off + len;
    }
    return true;
}

/* Go's next() starts each entry with none of these. */
static void clear_meta(fc_go_tar *t)
{
    clear_pax(t);
    str_clear(&t->long_name);
    str_clear(&t->long_link);
}

static const char *value_of(const str *s)
{
    return s->set ? s->s : "";
}

static bool enqueue(fc_go_tar *t, queued *e)
{
    if (t->n == t->cap && t->head) {
        /* the entries taken make room */
        memmove(t->q, t->q + t->head, (t->n - t->head) * sizeof *t->q);
        t->n -= t->head;
        t->head = 0;
    }
    if (!fc_grow_array((void **)&t->q, &t->cap, t->n + 1, sizeof *t->q, 64))
        return false;
    t->q[t->n++] = *e;
    return true;
}

/* ---- PAX records (reader.go parsePAX, strconv.go parsePAXRecord) ---------------------------- */

static bool pax_record(fc_go_tar *t, const char *k, size_t kn, const char *v, size_t vn, bool *oom)
{
    /* validPAXRecord: a key without '='; no NUL in a path, linkpath, uname or gname value, nor
     * in another key. */
    if (!kn || memchr(k, '=', kn))
        return false;
    bool named = (kn == 4 && !memcmp(k, "path", 4)) || (kn == 8 && !memcmp(k, "linkpath", 8)) ||
                 (kn == 5 && !memcmp(k, "uname", 5)) || (kn == 5 && !memcmp(k, "gname", 5));
    if (named ? memchr(v, 0, vn) != NULL : memchr(k, 0, kn) != NULL)
        return false;
    /* (GNU.sparse.offset and numbytes pairs, in no slot, are gathered by the caller, in order.) */
    str *slot = NULL;
    static const struct {
        const char *key;
        size_t off;
    } keys[] = {
        {"path", offsetof(fc_go_tar, path)},
        {"linkpath", offsetof(fc_go_tar, linkpath)},
        {"size", offsetof(fc_go_tar, size)},
        {"GNU.sparse.major", offsetof(fc_go_tar, sp_major)},
        {"GNU.sparse.minor", offsetof(fc_go_tar, sp_minor)},
        {"GNU.sparse.name", offsetof(fc_go_tar, sp_name)},
        {"GNU.sparse.size", offsetof(fc_go_tar, sp_size)},
        {"GNU.sparse.realsize", offsetof(fc_go_tar, sp_realsize)},
        {"GNU.sparse.numblocks", offsetof(fc_go_tar, sp_numblocks)},
        {"GNU.sparse.map", offsetof(fc_go_tar, sp_map)},
    };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (strlen(keys[i].key) == kn && !memcmp(keys[i].key, k, kn))
            slot = (str *)((char *)t + keys[i].off);
    if (slot && !str_set(slot, v, vn))
        *oom = true;
    return true;
}

/* Parses the 'x' body in t->body; false (Go's ErrHeader) when a record is malformed. */
static bool parse_pax(fc_go_tar *t, bool *oom)
{
    clear_pax(t);
    t->pax = true;
    t->sparse_records = 0;
    const char *s = t->body, *end = t->body + t->body_len;
    /* GNU.sparse.offset/numbytes values, in order, joined by commas (sparse 0.0) */
    char *pairs = NULL;
    size_t n_pairs = 0, pairs_len = 0;
    bool ok = true;
    while (ok && s < end) {
        size_t left = (size_t)(end - s);
        const char *sp = memchr(s, ' ', left);
        int64_t n;
        if (!sp || !parse_decimal(s, (size_t)(sp - s), &n) || n < 5 || (uint64_t)n > left ||
            n - (int64_t)(sp - s + 1) <= 0) {
            ok = false;
            break;
        }
        const char *rest = sp + 1, *rec_end = rest + (n - (int64_t)(sp - s + 1)) - 1;
        const char *eq = *rec_end == '\n' ? memchr(rest, '=', (size_t)(rec_end - rest)) : NULL;
        if (!eq) {
            ok = false;
            break;
        }
        const char *k = rest, *v = eq + 1;
        size_t kn = (size_t)(eq - rest), vn = (size_t)(rec_end - v);
        if (!pax_record(t, k, kn, v, vn, oom)) {
            ok = false;
            break;
        }
        t->sparse_records += kn >= 11 && !memcmp(k, "GNU.sparse.", 11);
        bool offset = kn == 17 && !memcmp(k, "GNU.sparse.offset", 17);
        bool numbytes = kn == 19 && !memcmp(k, "GNU.sparse.numbytes", 19);
        if (offset || numbytes) {
            char *grown;
            if ((n_pairs % 2 == 0) != offset || memchr(v, ',', vn)) {
                ok = false;
                break;
            }
            if (!(grown = realloc(pairs, pairs_len + vn + 2))) {
                *oom = true;
                break;
            }
            pairs = grown;
            if (n_pairs)
                pairs[pairs_len++] = ',';
            memcpy(pairs + pairs_len, v, vn);
            pairs_len += vn;
            n_pairs++;
        }
        s = rec_end + 1;
    }
    if (ok && !*oom && n_pairs && !str_set(&t->sp_map, pairs, pairs_len))
        *oom = true;
    free(pairs);
    return ok;
}

/* ---- Entries --------------------------------------------------------------------------------- */

static char *join_name(const uint8_t *prefix, size_t pn, const uint8_t *name, size_t nn)
{
    char *s = malloc(pn + 1 + nn + 1);
    if (!s)
        return NULL;
    size_t k = 0;
    if (pn) {
        memcpy(s, prefix, pn);
        k = pn;
        s[k++] = '/';
    }
    memcpy(s + k, name, nn);
    s[k + nn] = '\0';
    return s;
}

/* Data of N bytes, then its padding to a block, to pass over. */
static void skip_data(fc_go_tar *t, uint64_t n)
{
    t->skip = n + ((BLOCK - n % BLOCK) % BLOCK);
    t->st = t->skip ? DATA : HEAD;
}

/* *DST replaced by S's value where S holds one that is not empty (Go keeps the header's field
 * under an empty PAX record or long name). False when out of memory. */
static bool take(char **dst, const str *s)
{
    if (!s->set || !*s->s)
        return true;
    char *c = strdup(s->s);
    if (!c)
        return false;
    free(*dst);
    *dst = c;
    return true;
}

/* Entry E is one Go refuses (WHY): the reading stops there. */
static bool refuse(fc_go_tar *t, queued *e, const char *why)
{
    queued_free(e);
    stop(t, why);
    return true;
}

/* Which GNU sparse format Go reads the PAX records gathered as (readGNUSparsePAXHeaders): 0
 * none, 1 for 0.0 and 0.1 (the map in the records), 2 for 1.0 (the map at the data's head). */
static int pax_sparse(const fc_go_tar *t)
{
    const char *major = value_of(&t->sp_major), *minor = value_of(&t->sp_minor);
    if (!strcmp(major, "0") && (!strcmp(minor, "0") || !strcmp(minor, "1")))
        return 1;
    if (!strcmp(major, "1") && !strcmp(minor, "0"))
        return 2;
    if (*major || *minor)
        return 0; /* a version Go does not know: not sparse to it */
    return t->sp_map.set && t->sp_map.n > 0 ? 1 : 0;
}

/* Whether Python's tarfile reads the 'x' body just parsed (it has GNU.sparse records) otherwise
 * than Go: it takes GNU.sparse.map for 0.1 and GNU.sparse.size for 0.0, whatever the version
 * records say, and finds 0.0's pairs by a pattern over the whole body, in other records' values
 * too (rv33 F2); it splits a 0.1 map whole, where Go takes NUMBLOCKS pairs of it. */
static bool sparse_read_otherwise(const fc_go_tar *t)
{
    size_t mentions = 0;
    for (const char *at = t->body, *end = t->body + t->body_len;
         (at = memmem(at, (size_t)(end - at), "GNU.sparse.", 11)) != NULL; at += 11)
        mentions++;
    if (mentions > t->sparse_records)
        return true;
    if ((t->sp_map.set || t->sp_size.set) && !pax_sparse(t))
        return true;
    if (t->sp_map.set && t->sp_numblocks.set) {
        size_t fields = 1;
        for (size_t i = 0; i < t->sp_map.n; i++)
            fields += t->sp_map.s[i] == ',';
        int64_t blocks;
        if (!parse_decimal(t->sp_numblocks.s, t->sp_numblocks.n, &blocks) || blocks < 0 ||
            (uint64_t)blocks * 2 != fields)
            return true;
    }
    return false;
}

/* The old GNU sparse fragments of AREA (COUNT of 24 bytes; readOldGNUSparseMap): an offset
 * whose first byte is NUL ends them. False when out of memory; P's error when one does not
 * parse. Entries after that end that are not all zeros, which Python's tarfile and GNU tar
 * read on to (rv33 F1), make the entry odd. */
static bool old_fragments(queued *e, const uint8_t *area, size_t count, parser *p)
{
    size_t i = 0;
    for (; i < count && area[i * 24]; i++) {
        /* GNU tar (dpkg-deb -x) ends the map at a length whose first byte is NUL, and reads no
         * extension block after it (rv35 F3). */
        if (!area[i * 24 + 12])
            e->e.odd = ODD_SPARSE;
        int64_t off = parse_numeric(p, area + i * 24, 12), len = parse_numeric(p, area + i * 24 + 12, 12);
        if (p->err)
            return true;
        if (!add_fragment(e, off, len))
            return false;
    }
    for (size_t k = i * 24; k < count * 24 && !e->e.odd; k++)
        if (area[k])
            e->e.odd = ODD_SPARSE;
    return true;
}

/* Splits S (N bytes) at commas into E's map, as readGNUSparseMap0x1 does: NUMBLOCKS pairs of
 * decimal numbers. False where Go refuses them; *OOM when out of memory. */
static bool map_0x1(const str *numblocks, const str *map, queued *e, bool *oom)
{
    int64_t count;
    if (!parse_decimal(value_of(numblocks), numblocks->n, &count) || count < 0 || count > INT64_MAX / 2)
        return false;
    const char *s = value_of(map), *end = s + map->n;
    int64_t fields = 0, pair[2];
    if (map->n) {
        for (const char *at = s;; at++) {
            const char *comma = memchr(at, ',', (size_t)(end - at));
            const char *stop = comma ? comma : end;
            if (fields < 2 * count && !parse_decimal(at, (size_t)(stop - at), &pair[fields % 2]))
                return false;
            if (fields < 2 * count && fields % 2 == 1 && !add_fragment(e, pair[0], pair[1])) {
                *oom = true;
                return false;
            }
            fields++;
            if (!comma)
                break;
            at = comma;
        }
    }
    return fields == 2 * count;
}

/* The header in t->blk is the entry's own (not a meta header): what Go's next() makes of it.
 * False when out of memory. */
static bool read_entry(fc_go_tar *t, enum format f, parser *p)
{
    const uint8_t *b = t->blk;
    uint8_t type = b[156];
    size_t nn = strnlen((const char *)b, 100), ln = strnlen((const char *)b + 157, 100);
    const uint8_t *prefix = NULL;
    size_t pn = 0;
    if (f == USTAR) {
        prefix = b + 345;
        pn = strnlen((const char *)prefix, 155);
    } else if (f == STAR) {
        prefix = b + 345;
        pn = strnlen((const char *)prefix, 131);
    } else if (f == GNU) {
        /* Go before 1.8 wrote a prefix into GNU headers' atime and ctime: where those do not
         * parse, Go takes the prefix field when it is ASCII. */
        parser p2 = {false};
        if (b[345])
            parse_numeric(&p2, b + 345, 12);
        if (b[357])
            parse_numeric(&p2, b + 357, 12);
        if (p2.err) {
            size_t n = strnlen((const char *)b + 345, 155);
            if (is_ascii(b + 345, n)) {
                prefix = b + 345;
                pn = n;
            }
        }
    }
    queued e = {0};
    e.name = join_name(prefix, pn, b, nn);
    e.link = malloc(ln + 1);
    if (!e.name || !e.link)
        goto oom;
    memcpy(e.link, b + 157, ln);
    e.link[ln] = '\0';
    int64_t size = parse_numeric(p, b + 124, 12);
    if (p->err)
        return refuse(t, &e, "an invalid tar header");

    /* mergePAX, then the GNU long name and link. */
    if (t->pax) {
        if (!take(&e.name, &t->path) || !take(&e.link, &t->linkpath))
            goto oom;
        if (t->size.set && *t->size.s && !parse_decimal(t->size.s, strlen(t->size.s), &size))
            return refuse(t, &e, "an invalid tar header (a PAX size)");
    }
    if (!take(&e.name, &t->long_name) || !take(&e.link, &t->long_link))
        goto oom;
    /* How node-tar takes this header, before the meta headers' records are cleared: its path
     * is a PAX path even when empty, else a long name or the field as it decodes them. */
    bool node_no_path = t->path.set ? t->path.n == 0 : t->long_name.set ? t->long_name.n == 0
                                                      : !node_string_set(b, 100) && !(prefix && pn);
    bool carried = t->pax;
    bool py_dir = type == '\0' && nn && b[nn - 1] == '/';
    bool node_name = node_string_differs(b, 100) || node_string_differs(b + 157, 100) ||
                     (f == USTAR && node_string_differs(b + 345, 155));
    if (type == '\0') {
        size_t n = strlen(e.name);
        type = n && e.name[n - 1] == '/' ? '5' : '0';
    }
    bool node_refuses = node_refuses_header(b, type, node_no_path);
    int64_t data = header_only(type) ? 0 : size;
    if (data < 0)
        return refuse(t, &e, "an invalid tar header (a negative size)");

    /* handleSparseFile. */
    int pax_version = 0;
    bool oom = false;
    e.e.start = t->start;
    if (type == 'S') {
        if (f != GNU)
            return refuse(t, &e, "an invalid tar header (a sparse file not in GNU format)");
        parser p3 = {false};
        size = parse_numeric(&p3, b + 483, 12);
        if (!old_fragments(&e, b + 386, 4, &p3))
            goto oom;
        if (p3.err)
            return refuse(t, &e, "an invalid tar header (a sparse map)");
        e.e.sparse = true;
    } else if (t->pax && (pax_version = pax_sparse(t))) {
        if (!take(&e.name, &t->sp_name))
            goto oom;
        const str *sz = t->sp_size.set && t->sp_size.n ? &t->sp_size : &t->sp_realsize;
        if (sz->n && !parse_decimal(sz->s, sz->n, &size))
            return refuse(t, &e, "an invalid tar header (a sparse size)");
        if (pax_version == 1 && !map_0x1(&t->sp_numblocks, &t->sp_map, &e, &oom)) {
            if (oom)
                goto oom;
            return refuse(t, &e, "an invalid tar header (a sparse map)");
        }
        if (header_only(type))
            return refuse(t, &e, "an invalid tar header (a sparse entry of no data)");
        e.e.sparse = true;
    }
    clear_meta(t);
    e.e.odd = t->odd_next ? t->odd_next
            : t->odd_global ? t->odd_global
            : e.e.odd ? e.e.odd /* an old GNU map's (old_fragments) */
            : header_only(type) && size > 0 ? ODD_SIZED
            /* (fuzz-tar-readers.py: a '0' entry named 'a/' holding a program that held the
             * library's member; GNU tar and node-tar wrote the library) */
            : type == '0' && size > 0 && *e.name && e.name[strlen(e.name) - 1] == '/' ? ODD_SLASHED
            : node_name ? ODD_NODE_NAME
            : py_dir && type == '0' && size > 0 ? ODD_PY_DIR
                                            : NULL;
    if (e.e.odd && e.e.odd == t->odd_unsaid)
        t->odd_unsaid = NULL;
    t->odd_next = NULL;
    /* (rv37 F1: a 0-byte file with a link name after a PAX size=0: node-tar refused it and put
     * the size on the next file, whose data, an ELF, it read as headers.) */
    if (node_refuses && carried)
        t->odd_next = t->odd_unsaid = ODD_NODE_CARRIES;
    t->x_headers = 0;
    e.e.type = type;
    e.e.size = size;
    e.e.index = ++t->entries;
    uint64_t pad = (BLOCK - (uint64_t)data % BLOCK) % BLOCK;
    if (pax_version == 2 && (uint64_t)data < BLOCK)
        return refuse(t, &e, "a GNU sparse 1.0 map runs past its file's data");
    if ((type == 'S' && b[482]) || pax_version == 2) {
        /* Extension blocks of an old GNU map come before the data; a 1.0 map is the data's
         * head. The entry waits for them. */
        t->pending = e;
        t->pending_data = (uint64_t)data;
        t->map_newlines = 0;
        t->body_len = 0;
        t->st = type == 'S' ? SPARSE_EXT : SPARSE_MAP;
        if (t->st == SPARSE_MAP)
            t->start = t->pos + (uint64_t)data + pad;
        return true;
    }
    if (e.e.sparse && !valid_map(&e, size))
        return refuse(t, &e, "an invalid tar header (a sparse map)");
    e.e.data_at = t->pos;
    if (!enqueue(t, &e))
        goto oom;
    t->start = t->pos + (uint64_t)data + pad;
    skip_data(t, (uint64_t)data);
    /* node-tar passes over a header it refuses block by block, reading the entry's data as
     * headers (fuzz-tar-readers.py: a file with a link name whose data, an ELF, held the
     * library's member; npm's reader unpacked it, libarchive and Go read an ELF): such data is
     * looked through for a block that is a header. */
    t->look = node_refuses ? t->skip : 0;
    t->look_have = 0;
    return true;
oom:
    queued_free(&e);
    return false;
}

/* A whole header block is in t->blk. False when out of memory. */
static bool read_header(fc_go_tar *t)
{
    if (all_zero(t->blk)) {
        /* The end (libarchive too stops at the first block of zeros). */
        t->st = ENDED;
        t->end_at = t->pos - BLOCK;
        return true;
    }
    enum format f = block_format(t->blk);
    if (f == UNKNOWN) {
        stop(t, "an invalid tar header (its checksum)");
        return true;
    }
    parser p = {false};
    /* readHeader parses these and fails on any it cannot. */
    parse_numeric(&p, t->blk + 100, 8);
    parse_numeric(&p, t->blk + 108, 8);
    parse_numeric(&p, t->blk + 116, 8);
    parse_numeric(&p, t->blk + 136, 12);
    if (f != V7) {
        parse_numeric(&p, t->blk + 329, 8);
        parse_numeric(&p, t->blk + 337, 8);
    }
    if (f == STAR) {
        parse_numeric(&p, t->blk + 476, 12);
        parse_numeric(&p, t->blk + 488, 12);
    }
    uint8_t type = t->blk[156];
    if (type == 'x' || type == 'g' || type == 'L' || type == 'K') {
        int64_t size = parse_numeric(&p, t->blk + 124, 12);
        if (p.err || size < 0) {
            stop(t, "an invalid tar header");
            return true;
        }
        if ((uint64_t)size > SPECIAL_MAX) {
            stop(t, "a PAX or GNU long name header over 1 MiB (\"header field too long\")");
            return true;
        }
        char *body = realloc(t->body, (size_t)size + 1);
        if (!body)
            return false;
        /* (rv37 F2: a PAX size node-tar never applied, refusing its header's empty name.) */
        if (node_refuses_header(t->blk, type, !node_string_set(t->blk, 100)))
            t->odd_next = t->odd_unsaid = ODD_META_REFUSED;
        t->body = body;
        t->type = type;
        t->body_len = 0;
        t->body_want = (size_t)size;
        t->body_pad = (BLOCK - (uint64_t)size % BLOCK) % BLOCK;
        t->st = SPECIAL;
        return true;
    }
    return read_entry(t, f, &p);
}

/* Whether a record of the PAX body holds a line that node-tar reads as a record (its parseKV
 * splits the body at newlines and takes each "<digits> <key>=<value>" line whose length is its
 * number): a newline inside a value followed by digits and a space. */
static bool pax_lines(const fc_go_tar *t)
{
    const char *s = t->body, *end = t->body + t->body_len;
    while (s < end) {
        const char *sp = memchr(s, ' ', (size_t)(end - s));
        int64_t n;
        if (!sp || !parse_decimal(s, (size_t)(sp - s), &n) || n <= 0 || n > end - s)
            return false;
        const char *rec_end = s + n - 1; /* the record's own newline */
        for (const char *nl = memchr(sp, '\n', (size_t)(rec_end - sp)); nl;
             nl = memchr(nl + 1, '\n', (size_t)(rec_end - nl - 1))) {
            const char *d = nl + 1;
            while (d < rec_end && *d >= '0' && *d <= '9')
                d++;
            if (d > nl + 1 && d < rec_end && *d == ' ')
                return true;
            if (nl + 1 >= rec_end)
                break;
        }
        s = rec_end + 1;
    }
    return false;
}

/* Whether a meta header's body of N bytes at P holds an ELF, a fat binary or PTX, by their
 * magic or PTX's target line (not ".version" alone, which a long path may hold). */
static bool holds_code(const char *p, size_t n)
{
    static const char fatbin[4] = {0x50, (char)0xed, 0x55, (char)0xba};
    return memmem(p, n, "\177ELF", 4) || memmem(p, n, fatbin, 4) || memmem(p, n, ".target sm_", 11) ||
           memmem(p, n, ".target compute_", 16);
}

/* The body of a meta header is gathered. False when out of memory. */
static bool read_special(fc_go_tar *t)
{
    bool oom = false;
    /* node-tar skips a header it refuses block by block, reading each as a header (rv34: an
     * 'L' header with a link name, npm installed the library in its body): a block of the body
     * that is a header is said, whether an entry follows or not. */
    for (size_t k = 0; k + BLOCK <= t->body_len; k += BLOCK)
        if (a_reader_s_header((const uint8_t *)t->body + k))
            t->odd_next = t->odd_unsaid = ODD_META_BODY;
    /* Nor does a name or a record hold code: a reader that takes the header's size or its
     * records otherwise unpacks it (rv35 F1: node-tar took a size from a line in a comment, and
     * the next header and a comment holding the library became a file's data). */
    if (!t->odd_unsaid && holds_code(t->body, t->body_len))
        t->odd_next = t->odd_unsaid = ODD_META_CODE;
    t->body[t->body_len] = '\0';
    if (t->type == 'x' || t->type == 'g') {
        if (!parse_pax(t, &oom)) {
            stop(t, "an invalid tar header (a PAX record)");
            return !oom;
        }
        bool sparse_records = t->sp_major.set || t->sp_minor.set || t->sp_name.set || t->sp_size.set ||
                              t->sp_realsize.set || t->sp_numblocks.set || t->sp_map.set;
        bool odd_sparse = t->type == 'x' && sparse_records && sparse_read_otherwise(t);
        if (pax_lines(t) && !t->odd_unsaid)
            t->odd_next = t->odd_unsaid = ODD_PAX_LINES;
        if (t->type == 'g') {
            if (t->path.set || t->linkpath.set || t->size.set || sparse_records)
                t->odd_global = ODD_GLOBAL;
            clear_meta(t); /* returned as an entry of its own, which nothing applies */
        } else {
            if (odd_sparse && !t->odd_next)
                t->odd_next = ODD_SPARSE_RECORDS;
            if (++t->x_headers > 1)
                t->odd_next = ODD_TWO_PAX;
        }
    } else {
        str *s = t->type == 'L' ? &t->long_name : &t->long_link;
        if (node_string_differs((const uint8_t *)t->body, t->body_len) && !t->odd_next)
            t->odd_next = t->odd_unsaid = ODD_NODE_NAME;
        if (!str_set(s, t->body, strlen(t->body)))
            return false;
    }
    if (oom)
        return false;
    t->skip = t->body_pad;
    t->st = t->skip ? DATA : HEAD;
    return true;
}

/* The pending sparse entry's map is whole: checked as Go checks it, and the entry queued. */
static bool pending_done(fc_go_tar *t, uint64_t data_left)
{
    t->pending.e.data_at = t->pos; /* after the extension blocks or the map */
    if (!valid_map(&t->pending, t->pending.e.size)) {
        queued_free(&t->pending);
        stop(t, "an invalid tar header (a sparse map)");
        return true;
    }
    if (!enqueue(t, &t->pending))
        return false;
    t->pending = (queued){0};
    skip_data(t, data_left);
    return true;
}

/* A block of an old GNU sparse map's extensions is in t->blk. False when out of memory. */
static bool read_sparse_extension(fc_go_tar *t)
{
    parser ps = {false};
    if (!old_fragments(&t->pending, t->blk, 21, &ps))
        return false;
    if (ps.err) {
        queued_free(&t->pending);
        stop(t, "an invalid tar header (a sparse map)");
        return true;
    }
    if (t->blk[504])
        return true; /* another follows */
    uint64_t data = t->pending_data;
    t->start = t->pos + data + (BLOCK - data % BLOCK) % BLOCK;
    return pending_done(t, data);
}

/* The next token of a 1.0 map in t->body, from *AT: the bytes before its newline. */
static const char *map_token(fc_go_tar *t, size_t *at, size_t *len)
{
    const char *s = t->body + *at, *nl = memchr(s, '\n', t->body_len - *at);
    *len = (size_t)(nl - s);
    *at += *len + 1;
    return s;
}

/* Maps of GNU sparse 1.0 longer than this are not followed (Go's has no bound but the file). */
#define MAP_1X0_MAX (8u << 20)

/* A block of the data of a GNU sparse 1.0 file is in t->blk: gathered until its map, the
 * number of fragments and two numbers each, one per line, is whole (readGNUSparseMap1x0).
 * False when out of memory. */
static bool read_sparse_map(fc_go_tar *t)
{
    if (t->body_len + BLOCK > MAP_1X0_MAX) {
        queued_free(&t->pending);
        stop(t, "a GNU sparse 1.0 map over 8 MiB: not followed");
        return true;
    }
    char *body = realloc(t->body, t->body_len + BLOCK + 1);
    if (!body)
        return false;
    t->body = body;
    memcpy(t->body + t->body_len, t->blk, BLOCK);
    t->body_len += BLOCK;
    t->pending_data -= BLOCK;
    for (size_t i = 0; i < BLOCK; i++)
        t->map_newlines += t->blk[i] == '\n';
    size_t at = 0, len;
    int64_t count;
    if (t->map_newlines < 1)
        goto more;
    const char *tok = map_token(t, &at, &len);
    if (!parse_decimal(tok, len, &count) || count < 0 || count > INT64_MAX / 2) {
        queued_free(&t->pending);
        stop(t, "an invalid tar header (a sparse map)");
        return true;
    }
    if (t->map_newlines - 1 < (uint64_t)count * 2)
        goto more;
    for (int64_t i = 0; i < count; i++) {
        int64_t off, n;
        const char *a = map_token(t, &at, &len);
        bool ok = parse_decimal(a, len, &off);
        const char *b = map_token(t, &at, &len);
        if (!ok || !parse_decimal(b, len, &n)) {
            queued_free(&t->pending);
            stop(t, "an invalid tar header (a sparse map)");
            return true;
        }
        if (!add_fragment(&t->pending, off, n))
            return false;
    }
    return pending_done(t, t->pending_data);
more:
    if (t->pending_data < BLOCK) {
        /* Go reads the map's blocks from the file's data, which ends first. */
        queued_free(&t->pending);
        stop(t, "a GNU sparse 1.0 map runs past its file's data");
    }
    return true;
}

/* N bytes of data being looked through (t->look) for a block that is a header. */
static void look_through(fc_go_tar *t, const uint8_t *p, uint64_t n)
{
    while (n && t->look) {
        size_t k = BLOCK - t->look_have;
        if (k > n)
            k = (size_t)n;
        if (k > t->look)
            k = (size_t)t->look;
        memcpy(t->look_blk + t->look_have, p, k);
        t->look_have += k;
        p += k;
        n -= k;
        t->look -= k;
        if (t->look_have < BLOCK)
            continue;
        t->look_have = 0;
        if (a_reader_s_header(t->look_blk)) {
            t->odd_next = t->odd_unsaid = ODD_REFUSED_DATA;
            t->look = 0;
        }
    }
}

bool fc_go_tar_feed(fc_go_tar *t, const uint8_t *p, size_t n)
{
    while (n) {
        switch (t->st) {
        case ENDED:
        case STOPPED:
            return true;
        case DATA: {
            uint64_t k = t->skip < n ? t->skip : n;
            if (t->look)
                look_through(t, p, k);
            t->skip -= k;
            p += k;
            n -= (size_t)k;
            t->pos += k;
            if (!t->skip)
                t->st = HEAD;
            break;
        }
        case SPECIAL: {
            size_t k = t->body_want - t->body_len < n ? t->body_want - t->body_len : n;
            memcpy(t->body + t->body_len, p, k);
            t->body_len += k;
            p += k;
            n -= k;
            t->pos += k;
            if (t->body_len == t->body_want && !read_special(t))
                return false;
            break;
        }
        case HEAD:
        case SPARSE_EXT:
        case SPARSE_MAP: {
            size_t k = BLOCK - t->have < n ? BLOCK - t->have : n;
            memcpy(t->blk + t->have, p, k);
            t->have += k;
            p += k;
            n -= k;
            t->pos += k;
            if (t->have < BLOCK)
                break;
            t->have = 0;
            bool ok = t->st == HEAD ? read_header(t) : t->st == SPARSE_EXT ? read_sparse_extension(t) : read_sparse_map(t);
            if (!ok)
                return false;
            break;
        }
        }
    }
    return true;
}

uint64_t fc_go_tar_skippable(const fc_go_tar *t, uint64_t n)
{
    if (t->st == ENDED || t->st == STOPPED)
        return n;
    return t->st == DATA && !t->look ? (t->skip < n ? t->skip : n) : 0;
}

void fc_go_tar_skip(fc_go_tar *t, uint64_t n)
{
    if (t->st != DATA)
        return;
    t->skip -= n < t->skip ? n : t->skip;
    t->pos += n;
    if (!t->skip)
        t->st = HEAD;
}

bool fc_go_tar_is_header(const uint8_t *p)
{
    return block_format(p) != UNKNOWN;
}

fc_go_tar *fc_go_tar_new(void)
{
    return calloc(1, sizeof(fc_go_tar));
}

bool fc_go_tar_next(fc_go_tar *t, fc_go_entry *e)
{
    queued_free(&t->taken);
    if (t->head == t->n)
        return false;
    t->taken = t->q[t->head++];
    if (t->head == t->n)
        t->head = t->n = 0;
    *e = t->taken.e;
    e->name = t->taken.name;
    e->link = t->taken.link;
    e->map = t->taken.map;
    e->n_map = t->taken.n_map / 2;
    return true;
}

const char *fc_go_tar_stopped(const fc_go_tar *t)
{
    return t->st == STOPPED ? t->why : NULL;
}

const char *fc_go_tar_odd_left(const fc_go_tar *t)
{
    return t->odd_unsaid;
}

bool fc_go_tar_ended(const fc_go_tar *t)
{
    return t->st == ENDED;
}

bool fc_go_tar_end_position(const fc_go_tar *t, uint64_t *at)
{
    if (t->st == ENDED) {
        *at = t->end_at;
        return true;
    }
    /* An input that ends where a header would start, without its block of zeros. */
    *at = t->pos;
    return t->st == HEAD && t->have == 0;
}

void fc_go_tar_free(fc_go_tar *t)
{
    if (!t)
        return;
    clear_meta(t);
    for (size_t i = t->head; i < t->n; i++)
        queued_free(&t->q[i]);
    free(t->q);
    queued_free(&t->taken);
    queued_free(&t->pending);
    free(t->body);
    free(t);
}

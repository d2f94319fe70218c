/* oci_tar_go.c - a layer's tar headers read as Go's archive/tar reads them (oci_tar_go.h).
 *
 * A state machine fed the tar in pieces of any size: a header is gathered, then the bodies of
 * the headers that describe the next one ('x' PAX records, 'L'/'K' GNU long names) are
 * gathered too, and a file's data is only counted past. Each entry Go would return is queued
 * until the layer reader takes it.
 */
#include "oci_tar_go.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 512u
/* Go's maxSpecialFileSize: a PAX or GNU long name body larger is ErrFieldTooLong. */
#define SPECIAL_MAX (1u << 20)

typedef enum state { HEAD, DATA, SPECIAL, SPARSE_EXT, ENDED, STOPPED } state;

/* A string Go would hold: bytes and a length (PAX values may not hold NUL, names are cut at
 * one, so a NUL-terminated copy says it whole). */
typedef struct str {
    char *s;
    bool set; /* a record or long name gave it (an empty one too) */
} str;

typedef struct queued {
    fc_go_entry e;
    char *name, *link;
} queued;

struct fc_go_tar {
    state st;
    const char *why;   /* STOPPED: Go's error */
    uint8_t blk[BLOCK];
    size_t have;       /* bytes of blk gathered */
    uint64_t skip;     /* DATA: bytes of the current body and its padding left */

    /* SPECIAL: the body of an 'x', 'g', 'L' or 'K' header being gathered. */
    uint8_t type;
    char *body;
    size_t body_len, body_want;
    uint64_t body_pad;

    /* What the meta headers read so far say of the next entry (Go's next() locals). */
    bool pax;          /* an 'x' header was read: its records below */
    str path, linkpath, size, sp_major, sp_minor, sp_name, sp_size, sp_realsize;
    size_t sp_map_len; /* length of GNU.sparse.map as Go joins the offset/numbytes records */
    bool sp_map_set;
    str long_name, long_link;

    /* SPARSE_EXT: the old GNU sparse entry waiting for its extension blocks. */
    queued pending;
    uint64_t pending_data;

    uint64_t entries;  /* returned so far, 'g' headers not counted */
    queued *q;
    size_t head, n, cap;
    queued taken;      /* the last entry handed out: its strings live until the next */
};

/* ---- Go's parsers (strconv.go) ------------------------------------------------------------ */

typedef struct parser {
    bool err;
} parser;

static size_t field_string_len(const uint8_t *b, size_t n)
{
    const uint8_t *z = memchr(b, 0, n);
    return z ? (size_t)(z - b) : n;
}

/* strconv.ParseUint(s, 8, 64) on bytes.Trim(b, " \x00") cut at its first NUL. */
static int64_t parse_octal(parser *p, const uint8_t *b, size_t n)
{
    while (n && (b[0] == ' ' || b[0] == 0))
        b++, n--;
    while (n && (b[n - 1] == ' ' || b[n - 1] == 0))
        n--;
    if (!n)
        return 0;
    n = field_string_len(b, n);
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
    s->set = true;
    return true;
}

static void clear_pax(fc_go_tar *t)
{
    t->pax = false;
    str *all[] = {&t->path, &t->linkpath, &t->size, &t->sp_major, &t->sp_minor, &t->sp_name, &t->sp_size, &t->sp_realsize};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        str_clear(all[i]);
    t->sp_map_len = 0;
    t->sp_map_set = false;
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
    if (t->n == t->cap) {
        if (t->head) {
            memmove(t->q, t->q + t->head, (t->n - t->head) * sizeof *t->q);
            t->n -= t->head;
            t->head = 0;
        } else {
            size_t cap = t->cap ? t->cap * 2 : 64;
            queued *q = realloc(t->q, cap * sizeof *q);
            if (!q)
                return false;
            t->q = q;
            t->cap = cap;
        }
    }
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
    /* GNU.sparse.offset and numbytes pairs are gathered by the caller, in order. */
    if ((kn == 17 && !memcmp(k, "GNU.sparse.offset", 17)) || (kn == 19 && !memcmp(k, "GNU.sparse.numbytes", 19)))
        return true;
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
    };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (strlen(keys[i].key) == kn && !memcmp(keys[i].key, k, kn))
            slot = (str *)((char *)t + keys[i].off);
    if (kn == 14 && !memcmp(k, "GNU.sparse.map", 14)) {
        /* An explicit map record (replaced by the pairs' join if there are pairs). */
        t->sp_map_len = vn;
        t->sp_map_set = true;
        return true;
    }
    if (slot && !str_set(slot, v, vn))
        *oom = true;
    return true;
}

/* Parses the 'x' body in t->body; false (Go's ErrHeader) when a record is malformed. */
static bool parse_pax(fc_go_tar *t, bool *oom)
{
    clear_pax(t);
    t->pax = true;
    const char *s = t->body, *end = t->body + t->body_len;
    size_t pairs = 0, pairs_len = 0; /* GNU.sparse.offset/numbytes values, in order */
    while (s < end) {
        size_t left = (size_t)(end - s);
        const char *sp = memchr(s, ' ', left);
        if (!sp)
            return false;
        int64_t n;
        if (!parse_decimal(s, (size_t)(sp - s), &n) || n < 5 || (uint64_t)n > left)
            return false;
        int64_t rest_n = n - (int64_t)(sp - s + 1);
        if (rest_n <= 0)
            return false;
        const char *rest = sp + 1, *rec_end = rest + rest_n - 1;
        if (*rec_end != '\n')
            return false;
        const char *eq = memchr(rest, '=', (size_t)(rec_end - rest));
        if (!eq)
            return false;
        const char *k = rest, *v = eq + 1;
        size_t kn = (size_t)(eq - rest), vn = (size_t)(rec_end - v);
        if (!pax_record(t, k, kn, v, vn, oom))
            return false;
        bool offset = kn == 17 && !memcmp(k, "GNU.sparse.offset", 17);
        bool numbytes = kn == 19 && !memcmp(k, "GNU.sparse.numbytes", 19);
        if (offset || numbytes) {
            if ((pairs % 2 == 0) != offset || memchr(v, ',', vn))
                return false;
            pairs_len += vn + (pairs ? 1 : 0);
            pairs++;
        }
        s = rec_end + 1;
    }
    if (pairs) {
        t->sp_map_len = pairs_len;
        t->sp_map_set = true;
    }
    return true;
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

static char *dup_str(const char *p)
{
    size_t n = strlen(p);
    char *s = malloc(n + 1);
    if (s)
        memcpy(s, p, n + 1);
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
    char *c = dup_str(s->s);
    if (!c)
        return false;
    free(*dst);
    *dst = c;
    return true;
}

/* Entry E is one Go refuses (WHY): the reading stops there. */
static bool refuse(fc_go_tar *t, queued *e, const char *why)
{
    free(e->name);
    free(e->link);
    stop(t, why);
    return true;
}

/* Whether Go reads the PAX records gathered as a GNU sparse file's (readGNUSparsePAXHeaders). */
static bool pax_sparse(const fc_go_tar *t)
{
    const char *major = value_of(&t->sp_major), *minor = value_of(&t->sp_minor);
    if (!strcmp(major, "0") && (!strcmp(minor, "0") || !strcmp(minor, "1")))
        return true;
    if (!strcmp(major, "1") && !strcmp(minor, "0"))
        return true;
    if (*major || *minor)
        return false; /* a version Go does not know: not sparse to it */
    return t->sp_map_set && t->sp_map_len > 0;
}

/* The header in t->blk is the entry's own (not a meta header): what Go's next() makes of it.
 * False when out of memory. */
static bool read_entry(fc_go_tar *t, enum format f, parser *p)
{
    const uint8_t *b = t->blk;
    uint8_t type = b[156];
    size_t nn = field_string_len(b, 100), ln = field_string_len(b + 157, 100);
    const uint8_t *prefix = NULL;
    size_t pn = 0;
    if (f == USTAR) {
        prefix = b + 345;
        pn = field_string_len(prefix, 155);
    } else if (f == STAR) {
        prefix = b + 345;
        pn = field_string_len(prefix, 131);
    } else if (f == GNU) {
        /* Go before 1.8 wrote a prefix into GNU headers' atime and ctime: where those do not
         * parse, Go takes the prefix field when it is ASCII. */
        parser p2 = {false};
        if (b[345])
            parse_numeric(&p2, b + 345, 12);
        if (b[357])
            parse_numeric(&p2, b + 357, 12);
        if (p2.err) {
            size_t n = field_string_len(b + 345, 155);
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
    if (type == '\0') {
        size_t n = strlen(e.name);
        type = n && e.name[n - 1] == '/' ? '5' : '0';
    }
    int64_t data = header_only(type) ? 0 : size;
    if (data < 0)
        return refuse(t, &e, "an invalid tar header (a negative size)");

    /* handleSparseFile. */
    bool old_sparse = type == 'S';
    if (old_sparse) {
        if (f != GNU)
            return refuse(t, &e, "an invalid tar header (a sparse file not in GNU format)");
        parser p3 = {false};
        size = parse_numeric(&p3, b + 483, 12);
        for (size_t i = 0; i < 4 && b[386 + i * 24]; i++) {
            parse_numeric(&p3, b + 386 + i * 24, 12);
            parse_numeric(&p3, b + 386 + i * 24 + 12, 12);
        }
        if (p3.err)
            return refuse(t, &e, "an invalid tar header (a sparse map)");
    } else if (t->pax && pax_sparse(t)) {
        if (!take(&e.name, &t->sp_name))
            goto oom;
        const char *s = t->sp_size.set && *t->sp_size.s ? t->sp_size.s : value_of(&t->sp_realsize);
        if (*s && !parse_decimal(s, strlen(s), &size))
            return refuse(t, &e, "an invalid tar header (a sparse size)");
        if (header_only(type))
            return refuse(t, &e, "an invalid tar header (a sparse entry of no data)");
    }
    clear_meta(t);
    e.e.type = type;
    e.e.size = size;
    e.e.index = ++t->entries;
    if (old_sparse && b[482]) {
        /* Extension blocks of the sparse map come before the data. */
        t->pending = e;
        t->pending_data = (uint64_t)data;
        t->st = SPARSE_EXT;
        return true;
    }
    if (!enqueue(t, &e))
        goto oom;
    skip_data(t, (uint64_t)data);
    return true;
oom:
    free(e.name);
    free(e.link);
    return false;
}

/* A whole header block is in t->blk. False when out of memory. */
static bool read_header(fc_go_tar *t)
{
    if (all_zero(t->blk)) {
        /* The end (libarchive too stops at the first block of zeros). */
        t->st = ENDED;
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

/* The body of a meta header is gathered. False when out of memory. */
static bool read_special(fc_go_tar *t)
{
    bool oom = false;
    t->body[t->body_len] = '\0';
    if (t->type == 'x' || t->type == 'g') {
        if (!parse_pax(t, &oom)) {
            stop(t, "an invalid tar header (a PAX record)");
            return !oom;
        }
        if (t->type == 'g')
            clear_meta(t); /* returned as an entry of its own, which nothing applies */
    } else {
        str *s = t->type == 'L' ? &t->long_name : &t->long_link;
        if (!str_set(s, t->body, strlen(t->body)))
            return false;
    }
    if (oom)
        return false;
    skip_data(t, 0);
    t->skip = t->body_pad;
    t->st = t->skip ? DATA : HEAD;
    return true;
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
            t->skip -= k;
            p += k;
            n -= (size_t)k;
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
            if (t->body_len == t->body_want && !read_special(t))
                return false;
            break;
        }
        case HEAD:
        case SPARSE_EXT: {
            size_t k = BLOCK - t->have < n ? BLOCK - t->have : n;
            memcpy(t->blk + t->have, p, k);
            t->have += k;
            p += k;
            n -= k;
            if (t->have < BLOCK)
                break;
            t->have = 0;
            if (t->st == HEAD) {
                if (!read_header(t))
                    return false;
                break;
            }
            parser ps = {false};
            for (size_t i = 0; i < 21 && t->blk[i * 24]; i++) {
                parse_numeric(&ps, t->blk + i * 24, 12);
                parse_numeric(&ps, t->blk + i * 24 + 12, 12);
            }
            if (ps.err) {
                free(t->pending.name);
                free(t->pending.link);
                t->pending = (queued){0};
                stop(t, "an invalid tar header (a sparse map)");
                break;
            }
            if (!t->blk[504]) {
                if (!enqueue(t, &t->pending))
                    return false;
                t->pending = (queued){0};
                skip_data(t, t->pending_data);
            }
            break;
        }
        }
    }
    return true;
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
    free(t->taken.name);
    free(t->taken.link);
    t->taken = (queued){0};
    if (t->head == t->n)
        return false;
    t->taken = t->q[t->head++];
    if (t->head == t->n)
        t->head = t->n = 0;
    *e = t->taken.e;
    e->name = t->taken.name;
    e->link = t->taken.link;
    return true;
}

const char *fc_go_tar_stopped(const fc_go_tar *t)
{
    return t->st == STOPPED ? t->why : NULL;
}

bool fc_go_tar_ended(const fc_go_tar *t)
{
    return t->st == ENDED;
}

void fc_go_tar_free(fc_go_tar *t)
{
    if (!t)
        return;
    clear_meta(t);
    for (size_t i = t->head; i < t->n; i++) {
        free(t->q[i].name);
        free(t->q[i].link);
    }
    free(t->q);
    free(t->taken.name);
    free(t->taken.link);
    free(t->pending.name);
    free(t->pending.link);
    free(t->body);
    free(t);
}

/* tar_agree.c - a tar as libarchive reads it, checked entry by entry against Go's archive/tar's
 * reading of the same bytes (tar_agree.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci.h"
#include "tar_agree.h"

/* The longest name compared by its cleaned path; a longer one is compared as it is. */
#define PATH_CAP (4096u + 1)

bool fc_tar_agree_init(fc_tar_agree *t, const char *who, bool others)
{
    *t = (fc_tar_agree){.who = who, .others = others, .go = fc_go_tar_new(), .buf_a = malloc(PATH_CAP), .buf_b = malloc(PATH_CAP)};
    if (t->go && t->buf_a && t->buf_b)
        return true;
    fc_tar_agree_fini(t);
    return false;
}

void fc_tar_agree_fini(fc_tar_agree *t)
{
    fc_go_tar_free(t->go);
    free(t->buf_a);
    free(t->buf_b);
    *t = (fc_tar_agree){0};
}

void fc_tar_agree_feed(fc_tar_agree *t, const void *p, size_t n)
{
    if (!t->oom && !fc_go_tar_feed(t->go, p, n))
        t->oom = true;
}

uint64_t fc_tar_agree_skippable(const fc_tar_agree *t, uint64_t n)
{
    return t->oom ? n : fc_go_tar_skippable(t->go, n);
}

void fc_tar_agree_skipped(fc_tar_agree *t, uint64_t n)
{
    if (!t->oom)
        fc_go_tar_skip(t->go, n);
}

/* An entry's type as Go's Header.Typeflag says it, of those libarchive tells apart: '0' a file
 * (Go's '7', 'S' and unknown types too, which libarchive reads as files), '1' to '6'. */
static char go_class(uint8_t type)
{
    return type >= '1' && type <= '6' ? (char)type : '0';
}

static char libarchive_class(const fc_archive_api *la, struct archive_entry *e)
{
    if (la->entry_hardlink(e))
        return '1';
    switch (la->entry_filetype(e)) {
    case AE_IFREG: return '0';
    case AE_IFLNK: return '2';
    case AE_IFCHR: return '3';
    case AE_IFBLK: return '4';
    case AE_IFDIR: return '5';
    case AE_IFIFO: return '6';
    default: return '?';
    }
}

static const char *class_name(char c)
{
    switch (c) {
    case '0': return "a file";
    case '1': return "a hard link";
    case '2': return "a symbolic link";
    case '3': case '4': return "a device";
    case '5': return "a directory";
    case '6': return "a FIFO";
    default: return "an entry of no known type";
    }
}

/* Whether names A and B are one path once cleaned as containerd cleans them. */
static bool same_path(const fc_tar_agree *t, const char *a, const char *b)
{
    size_t na, nb;
    if (strlen(a) >= PATH_CAP || strlen(b) >= PATH_CAP)
        return strcmp(a, b) == 0;
    bool ok_a = fc_oci_normalize(a, t->buf_a, PATH_CAP, &na), ok_b = fc_oci_normalize(b, t->buf_b, PATH_CAP, &nb);
    if (!ok_a || !ok_b)
        return ok_a == ok_b && strcmp(a, b) == 0;
    return na == nb && memcmp(t->buf_a, t->buf_b, na) == 0;
}

/* Whether libarchive places file E's data as Go places G's: its fragments (a sparse file's;
 * none for a plain one) as archive_entry_sparse_add_entry keeps them (adjacent ones joined, one
 * covering the whole file none) against Go's so kept. (rv31 FP1, FP4, FP5, FP6: headers that
 * made the file sparse for one reader and plain for the other, the same name, type and size,
 * 4,096 zero bytes and then the library for one.) */
static bool same_fragments(const fc_archive_api *la, struct archive_entry *e, const fc_go_entry *g, bool *oom)
{
    int64_t size = g->size, *kept = g->n_map ? malloc(g->n_map * 2 * sizeof *kept) : NULL;
    if (g->n_map && !kept) {
        *oom = true;
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < g->n_map; i++) {
        int64_t off = g->map[2 * i], len = g->map[2 * i + 1];
        if (off < 0 || len < 0 || off > INT64_MAX - len || off + len > size)
            continue;
        int64_t end = n ? kept[2 * n - 2] + kept[2 * n - 1] : -1;
        if (end > off)
            continue;
        if (end == off) {
            kept[2 * n - 1] += len;
            continue;
        }
        kept[2 * n] = off;
        kept[2 * n + 1] = len;
        n++;
    }
    if (n == 1 && kept[0] == 0 && kept[1] >= size)
        n = 0;
    bool same = la->entry_sparse_count(e) == (int)n;
    la->entry_sparse_reset(e);
    for (size_t i = 0; same && i < n; i++) {
        la_int64_t o, l;
        same = la->entry_sparse_next(e, &o, &l) == ARCHIVE_OK && o == kept[2 * i] && l == kept[2 * i + 1];
    }
    free(kept);
    return same;
}

fc_tar_verdict fc_tar_agree_entry(fc_tar_agree *t, const fc_archive_api *la, struct archive *a, struct archive_entry *e,
                                  uint64_t index, fc_go_entry *out, char *why, size_t cap)
{
    if (t->oom)
        return FC_TAR_NOMEM;
    const char *name = la->entry_pathname(e) ? la->entry_pathname(e) : "";
    char here = libarchive_class(la, e);
    fc_go_entry g;
    if (!fc_go_tar_next(t->go, &g)) {
        const char *stop = fc_go_tar_stopped(t->go);
        if (stop)
            snprintf(why, cap, "%s stop at entry %llu of its tar with an error (%s), where %s '%.80s' is read here",
                     t->who, (unsigned long long)index, stop, class_name(here), name);
        else
            snprintf(why, cap, "entry %llu of its tar, %s '%.80s', is read here where %s find the tar's end",
                     (unsigned long long)index, class_name(here), name, t->who);
        return FC_TAR_DIFFERENT;
    }
    char there = go_class(g.type);
    bool same = here == there && same_path(t, name, g.name);
    /* Go reads no data after a link, a directory, a device or a FIFO; libarchive reads what a
     * PAX size gives them (rv31 FP2: a symbolic link of 1,024 bytes put the two out of step). */
    if (same && la->entry_size_is_set(e))
        same = la->entry_size(e) == (there == '0' ? g.size : 0);
    if (same && (there == '1' || there == '2')) {
        const char *link = there == '1' ? la->entry_hardlink(e) : la->entry_symlink(e);
        same = strcmp(link ? link : "", g.link) == 0;
    }
    if (!same) {
        char size_here[48] = "", size_there[48] = "";
        if (la->entry_size_is_set(e) && (here == '0' || la->entry_size(e) != 0))
            snprintf(size_here, sizeof size_here, " of %lld bytes", (long long)la->entry_size(e));
        if (there == '0')
            snprintf(size_there, sizeof size_there, " of %lld bytes", (long long)g.size);
        snprintf(why, cap, "entry %llu of its tar is read differently by %s: %s '%.48s'%s there, %s '%.48s'%s here",
                 (unsigned long long)index, t->who, class_name(there), g.name, size_there, class_name(here), name,
                 size_here);
        return FC_TAR_DIFFERENT;
    }
    /* Where its headers start: after the same bytes of the entry before (rv31 FP2, FP3: data
     * one reader skips and the other reads as headers). */
    int64_t at = la->read_header_position(a);
    if (at < 0 || (uint64_t)at != g.start) {
        snprintf(why, cap, "entry %llu of its tar, '%.80s', starts at byte %lld of the tar here and at byte %llu for %s: "
                           "read out of step",
                 (unsigned long long)index, name, (long long)at, (unsigned long long)g.start, t->who);
        return FC_TAR_DIFFERENT;
    }
    /* And its data after the same headers (rv32 F1: a GNU sparse 1.0 map, which Go reads at the
     * data's head and libarchive did not, its data then starting 512 bytes earlier). */
    int64_t data_at = la->filter_bytes(a, 0);
    if (data_at < 0 || (uint64_t)data_at != g.data_at) {
        snprintf(why, cap, "entry %llu of its tar, '%.80s', has its data at byte %lld of the tar here and at byte %llu "
                           "for %s: read out of step",
                 (unsigned long long)index, name, (long long)data_at, (unsigned long long)g.data_at, t->who);
        return FC_TAR_DIFFERENT;
    }
    bool oom = false;
    if (there == '0' && !same_fragments(la, e, &g, &oom)) {
        if (oom)
            return FC_TAR_NOMEM;
        snprintf(why, cap, "entry %llu of its tar, '%.80s', is read here as %s and by %s as %s: not the same bytes",
                 (unsigned long long)index, name, la->entry_sparse_count(e) ? "a sparse file" : "a plain file", t->who,
                 g.sparse ? "a sparse file" : "a plain file");
        return FC_TAR_DIFFERENT;
    }
    if (t->others && g.odd) {
        snprintf(why, cap, "entry %llu of its tar, '%.80s', is %s", (unsigned long long)index, name, g.odd);
        return FC_TAR_DIFFERENT;
    }
    *out = g;
    return FC_TAR_SAME;
}

/* (Go's reading is fed on from libarchive's end: libarchive pulled only what it needed, and
 * rv31 FP3 had Go inside a 1 MiB PAX header's body there, what followed it unchecked. What
 * cannot be decompressed after libarchive's end Go cannot read either.) */
fc_tar_verdict fc_tar_agree_end(fc_tar_agree *t, const fc_archive_api *la, struct archive *a, fc_tar_pull pull,
                                void *arg, uint64_t max_more, char *why, size_t cap)
{
    fc_go_entry g;
    uint64_t more = 0;
    const void *block;
    size_t size;
    bool got = false;
    while (!t->oom && !(got = fc_go_tar_next(t->go, &g)) && !fc_go_tar_ended(t->go) && !fc_go_tar_stopped(t->go) &&
           pull(arg, &block, &size) > 0) {
        fc_tar_agree_feed(t, block, size);
        if ((more += size) > max_more) {
            snprintf(why, cap, "%s read its tar on for more than %llu bytes past where its end is read here: not "
                               "followed", t->who, (unsigned long long)max_more);
            return FC_TAR_DIFFERENT;
        }
    }
    uint64_t end;
    int64_t here = la->read_header_position(a);
    if (t->oom)
        return FC_TAR_NOMEM;
    if (got) {
        snprintf(why, cap, "%s read entry %llu of its tar, '%.80s', past where its end is read here", t->who,
                 (unsigned long long)g.index, g.name);
        return FC_TAR_DIFFERENT;
    }
    if (t->others && fc_go_tar_odd_left(t->go)) {
        snprintf(why, cap, "its tar ends %s", fc_go_tar_odd_left(t->go));
        return FC_TAR_DIFFERENT;
    }
    /* A package's installers do not all stop where Go does: a lone zero block behind a meta
     * header ends the tar quietly here (tar_lone_zero_block's count of bytes sees the header
     * too), Go stops with an error and npm's reader reads on past both, and installed the
     * library behind (scripts/fuzz-tar-readers.py). Docker and containerd apply nothing. */
    const char *stop = fc_go_tar_stopped(t->go);
    if (t->others && stop) {
        snprintf(why, cap, "%s stop with an error (%s) where its tar ends here: npm's reader reads on, passing over "
                           "what it cannot read, and what it unpacks after is not seen here",
                 t->who, stop);
        return FC_TAR_DIFFERENT;
    }
    if (fc_go_tar_end_position(t->go, &end) && (here < 0 || (uint64_t)here != end)) {
        /* (Where Go stops with an error, Docker and containerd apply nothing.) */
        snprintf(why, cap, "its tar ends at byte %lld here and at byte %llu for %s: read out of step", (long long)here,
                 (unsigned long long)end, t->who);
        return FC_TAR_DIFFERENT;
    }
    return FC_TAR_SAME;
}

/* ---- A file's bytes, placed as Go places them ------------------------------------------------
 * (rv31 FP4, FP5, FP6: headers that made a file sparse to libarchive and plain to Go, 4,096
 * zero bytes before the library for one, the library for the other, the same name, type and
 * size.) */

void fc_tar_placed_start(fc_tar_placed *p, const fc_tar_agree *t, const fc_archive_api *la, struct archive *a,
                         const fc_go_entry *g)
{
    *p = (fc_tar_placed){.la = la, .a = a, .who = t->who, .map = g->sparse ? g->map : NULL, .n_map = g->n_map,
                         .size = g->size};
}

static void fragment(const fc_tar_placed *p, size_t i, int64_t *off, int64_t *end)
{
    *off = p->map ? p->map[2 * i] : 0;
    *end = p->map ? p->map[2 * i] + p->map[2 * i + 1] : p->size;
}

/* Says (in *WHY) that libarchive's reading of the data is not Go's: BEFORE, then who reads
 * it as Go does. */
static la_ssize_t differs(fc_tar_placed *p, const char **why, const char *before)
{
    snprintf(p->why, sizeof p->why, "%s %s", before, p->who);
    *why = p->why;
    return -1;
}

la_ssize_t fc_tar_placed_read(fc_tar_placed *p, uint8_t *buf, size_t n, const char **why)
{
    size_t done = 0, frags = p->map ? p->n_map : 1;
    *why = NULL;
    while (done < n && p->out < p->size) {
        int64_t off = 0, end = 0;
        while (p->frag < frags && (fragment(p, p->frag, &off, &end), end <= p->out))
            p->frag++;
        if (p->frag == frags || p->out < off) {
            /* a hole to Go: zeros, where libarchive may give nothing */
            if (p->left)
                return differs(p, why, "libarchive gives data in a hole to");
            int64_t hole_end = p->frag == frags ? p->size : off;
            size_t k = (uint64_t)(hole_end - p->out) < n - done ? (size_t)(hole_end - p->out) : n - done;
            memset(buf + done, 0, k);
            done += k;
            p->out += (int64_t)k;
            continue;
        }
        if (!p->left) {
            const void *b;
            size_t len;
            la_int64_t at;
            int r = p->la->read_data_block(p->a, &b, &len, &at);
            if (r == ARCHIVE_EOF)
                return differs(p, why, "its data ends here before it does for");
            if (r != ARCHIVE_OK && r != ARCHIVE_WARN)
                return r == ARCHIVE_FATAL ? ARCHIVE_FATAL : -1;
            if (!len)
                continue;
            if (at != p->out)
                return differs(p, why, "libarchive places its bytes elsewhere in the file than");
            p->block = b;
            p->left = len;
        }
        size_t k = p->left < n - done ? p->left : n - done;
        if ((uint64_t)k > (uint64_t)(end - p->out))
            k = (size_t)(end - p->out);
        memcpy(buf + done, p->block, k);
        p->block += k;
        p->left -= k;
        done += k;
        p->out += (int64_t)k;
    }
    if (done == 0 && n) {
        /* Go's end of the file: libarchive's too */
        const void *b;
        size_t len = 0;
        la_int64_t at;
        int r = p->left ? ARCHIVE_OK : p->la->read_data_block(p->a, &b, &len, &at);
        if (p->left || ((r == ARCHIVE_OK || r == ARCHIVE_WARN) && len))
            return differs(p, why, "libarchive gives more of it than");
        if (r != ARCHIVE_EOF && r != ARCHIVE_OK && r != ARCHIVE_WARN)
            return r == ARCHIVE_FATAL ? ARCHIVE_FATAL : -1;
    }
    return (la_ssize_t)done;
}

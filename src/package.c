/* package.c - wheels, conda packages, tarballs and container images, read through
 * libarchive without unpacking to disk.
 *
 * Members are read one at a time: a few KiB first to tell what they are; only a CUDA
 * binary (or, to a depth limit, a nested package) is read whole into memory, up to
 * opts->max_member_size; everything else is skipped. Memory is bounded by that limit,
 * not by the size of the package.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive_api.h"
#include "bytes.h"
#include "internal.h"

#define SNIFF_SIZE 4096u

bool fc_sniff_package(const uint8_t *b, size_t n)
{
    if (n >= 4 && memcmp(b, "PK\003\004", 4) == 0)              /* zip: wheels, .conda */
        return true;
    if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)                   /* gzip */
        return true;
    if (n >= 3 && memcmp(b, "BZh", 3) == 0)                       /* bzip2 */
        return true;
    if (n >= 6 && memcmp(b, "\xfd" "7zXZ\0", 6) == 0)             /* xz */
        return true;
    if (n >= 4 && fc_rd32(b) == 0xFD2FB528u)                      /* zstd */
        return true;
    if (n >= 262 && memcmp(b + 257, "ustar", 5) == 0)             /* tar (docker save too) */
        return true;
    return false;
}

static struct archive *open_reader(const fc_archive_api *la)
{
    struct archive *a = la->read_new();
    if (!a)
        return NULL;
    la->read_support_filter_all(a);
    la->read_support_format_zip(a);
    la->read_support_format_tar(a);
    la->read_support_format_gnutar(a);
    la->read_support_format_cpio(a);
    /* A compressed file that is no archive (libfoo.so.zst) reads as one member. */
    la->read_support_format_raw(a);
    return a;
}

/* Reads the rest of the current member after the HEAD bytes already read, into one buffer
 * of at most LIMIT bytes. */
static fc_status read_member(const fc_archive_api *la, struct archive *a, const uint8_t *head, size_t head_len, int64_t declared,
                             uint64_t limit, uint8_t **out, size_t *out_len)
{
    size_t cap = declared > 0 && (uint64_t)declared <= limit ? (size_t)declared : head_len + (1u << 20);
    if (cap < head_len)
        cap = head_len;
    uint8_t *buf = malloc(cap ? cap : 1);
    if (!buf)
        return FC_ERR_NOMEM;
    memcpy(buf, head, head_len);
    size_t len = head_len;
    for (;;) {
        if (len == cap) {
            if (cap >= limit) {
                free(buf);
                return FC_ERR_LIMIT;
            }
            size_t ncap = cap > limit / 2 ? (size_t)limit : cap * 2;
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                return FC_ERR_NOMEM;
            }
            buf = nb;
            cap = ncap;
        }
        la_ssize_t r = la->read_data(a, buf + len, cap - len);
        if (r < 0) {
            free(buf);
            return FC_ERR_FORMAT;
        }
        if (r == 0)
            break;
        len += (size_t)r;
    }
    *out = buf;
    *out_len = len;
    return FC_OK;
}

/* The member's name within the whole chain: "inner/path", or "outer.tar!inner/path". */
static char *chain_name(const fc_scan_ctx *sc, const char *entry)
{
    size_t n = (sc->inner ? strlen(sc->inner) + 1 : 0) + strlen(entry) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s", sc->inner ? sc->inner : "", sc->inner ? "!" : "", entry);
    return s;
}

static int scan_entries(fc_scan_ctx *sc, const fc_archive_api *la, struct archive *a, const char *path)
{
    int rc = 0;
    uint8_t head[SNIFF_SIZE];
    struct archive_entry *e;
    int r;
    size_t members = 0;
    while (rc == 0 && (r = la->read_next_header(a, &e)) == ARCHIVE_OK) {
        const char *entry = la->entry_pathname(e);
        if (la->entry_filetype(e) != AE_IFREG || !entry)
            continue;
        members++;
        la_ssize_t got = la->read_data(a, head, sizeof head);
        if (got < 0) {
            rc = fc_report_error(sc, FC_ERR_FORMAT, path, NULL, "member %s: %s", entry, la->error_string(a));
            break;
        }
        bool archive_member;
        fc_format f = fc_sniff(head, (size_t)got, &archive_member);
        bool nested = f == FC_FORMAT_UNKNOWN && fc_sniff_package(head, (size_t)got);
        if (f == FC_FORMAT_UNKNOWN && !nested)
            continue; /* libarchive skips the rest of the member itself */
        if (nested && sc->depth + 1 >= sc->opts->max_package_depth) {
            rc = fc_report_error(sc, FC_ERR_LIMIT, path, NULL, "member %s: packages nested deeper than %u, not opened",
                                 entry, sc->opts->max_package_depth);
            continue;
        }
        char *inner = chain_name(sc, entry);
        if (inner && sc->opts->on_file)
            sc->opts->on_file(sc->opts->on_file_ctx, inner);
        uint8_t *data = NULL;
        size_t len = 0;
        fc_status st = inner ? read_member(la, a, head, (size_t)got, la->entry_size_is_set(e) ? la->entry_size(e) : -1,
                                           sc->opts->max_member_size, &data, &len)
                             : FC_ERR_NOMEM;
        const char *saved_outer = sc->outer, *saved_inner = sc->inner;
        sc->outer = saved_outer ? saved_outer : path;
        sc->inner = inner;
        if (st == FC_ERR_LIMIT) {
            rc = fc_report_error(sc, st, entry, NULL, "member larger than the %llu-byte limit, not read",
                                 (unsigned long long)sc->opts->max_member_size);
        } else if (st != FC_OK) {
            rc = fc_report_error(sc, st, entry, NULL, "member could not be read: %s",
                                 st == FC_ERR_NOMEM ? "out of memory" : la->error_string(a));
        } else {
            fc_image img = {data, len, -1, false};
            bool named = sc->named;
            sc->named = false;
            sc->depth++;
            rc = nested ? fc_scan_package(sc, &img, entry) : fc_scan_image(sc, &img, entry);
            sc->depth--;
            sc->named = named;
        }
        sc->outer = saved_outer;
        sc->inner = saved_inner;
        free(data);
        free(inner);
    }
    if (rc == 0 && r != ARCHIVE_EOF && r != ARCHIVE_OK)
        rc = fc_report_error(sc, FC_ERR_FORMAT, path, NULL, "damaged package after %zu members: %s", members,
                             la->error_string(a));
    return rc;
}

int fc_scan_package(fc_scan_ctx *sc, const fc_image *img, const char *path)
{
    const char *why = NULL;
    const fc_archive_api *la = fc_archive_api_get(&why);
    if (!la)
        return fc_report_error(sc, FC_ERR_UNSUPPORTED, path, NULL, "%s", why);
    struct archive *a = open_reader(la);
    if (!a)
        return fc_report_error(sc, FC_ERR_NOMEM, path, NULL, "out of memory");
    int r;
    /* A file is read through its descriptor, so that the pages libarchive reads are not
     * kept mapped; a member of another package is in memory already. */
    if (img->fd >= 0 && lseek(img->fd, 0, SEEK_SET) == 0)
        r = la->read_open_fd(a, img->fd, 1u << 16);
    else
        r = la->read_open_memory(a, img->data, img->size);
    int rc;
    if (r != ARCHIVE_OK) {
        rc = fc_report_error(sc, FC_ERR_FORMAT, path, NULL, "not a readable package: %s", la->error_string(a));
    } else {
        size_t before = sc->delivered;
        bool named = sc->named;
        rc = scan_entries(sc, la, a, path);
        if (rc == 0 && named && sc->delivered == before && !sc->outer) {
            /* Named directly: say that it holds no CUDA code rather than stay silent. */
            fc_builder b;
            if (fc_builder_init(&b, sc->opts, path, NULL, NULL) == FC_OK) {
                b.obj.format = FC_FORMAT_PACKAGE;
                b.obj.size = img->size;
                rc = fc_deliver(sc, &b);
            } else {
                fc_builder_reset(&b);
                rc = fc_report_error(sc, FC_ERR_NOMEM, path, NULL, "out of memory");
            }
        }
    }
    la->read_free(a);
    return rc;
}

/* pyinstaller.c - the archive a PyInstaller one-file program carries its files in (its PKG,
 * or CArchive), read as a package: `app!torch/lib/libtorch_cuda.so`.
 *
 * A one-file program is PyInstaller's bootloader with the PKG in an ELF section named pydata
 * (Linux: `objcopy --add-section pydata=...`, PyInstaller/building/api.py) or appended to its
 * end (macOS, and older releases). The bootloader extracts every entry to a folder and runs
 * from there, so the CUDA libraries of such a program are entries of the PKG, zlib-compressed
 * as a rule: read as the program alone, it was "no CUDA code", exit 0.
 *
 * The format (PyInstaller's bootloader/src/pyi_archive.h and archive/writers.py): the PKG ends
 * with an 88-byte cookie, "MEI\014\013\012\013\016", then big-endian 32-bit the PKG's length,
 * the table's offset and length (offsets from the PKG's start), the Python version, and 64
 * bytes of the Python library's name. The table's entries: their length (16-aligned, the
 * name included), the data's offset, stored and extracted lengths, a compression flag (1:
 * zlib), a type code and a NUL-terminated name. PyInstaller's archive of modules ('z', the
 * PYZ), options ('o'), links ('n') and references to another program's files ('d') are not
 * read; every other entry is read as a package's member is, an unknown type code among them,
 * and scripts and modules ('s', 'm', 'M': marshalled code) too, searched as data for PTX kept
 * in a string, as a wheel's .py is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "bytes.h"
#include "image.h"
#include "input.h"
#include "reader.h"
#include "stream.h"

#define COOKIE_SIZE 88u
#define ENTRY_HEAD 18u
static const uint8_t MAGIC[8] = {'M', 'E', 'I', 014, 013, 012, 013, 016};

bool fc_pyinstaller_ends(const uint8_t *data, uint64_t lo, uint64_t hi)
{
    return hi >= lo && hi - lo >= COOKIE_SIZE && memcmp(data + hi - COOKIE_SIZE, MAGIC, sizeof MAGIC) == 0;
}

uint64_t fc_pyinstaller_last_cookie(const uint8_t *data, uint64_t lo, uint64_t hi)
{
    if (fc_pyinstaller_ends(data, lo, hi))
        return hi;
    if (hi < lo + COOKIE_SIZE)
        return 0;
    /* memrchr skips to each 'M' (a sparse 2 GiB file byte by byte took 8.7 s). */
    for (uint64_t end = hi - COOKIE_SIZE + 1; end > lo;) {
        const uint8_t *m = memrchr(data + lo, MAGIC[0], (size_t)(end - lo));
        if (!m)
            return 0;
        if (memcmp(m, MAGIC, sizeof MAGIC) == 0)
            return (uint64_t)(m - data) + COOKIE_SIZE;
        end = (uint64_t)(m - data);
    }
    return 0;
}

uint64_t fc_pyinstaller_appended_cookie(const uint8_t *data, uint64_t lo, uint64_t hi)
{
    uint64_t from = hi - lo > FC_PYI_APPENDED_SEARCH ? hi - FC_PYI_APPENDED_SEARCH : lo;
    return fc_pyinstaller_last_cookie(data, from, hi); /* a cookie that lies is said when read */
}

uint64_t fc_pyinstaller_start(const uint8_t *data, uint64_t end)
{
    if (end < COOKIE_SIZE)
        return UINT64_MAX;
    uint32_t length = fc_rd32be(data + end - COOKIE_SIZE + 8);
    return length >= COOKIE_SIZE && length <= end ? end - length : UINT64_MAX;
}

bool fc_pyinstaller_side_name(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    return n > 4 && strcasecmp(name + n - 4, ".pkg") == 0; /* "APP.PKG" on Windows too */
}

/* An entry's stored bytes, [at, end) of the image, read by pread for a file (through the
 * mapping, the 374 MB a program carrying cuBLASLt 13 stores stayed resident: 398 MB peak on
 * the H200) and inflated as they are read when compressed. */
#define IN_CHUNK (256u << 10)
typedef struct entry_stream {
    fc_stream s;
    fc_reader r;
    uint64_t at, end;
    uint64_t room; /* inflated bytes still allowed: the table's length and one more, which tells a
                    * stream that inflates past it (a zlib bomb) without inflating the rest */
    bool compressed, done;
    z_stream z;
} entry_stream;

static ssize_t entry_read(fc_stream *s, uint8_t *buf, size_t n)
{
    entry_stream *e = (entry_stream *)s;
    size_t got = 0;
    if (n > (1u << 30))
        n = 1u << 30;
    while (got < n && !e->done) {
        size_t avail = 0;
        const uint8_t *p = e->at < e->end ? fc_reader_get(&e->r, e->at, IN_CHUNK, &avail) : NULL;
        if (e->at < e->end && (!p || !avail)) {
            snprintf(s->error, sizeof s->error, "cannot read it: %s", e->r.error ? strerror(e->r.error)
                                                                               : "the file ends early");
            return -1;
        }
        if (avail > e->end - e->at)
            avail = (size_t)(e->end - e->at);
        if (!e->compressed) {
            size_t k = avail < n - got ? avail : n - got;
            if (k)
                memcpy(buf + got, p, k);
            got += k;
            e->at += k;
            e->done = e->at == e->end;
            continue;
        }
        size_t want = n - got < e->room ? n - got : (size_t)e->room;
        e->z.next_in = (Bytef *)(uintptr_t)p;
        e->z.avail_in = (uInt)avail;
        e->z.next_out = buf + got;
        e->z.avail_out = (uInt)want;
        int r = inflate(&e->z, Z_NO_FLUSH);
        e->at += avail - e->z.avail_in;
        got += want - e->z.avail_out;
        e->room -= want - e->z.avail_out;
        if (!e->room) {
            snprintf(s->error, sizeof s->error, "it inflates to more bytes than the archive's table says: damaged; "
                     "not read");
            return -1;
        }
        if (r == Z_STREAM_END) {
            e->done = true;
        } else if (r == Z_BUF_ERROR && !avail) { /* the stored bytes end before the stream */
            snprintf(s->error, sizeof s->error, "its zlib stream is cut short");
            return -1;
        } else if (r != Z_OK && r != Z_BUF_ERROR) {
            snprintf(s->error, sizeof s->error, "%s", e->z.msg ? e->z.msg : "damaged zlib stream");
            return -1;
        }
    }
    return (ssize_t)got;
}

/* Reads the entry NAME, STORED bytes at AT of IMG (zlib-compressed when COMPRESSED) that
 * extract to SIZE bytes, as a package's member. */
static int scan_entry(fc_scan_ctx *sc, const fc_image *img, uint64_t at, uint32_t stored, bool compressed,
                      uint32_t size, const char *name, const char *path)
{
    if (sc->depth + 1 >= sc->opts->max_package_depth)
        return fc_report_error(sc, FC_ERR_LIMIT, path, NULL, "PyInstaller entry %s: packages nested deeper than %u, "
                               "not opened", name, sc->opts->max_package_depth);
    if (size > sc->opts->max_member_size)
        return fc_report_error(sc, FC_ERR_LIMIT, path, NULL, "PyInstaller entry %s: %u bytes, more than the %llu-byte "
                               "limit; not read", name, size, (unsigned long long)sc->opts->max_member_size);
    char *inner = fc_member_chain(sc->outer ? sc->inner : NULL, name);
    if (!inner)
        return fc_report_error(sc, FC_ERR_NOMEM, path, NULL, "out of memory");
    entry_stream in = {.s = {.read = entry_read}, .at = at, .end = at + stored, .room = (uint64_t)size + 1,
                       .compressed = compressed, .done = !stored};
    if (!fc_image_reader(img, 0, at, at + stored, IN_CHUNK, &in.r) || (compressed && inflateInit(&in.z) != Z_OK)) {
        fc_reader_free(&in.r);
        free(inner);
        return fc_report_error(sc, FC_ERR_NOMEM, path, NULL, "out of memory");
    }
    fc_reader_read_size(&in.r, IN_CHUNK);
    int rc;
    fc_held held;
    char why[300];
    fc_status st = fc_hold(&in.s, size, sc->opts->max_member_size, &held, why, sizeof why);
    if (compressed)
        inflateEnd(&in.z);
    fc_reader_free(&in.r);
    if (st != FC_OK) {
        rc = fc_report_error(sc, st, path, NULL, "PyInstaller entry %s: %s", name, why);
    } else if (held.img.size != size) {
        /* The bootloader writes what it extracts and goes by the table's length. */
        rc = fc_report_error(sc, FC_ERR_FORMAT, path, NULL, "PyInstaller entry %s: %llu bytes where the archive's "
                             "table says %u: damaged; not read", name, (unsigned long long)held.img.size, size);
        fc_held_free(&held);
    } else {
        const char *saved_outer = sc->outer, *saved_inner = sc->inner;
        bool named = sc->named;
        bool archive;
        sc->outer = saved_outer ? saved_outer : path;
        sc->inner = inner;
        sc->named = false;
        sc->depth++;
        if (sc->opts->on_file)
            sc->opts->on_file(sc->opts->on_file_ctx, inner);
        /* Bytes of no known format are searched whole, as a package's member's are; an
         * archive of another program ("inner.pkg") is told by its end. */
        if (fc_sniff(held.img.data, held.img.size, &archive) == FC_FORMAT_UNKNOWN &&
            !fc_sniff_package(held.img.data, held.img.size) && !fc_pyinstaller_side_name(name))
            rc = fc_scan_data(sc, &held.img, 0, held.img.size, name, NULL);
        else
            rc = fc_scan_image(sc, &held.img, name);
        sc->depth--;
        sc->named = named;
        sc->outer = saved_outer;
        sc->inner = saved_inner;
        fc_held_free(&held);
    }
    free(inner);
    return rc;
}

/* Type codes of entries not read (pyi_archive.h): PyInstaller's archive of modules (its
 * own format, not searched), runtime options, symbolic links, another program's files. */
static bool holds_no_binary(char type)
{
    return type && strchr("zond", type);
}

int fc_pyinstaller_scan(fc_scan_ctx *sc, const fc_image *img, uint64_t lo, uint64_t hi, const char *path)
{
    const uint8_t *data = img->data, *cookie = data + hi - COOKIE_SIZE;
    uint32_t pkg_length = fc_rd32be(cookie + 8), toc_offset = fc_rd32be(cookie + 12), toc_length = fc_rd32be(cookie + 16);
    /* The PKG ends with its cookie and starts PKG_LENGTH bytes before its end. */
    if (pkg_length < COOKIE_SIZE || pkg_length > hi - lo)
        return fc_report_error(sc, FC_ERR_FORMAT, path, NULL, "a PyInstaller archive whose cookie says it is %u bytes, "
                               "where %llu are there: damaged or cut short; its files are not seen", pkg_length,
                               (unsigned long long)(hi - lo));
    uint64_t pkg = hi - pkg_length, body = pkg_length - COOKIE_SIZE;
    if (toc_offset > body || toc_length > body - toc_offset)
        return fc_report_error(sc, FC_ERR_FORMAT, path, NULL, "a PyInstaller archive whose table (%u bytes at %u) lies "
                               "outside it: damaged; its files are not seen", toc_length, toc_offset);
    const uint8_t *toc = data + pkg + toc_offset;
    int rc = 0;
    uint64_t read_total = 0; /* the stored bytes of the entries read: PyInstaller writes them one
                              * after another, before the table; more than that names bytes twice
                              * (an entry read 100,000 times over, a zlib bomb's bytes among them) */
    for (uint32_t at = 0; rc == 0 && at < toc_length;) {
        const uint8_t *e = toc + at;
        uint32_t left = toc_length - at, length = left >= 4 ? fc_rd32be(e) : 0;
        if (left < ENTRY_HEAD + 1 || length < ENTRY_HEAD + 1 || length > left || !memchr(e + ENTRY_HEAD, 0, length - ENTRY_HEAD))
            return fc_report_error(sc, FC_ERR_FORMAT, path, NULL, "a PyInstaller archive whose table is damaged %u "
                                   "bytes in: the files it names from there on are not seen", at);
        uint32_t offset = fc_rd32be(e + 4), stored = fc_rd32be(e + 8), size = fc_rd32be(e + 12);
        uint8_t flag = e[16];
        char type = (char)e[17];
        const char *name = (const char *)e + ENTRY_HEAD;
        at += length;
        if (holds_no_binary(type))
            continue;
        if (offset > toc_offset || stored > toc_offset - offset || flag > 1) {
            rc = fc_report_error(sc, FC_ERR_FORMAT, path, NULL, "PyInstaller entry %s: %s; not read", *name ? name : "?",
                                 flag > 1 ? "compressed in a way not known here" : "its bytes lie outside the archive");
            continue;
        }
        read_total += stored;
        if (read_total > toc_offset)
            return fc_report_error(sc, FC_ERR_FORMAT, path, NULL, "PyInstaller entry %s: its bytes are another "
                                   "entry's too: damaged; the files from there on are not seen", *name ? name : "?");
        rc = scan_entry(sc, img, pkg + offset, stored, flag == 1, size, *name ? name : "(an entry without a name)",
                        path);
    }
    return rc;
}
